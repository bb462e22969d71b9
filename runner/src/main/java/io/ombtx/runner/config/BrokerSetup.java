package io.ombtx.runner.config;

import io.ombtx.driver.api.config.ConfigFields;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The brokers a workload asks for and what it imposes on the driver: how many embedded brokers, their settings
 * profile and individual settings, the release and KIP-890 transaction version (null: the defaults), the client
 * release the drivers run on (null: the built-in one), and the driver overrides.
 *
 * <p>Two of Kafka's transaction dimensions have a key of their own, each a shorthand for one setting, so a suite can
 * toggle them without repeating the setting's name: {@code partitionVerification: true|false} is the broker setting
 * {@value #PARTITION_VERIFICATION} (KIP-890 part 1, Kafka 3.6 on) and {@code groupProtocol: classic|consumer} the
 * consumers' {@value #GROUP_PROTOCOL} (KIP-848; {@code consumer} needs a 4.0 broker). Each is merged into
 * {@link #brokerSettings} or {@link #driverOverrides}' {@code consumerConfig}; giving the same setting there too is
 * an error. The planner checks both against the chosen releases.
 *
 * @param brokers the {@code brokers} key, 1 when not given
 * @param brokersGiven whether the workload gives {@code brokers} itself (then a replication factor above it is an
 *     error, as it is above {@code --brokers})
 * @param partitionVerification the {@code partitionVerification} key, null when not given
 * @param groupProtocol the {@code groupProtocol} key, null when not given
 * @param brokerSystem the {@code brokerSystem} key (which embedded broker: kafka or tansu), null when not given
 * @param brokerSecurity the {@code brokerSecurity} key (none, sasl-scram, mtls), null when not given
 */
public record BrokerSetup(
        int brokers,
        boolean brokersGiven,
        ClusterProfile brokerProfile,
        Map<String, String> brokerSettings,
        DriverOverrides driverOverrides,
        String brokerVersion,
        Integer transactionVersion,
        String clientVersion,
        Boolean partitionVerification,
        GroupProtocol groupProtocol,
        EmbeddedSystem brokerSystem,
        BrokerSecurity brokerSecurity) {

    /** The most brokers an embedded cluster starts (what {@code brokers:} and a broker index are checked against). */
    public static final int MAX_EMBEDDED_BROKERS = 9;

    /** The highest {@code transactionVersion} a workload may ask the embedded cluster for (KIP-890's). */
    public static final int MAX_TRANSACTION_VERSION = 2;

    /** The broker setting {@code partitionVerification} stands for. */
    public static final String PARTITION_VERIFICATION = "transaction.partition.verification.enable";

    /** The consumer setting {@code groupProtocol} stands for. */
    public static final String GROUP_PROTOCOL = "group.protocol";

    /** The consumer group protocols ({@code group.protocol}, KIP-848). */
    public enum GroupProtocol {
        /** The protocol of every release: JoinGroup/SyncGroup, assignment by the group leader. */
        CLASSIC,
        /** KIP-848's: heartbeats, assignment by the group coordinator (GA in Kafka 4.0). */
        CONSUMER;

        /** The value kafka-clients takes. */
        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public BrokerSetup {
        brokerSettings = Map.copyOf(brokerSettings);
    }

    static BrokerSetup read(ConfigFields f) {
        int brokers = f.wholeNumber("brokers", 1, 1, BrokerSetup.MAX_EMBEDDED_BROKERS);
        ClusterProfile profile;
        try {
            profile = f.has("brokerProfile")
                    ? ClusterProfile.parse(f.text("brokerProfile", null))
                    : ClusterProfile.DEFAULT;
        } catch (IllegalArgumentException e) {
            throw f.error("brokerProfile", e.getMessage());
        }
        Map<String, String> brokerSettings = settings(f.block("brokerSettings"));
        DriverOverrides overrides = DriverOverrides.read(f.block("driverOverrides"));
        Boolean verification = f.has("partitionVerification") ? f.bool("partitionVerification", true) : null;
        if (verification != null) {
            if (brokerSettings.containsKey(PARTITION_VERIFICATION)) {
                throw f.error(
                        "partitionVerification",
                        "give it once: brokerSettings." + PARTITION_VERIFICATION + " sets the same broker setting");
            }
            brokerSettings.put(PARTITION_VERIFICATION, verification.toString());
        }
        GroupProtocol protocol =
                f.has("groupProtocol") ? f.choice("groupProtocol", GroupProtocol.class, GroupProtocol.CLASSIC) : null;
        if (protocol != null) {
            Map<String, Map<String, String>> settings = new LinkedHashMap<>(overrides.settings());
            for (String block : List.of("commonConfig", "consumerConfig")) {
                if (settings.getOrDefault(block, Map.of()).containsKey(GROUP_PROTOCOL)) {
                    throw f.error(
                            "groupProtocol",
                            "give it once: driverOverrides." + block + " sets " + GROUP_PROTOCOL + " too");
                }
            }
            Map<String, String> consumer = new LinkedHashMap<>(settings.getOrDefault("consumerConfig", Map.of()));
            consumer.put(GROUP_PROTOCOL, protocol.key());
            settings.put("consumerConfig", consumer);
            overrides = new DriverOverrides(overrides.replicationFactor(), settings);
        }
        return new BrokerSetup(
                brokers,
                f.has("brokers"),
                profile,
                brokerSettings,
                overrides,
                WorkloadLoader.brokerVersion(f),
                WorkloadLoader.transactionVersion(f),
                clientVersion(f),
                verification,
                protocol,
                f.has("brokerSystem") ? f.choice("brokerSystem", EmbeddedSystem.class, EmbeddedSystem.KAFKA) : null,
                f.has("brokerSecurity") ? security(f) : null);
    }

    private static BrokerSecurity security(ConfigFields f) {
        String text = f.text("brokerSecurity", null);
        try {
            return BrokerSecurity.parse(text);
        } catch (IllegalArgumentException e) {
            throw f.error("brokerSecurity", "expected none, sasl-scram or mtls, got '" + text + "'");
        }
    }

    /**
     * A mapping's {@code clientVersion} as written, or null when not given; the planner resolves it to a release the
     * installed broker system knows (and refuses one it does not), since this package knows no broker system.
     */
    public static String clientVersion(ConfigFields f) {
        return f.has("clientVersion") ? f.text("clientVersion", null) : null;
    }

    private static Map<String, String> settings(ConfigFields block) {
        Map<String, String> map = new LinkedHashMap<>();
        block.node().fields().forEachRemaining(e -> {
            if (e.getValue().isContainerNode()) {
                throw block.error(e.getKey(), "expected a single value for a broker setting");
            }
            map.put(e.getKey(), e.getValue().asText());
        });
        return map;
    }
}

package io.ombtx.runner.cluster;

import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.result.RunResult;
import java.util.List;
import java.util.Optional;

/**
 * What a run needs of the broker's transactional protocol, and whether the broker serves it: the rules that hold a
 * workload against the {@link RunResult.Capabilities} probed before the load. Pure: the planner says what each run
 * needs and where it was asked for ({@link Need}); once the cluster has answered, {@link #refusal} blames the first
 * need it does not serve on that file and key (bad input, exit 2), naming the API.
 */
public final class BrokerNeeds {

    private BrokerNeeds() {}

    /** A capability of the transactional protocol: the API and the lowest version of it that has it. */
    public enum Capability {
        /** KIP-848's consumer group protocol ({@code group.protocol=consumer}): ConsumerGroupHeartbeat, any version. */
        CONSUMER_GROUP_PROTOCOL("ConsumerGroupHeartbeat", 0, "KIP-848", "the consumer group protocol"),
        /** KIP-890 part 2's transactions (transaction.version 2): EndTxn v5. */
        TRANSACTION_V2("EndTxn", 5, "KIP-890 part 2", "transaction version 2"),
        /**
         * KIP-447's offsets committed in a transaction with the consumer's group metadata (generation, member id):
         * TxnOffsetCommit v3, Kafka 2.5 on. kafka-clients refuses to send such offsets at a lower version.
         */
        GROUP_METADATA("TxnOffsetCommit", 3, "KIP-447", "offsets committed with the consumer's group metadata");

        private final String api;
        private final int minVersion;
        private final String kip;
        private final String what;

        Capability(String api, int minVersion, String kip, String what) {
            this.api = api;
            this.minVersion = minVersion;
            this.kip = kip;
            this.what = what;
        }

        /** The KIP that brought it: "KIP-848". */
        public String kip() {
            return kip;
        }

        /** The API's name as Kafka's protocol guide spells it. */
        public String api() {
            return api;
        }

        public int minVersion() {
            return minVersion;
        }

        /** "ConsumerGroupHeartbeat", "EndTxn v5". */
        public String apiText() {
            return minVersion == 0 ? api : api + " v" + minVersion;
        }

        /** Whether a broker with {@code capabilities} serves it (false when they were not probed). */
        public boolean servedBy(RunResult.Capabilities capabilities) {
            return capabilities.probed() && capabilities.maxVersion(api) >= minVersion;
        }
    }

    /**
     * A run's need, blamed where it was asked for.
     *
     * @param file the file that asks for it, or null for a command-line flag
     * @param key the key (or the flag) that asks for it
     * @param asks what asks for it, in words ("groupProtocol consumer")
     * @param remedy what to do instead
     */
    public record Need(Capability capability, String file, String key, String asks, String remedy) {}

    /**
     * The first of {@code needs} that {@code broker} does not serve, as bad input naming the API; empty when it
     * serves them all, or when its capabilities are unknown (not probed: TLS or SASL, no answer), which refuses
     * nothing.
     */
    public static Optional<ConfigException> refusal(List<Need> needs, RunResult.Broker broker) {
        RunResult.Capabilities capabilities = broker.capabilities();
        if (capabilities == null || !capabilities.probed()) {
            return Optional.empty();
        }
        for (Need need : needs) {
            Capability c = need.capability();
            if (c.servedBy(capabilities)) {
                continue;
            }
            String range = capabilities.apis().getOrDefault(c.api(), RunResult.Capabilities.NONE);
            String serves = range.equals(RunResult.Capabilities.NONE)
                    ? "does not serve " + c.api() + " at all"
                    : "serves " + c.api() + " " + range + " only";
            String problem = need.asks() + " needs " + c.apiText() + " (" + c.kip + ": " + c.what + "), and "
                    + where(broker) + " " + serves + " (ApiVersions, probed before the load): " + need.remedy();
            return Optional.of(
                    need.file() == null
                            ? new ConfigException(null, null, need.key() + ": " + problem)
                            : new ConfigException(need.file(), need.key(), problem));
        }
        return Optional.empty();
    }

    /** "the cluster at HOST:PORT (kafka)", "the embedded broker (tansu)". */
    private static String where(RunResult.Broker broker) {
        String system = broker.system() == null ? "" : " (" + broker.system().key() + ")";
        return (broker.bootstrapServers() != null
                        ? "the cluster at " + broker.bootstrapServers()
                        : broker.embedded() ? "the embedded broker" : "the cluster")
                + system;
    }
}

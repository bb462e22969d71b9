package io.ombtx.runner.config;

import io.ombtx.driver.api.config.ConfigFields;
import io.ombtx.runner.cluster.ClusterProfile;
import io.ombtx.runner.cluster.ClusterSystem;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The brokers a workload asks for and what it imposes on the driver: how many embedded brokers, their settings
 * profile and individual settings, the release and KIP-890 transaction version (null: the defaults), the client
 * release the drivers run on (null: the built-in one), and the driver overrides.
 */
public record BrokerSetup(
        int brokers,
        ClusterProfile brokerProfile,
        Map<String, String> brokerSettings,
        DriverOverrides driverOverrides,
        String brokerVersion,
        Integer transactionVersion,
        String clientVersion) {

    public BrokerSetup {
        brokerSettings = Map.copyOf(brokerSettings);
    }

    static BrokerSetup read(ConfigFields f) {
        int brokers = f.wholeNumber("brokers", 1, 1, ClusterSystem.MAX_EMBEDDED_BROKERS);
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
        return new BrokerSetup(
                brokers,
                profile,
                brokerSettings,
                overrides,
                WorkloadLoader.brokerVersion(f),
                WorkloadLoader.transactionVersion(f),
                clientVersion(f));
    }

    /** A mapping's {@code clientVersion}: a client release, or null when not given. */
    public static String clientVersion(ConfigFields f) {
        if (!f.has("clientVersion")) {
            return null;
        }
        try {
            return io.ombtx.runner.cluster.ClusterSystems.installed().clientRelease(f.text("clientVersion", null));
        } catch (IllegalArgumentException e) {
            throw f.error("clientVersion", e.getMessage());
        }
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

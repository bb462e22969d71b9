package io.ombtx.runner.plan;

import io.ombtx.broker.BrokerProfile;
import java.util.Map;

/**
 * The brokers a run uses: an embedded cluster the runner starts (count, profile, settings on top of the profile),
 * or an external one named by the driver, which must have at least {@code brokers} nodes.
 */
public record BrokerPlan(boolean embedded, int brokers, BrokerProfile profile, Map<String, String> settings,
        String bootstrapServers) {

    public BrokerPlan {
        settings = Map.copyOf(settings);
    }

    public static BrokerPlan embedded(int brokers, BrokerProfile profile, Map<String, String> settings) {
        return new BrokerPlan(true, brokers, profile, settings, null);
    }

    public static BrokerPlan external(int brokersNeeded, String bootstrapServers) {
        return new BrokerPlan(false, brokersNeeded, null, Map.of(), bootstrapServers);
    }
}

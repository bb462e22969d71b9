package io.ombtx.broker;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Named sets of broker settings for the embedded Kafka. Every setting omb-tx chooses is written out here, so a
 * result can state exactly what the broker ran with; per-run overrides go on top.
 */
public enum BrokerProfile {
    /** Kafka's own defaults, except what a small loopback cluster needs (replication of internal topics). */
    DEFAULT,
    /** Seed 003's "max consistency": replicated internal topics, min ISR 2, fsync on every message. */
    MAX_CONSISTENCY;

    public String displayName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The settings this profile sets on a cluster of {@code brokers} nodes. */
    public Map<String, String> settings(int brokers) {
        Map<String, String> settings = new LinkedHashMap<>();
        String internalReplication = Integer.toString(Math.min(3, brokers));
        String internalMinIsr = Integer.toString(Math.min(2, brokers));
        settings.put("offsets.topic.replication.factor", internalReplication);
        settings.put("transaction.state.log.replication.factor", internalReplication);
        settings.put("transaction.state.log.min.isr", internalMinIsr);
        settings.put("offsets.topic.num.partitions", "50");
        settings.put("transaction.state.log.num.partitions", "50");
        settings.put("group.initial.rebalance.delay.ms", "0");
        settings.put("auto.create.topics.enable", "false");
        // Kafka 4.x batches offset-commit appends for this long; it dominates naive streaming latency, so it is
        // always stated (at Kafka's default) rather than left implicit.
        settings.put("group.coordinator.append.linger.ms", "5");
        if (this == MAX_CONSISTENCY) {
            settings.put("min.insync.replicas", internalMinIsr);
            settings.put("log.flush.interval.messages", "1");
            settings.put("log.flush.interval.ms", "0");
        }
        return settings;
    }
}

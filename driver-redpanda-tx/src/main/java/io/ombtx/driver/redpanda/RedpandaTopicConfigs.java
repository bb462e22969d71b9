package io.ombtx.driver.redpanda;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The topic configs Redpanda understands (its "Topic Configuration Properties" reference). Others are dropped
 * before topic creation, with a warning, rather than failing the run or being silently ignored by the broker.
 * Notably Kafka's {@code min.insync.replicas} (Redpanda replicates with Raft: a write is acknowledged by a majority,
 * there is no ISR) and {@code flush.messages} (Redpanda fsyncs acks=all writes before acknowledging unless write
 * caching is on; its knobs are {@code write.caching}, {@code flush.ms} and {@code flush.bytes}).
 */
final class RedpandaTopicConfigs {

    static final Set<String> SUPPORTED = Set.of(
            "cleanup.policy",
            "compression.type",
            "flush.bytes",
            "flush.ms",
            "initial.retention.local.target.bytes",
            "initial.retention.local.target.ms",
            "max.message.bytes",
            "message.timestamp.type",
            "redpanda.remote.delete",
            "redpanda.remote.read",
            "redpanda.remote.write",
            "replication.factor",
            "retention.bytes",
            "retention.local.target.bytes",
            "retention.local.target.ms",
            "retention.ms",
            "segment.bytes",
            "segment.ms",
            "write.caching");

    /** @param kept passed to CreateTopics; @param dropped not supported by Redpanda */
    record Filtered(Map<String, String> kept, Map<String, String> dropped) {}

    private RedpandaTopicConfigs() {}

    static Filtered filter(Map<String, String> requested) {
        Map<String, String> kept = new LinkedHashMap<>();
        Map<String, String> dropped = new LinkedHashMap<>();
        requested.forEach((key, value) -> (SUPPORTED.contains(key) ? kept : dropped).put(key, value));
        return new Filtered(Map.copyOf(kept), Map.copyOf(dropped));
    }
}

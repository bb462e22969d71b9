package io.ombtx.runner.stats;

import io.ombtx.driver.api.EnumKeys;

/**
 * A latency a worker records into a histogram (µs). Histograms merge by adding their counts, never by averaging
 * percentiles. Transaction phases have histograms of their own, keyed by {@link io.ombtx.driver.api.Phase}.
 */
public enum Latency {
    /** Ack time minus the actual send (OMB's publish latency). */
    PUBLISH_LATENCY,
    /** Actual send minus the intended send (OMB's publish delay). */
    PUBLISH_DELAY,
    /** Consumer's clock minus the producer's timestamp. */
    END_TO_END,
    /** Ack time minus the intended send: publish latency with coordinated omission accounted for. */
    INTENDED_PUBLISH_LATENCY,
    /** One whole operation. */
    OPERATION_LATENCY,
    /**
     * Not a time: the messages each transaction held, where the driver cut a stream of messages into transactions (a
     * transactional PUBLISH). A histogram like the others, merged the same way.
     */
    MESSAGES_PER_TRANSACTION;

    /** The name in results and on the wire. */
    public String key() {
        return switch (this) {
            case PUBLISH_LATENCY -> "publishLatency";
            case PUBLISH_DELAY -> "publishDelay";
            case END_TO_END -> "endToEndLatency";
            case INTENDED_PUBLISH_LATENCY -> "intendedPublishLatency";
            case OPERATION_LATENCY -> "operationLatency";
            case MESSAGES_PER_TRANSACTION -> "messagesPerTransaction";
        };
    }

    public static Latency ofKey(String key) {
        return EnumKeys.find(values(), Latency::key, key)
                .orElseThrow(() -> new IllegalArgumentException("unknown histogram '" + key + "'"));
    }
}

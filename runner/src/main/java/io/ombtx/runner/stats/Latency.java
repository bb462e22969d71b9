package io.ombtx.runner.stats;

/**
 * A latency a worker records into a histogram (µs). Histograms merge by adding their counts, never by averaging
 * percentiles. Transaction phases have histograms of their own, keyed by {@link io.ombtx.driver.api.Phase}.
 */
public enum Latency {
    /** Ack time minus the actual send (OMB's publish latency). */
    PUBLISH_LATENCY("publishLatency"),
    /** Actual send minus the intended send (OMB's publish delay). */
    PUBLISH_DELAY("publishDelay"),
    /** Consumer's clock minus the producer's timestamp. */
    END_TO_END("endToEndLatency"),
    /** Ack time minus the intended send: publish latency with coordinated omission accounted for. */
    INTENDED_PUBLISH_LATENCY("intendedPublishLatency"),
    /** One whole operation. */
    OPERATION_LATENCY("operationLatency");

    private final String key;

    Latency(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}

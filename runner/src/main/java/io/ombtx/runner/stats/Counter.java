package io.ombtx.runner.stats;

import io.ombtx.driver.api.EnumKeys;
import java.util.function.LongBinaryOperator;

/**
 * A count a worker keeps, with its name in results and on the wire and the rule by which two values combine (two
 * workers', or two periods'): most add up; a wall-clock span is the longest of them.
 */
public enum Counter {
    MESSAGES_SENT("messagesSent", Long::sum),
    /**
     * Messages acknowledged that were sent after the statistics were last reset (a time-based warm-up's end): what
     * the measurement sent, without the warm-up's messages that its acknowledgements still bring in.
     */
    MESSAGES_SENT_MEASURED("messagesSentMeasured", Long::sum),
    BYTES_SENT("bytesSent", Long::sum),
    PUBLISH_ERRORS("publishErrors", Long::sum),
    MESSAGES_RECEIVED("messagesReceived", Long::sum),
    BYTES_RECEIVED("bytesReceived", Long::sum),
    OPERATIONS("operations", Long::sum),
    /** Source records a STREAM operation consumed and wrote to its target topic. */
    MESSAGES_PROCESSED("messagesProcessed", Long::sum),
    COMMITTED("committed", Long::sum),
    /** Transaction attempts aborted after a failure (and retried). */
    ABORTED("aborted", Long::sum),
    /** Transactions aborted on purpose ({@code operation.abortRatio}): not failures. */
    ABORTED_ON_PURPOSE("abortedOnPurpose", Long::sum),
    FAILED("failed", Long::sum),
    FATAL_ERRORS("fatalErrors", Long::sum),
    /** Attempts begun again after a failed one, plus commits repeated after a time-out. */
    RETRIES("retries", Long::sum),
    /** Failures that said the producer had been fenced. */
    FENCED("fenced", Long::sum),
    /** New producers created to carry on after a fatal error. */
    PRODUCERS_REPLACED("producersReplaced", Long::sum),
    /** Record batches kafka-clients itself sent again (its record-retry-total). */
    CLIENT_RETRIES("clientRetries", Long::sum),
    /** Wall-clock nanoseconds from the first measured operation's start to the last one's end. */
    MEASURED_SPAN_NANOS("measuredSpanNanos", Math::max);

    private final String key;
    private final LongBinaryOperator merge;

    Counter(String key, LongBinaryOperator merge) {
        this.key = key;
        this.merge = merge;
    }

    public String key() {
        return key;
    }

    public long merge(long a, long b) {
        return merge.applyAsLong(a, b);
    }

    public static Counter ofKey(String key) {
        return EnumKeys.find(values(), Counter::key, key)
                .orElseThrow(() -> new IllegalArgumentException("unknown counter '" + key + "'"));
    }
}

package io.ombtx.driver.kafka;

/**
 * The driver YAML's {@code transactions:} block. {@code enabled} and {@code messagesPerTransaction} describe the
 * run only when no runner calls {@code configureOperation} (stock OMB); the rest always applies.
 *
 * <p>In stock OMB the producer group-commits, as Kafka Streams does with {@code commit.interval.ms}: a transaction
 * opens with the first send, every send that arrives while it is open (or while the previous one is committing)
 * joins it, and it commits after {@code commitIntervalMs} or as soon as it reaches a size bound.
 *
 * @param enabled stock OMB runs: wrap {@code sendAsync} calls in transactions
 * @param messagesPerTransaction stock OMB runs: the most messages one transaction holds (YAML
 *     {@code maxMessagesPerTransaction}, or its older name {@code messagesPerTransaction}); reaching it commits
 * @param commitIntervalMs how long a transaction stays open for more sends before it commits (from its begin)
 * @param transactionalIdPrefix first part of every transactional id ({@code <prefix>-<run id>-<producer index>})
 * @param resolveBeforeCommit wait for the sends' acks before committing (seed 003's begin, send, resolve,
 *     commit); false commits first and then reads the already-complete futures (seed 000's TxWritesBench)
 * @param maxRetries attempts after the first before an operation is reported as failed
 * @param maxBytesPerTransaction stock OMB runs: the most payload and key bytes one transaction holds; reaching it
 *     commits (a single larger message still gets a transaction of its own)
 * @param closeTimeoutMs how long closing a producer may take to finish its open transaction; past it the producer
 *     is closed at once and the transaction's sends fail (the broker aborts it when its timeout expires)
 */
public record TransactionSettings(
        boolean enabled,
        int messagesPerTransaction,
        long commitIntervalMs,
        String transactionalIdPrefix,
        boolean resolveBeforeCommit,
        int maxRetries,
        long maxBytesPerTransaction,
        long closeTimeoutMs) {

    public static final int DEFAULT_MAX_MESSAGES = 10_000;
    public static final long DEFAULT_MAX_BYTES = 16L << 20;
    public static final long DEFAULT_CLOSE_TIMEOUT_MS = 30_000;

    /** The settings without the group-commit bounds added later: those take their defaults. */
    public TransactionSettings(
            boolean enabled,
            int messagesPerTransaction,
            long commitIntervalMs,
            String transactionalIdPrefix,
            boolean resolveBeforeCommit,
            int maxRetries) {
        this(
                enabled,
                messagesPerTransaction,
                commitIntervalMs,
                transactionalIdPrefix,
                resolveBeforeCommit,
                maxRetries,
                DEFAULT_MAX_BYTES,
                DEFAULT_CLOSE_TIMEOUT_MS);
    }

    public static TransactionSettings defaults() {
        return new TransactionSettings(false, DEFAULT_MAX_MESSAGES, 100, "omb-tx", true, 3);
    }

    /** Where transactions wait for their acks: before sendOffsets with {@code resolveBeforeCommit}, else after the commit. */
    AckWait ackWait() {
        return resolveBeforeCommit ? AckWait.BEFORE_SEND_OFFSETS : AckWait.AFTER_COMMIT;
    }
}

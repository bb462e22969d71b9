package io.ombtx.driver.kafka;

/**
 * The driver YAML's {@code transactions:} block. {@code enabled} and {@code messagesPerTransaction} describe the
 * run only when no runner calls {@code configureOperation} (stock OMB); the rest always applies.
 *
 * @param enabled stock OMB runs: wrap {@code sendAsync} calls in transactions
 * @param messagesPerTransaction stock OMB runs: commit once the open transaction holds this many messages
 * @param commitIntervalMs commit a partly filled open transaction after this long, so a slow rate still commits
 * @param transactionalIdPrefix first part of every transactional id ({@code <prefix>-<run id>-<producer index>})
 * @param resolveBeforeCommit wait for the sends' acks before committing (seed 003's begin, send, resolve,
 *     commit); false commits first and then reads the already-complete futures (seed 000's TxWritesBench)
 * @param maxRetries attempts after the first before an operation is reported as failed
 */
public record TransactionSettings(
        boolean enabled,
        int messagesPerTransaction,
        long commitIntervalMs,
        String transactionalIdPrefix,
        boolean resolveBeforeCommit,
        int maxRetries) {

    public static TransactionSettings defaults() {
        return new TransactionSettings(false, 1, 100, "omb-tx", true, 3);
    }

    /** Where transactions wait for their acks: before sendOffsets with {@code resolveBeforeCommit}, else after the commit. */
    AckWait ackWait() {
        return resolveBeforeCommit ? AckWait.BEFORE_SEND_OFFSETS : AckWait.AFTER_COMMIT;
    }
}

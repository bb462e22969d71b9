package io.ombtx.driver.kafka;

import io.ombtx.driver.api.AwaitAcks;

/**
 * Where a transaction waits for its sends' acks (the RESOLVE phase). The other calls keep their order: begin,
 * send, sendOffsetsToTransaction, commit. The workload's {@link AwaitAcks} chooses it in omb-tx runs; the driver
 * YAML's {@code transactions.resolveBeforeCommit} in stock OMB.
 */
enum AckWait {
    /** begin, send, resolve, sendOffsets, commit (seed 003). */
    BEFORE_SEND_OFFSETS,
    /** begin, send, sendOffsets, resolve, commit. */
    BEFORE_COMMIT,
    /** begin, send, sendOffsets, commit, resolve (seed 000): the commit flushes the sends, so the acks are complete. */
    AFTER_COMMIT;

    static AckWait of(AwaitAcks order) {
        return switch (order) {
            case BEFORE_SEND_OFFSETS -> BEFORE_SEND_OFFSETS;
            case BEFORE_COMMIT -> BEFORE_COMMIT;
            case AFTER_COMMIT -> AFTER_COMMIT;
        };
    }

    AwaitAcks order() {
        return AwaitAcks.valueOf(name());
    }
}

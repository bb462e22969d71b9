package io.ombtx.driver.kafka;

/**
 * Where a transaction waits for its sends' acks (the RESOLVE phase). The other calls keep their order: begin,
 * send, sendOffsetsToTransaction, commit.
 */
enum AckWait {
    /** begin, send, resolve, sendOffsets, commit (seed 003). */
    BEFORE_SEND_OFFSETS,
    /** begin, send, sendOffsets, resolve, commit. */
    BEFORE_COMMIT,
    /** begin, send, sendOffsets, commit, resolve (seed 000): the commit flushes the sends, so the acks are complete. */
    AFTER_COMMIT
}

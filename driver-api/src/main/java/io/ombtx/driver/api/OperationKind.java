package io.ombtx.driver.api;

/** What one measured operation of a scenario is. */
public enum OperationKind {
    /** OMB's unit: one message per {@code sendAsync}. */
    PUBLISH,
    /** N messages spread round-robin over M partitions, completing when all are acknowledged (and committed). */
    WRITE,
    /** A transaction holding only {@code sendOffsetsToTransaction} (seed 001, TxSendOffsetsBench). */
    SEND_OFFSETS,
    /** Consume-transform-produce: per K consumed records, produce to the target topic and commit the offsets. */
    STREAM
}

package io.ombtx.driver.api;

/**
 * The scenario the runner asks a {@link ScenarioDriver} to perform, fixed before any topic, producer or
 * consumer is created.
 *
 * @param kind what one operation is
 * @param transactional wrap each operation in a transaction (begin ... commit)
 * @param messagesPerOperation WRITE: messages per operation; STREAM: source records per transaction
 * @param partitionsPerOperation WRITE: the messages go round-robin to this many partitions of the topic
 * @param sendOffsets WRITE in a transaction: also call {@code sendOffsetsToTransaction}
 * @param readCommitted consumers read with {@code isolation.level=read_committed}
 * @param awaitAcks where a transaction (or a STREAM batch, whose commit is then {@code commitSync}) waits for its
 *     sends' acks; null for operations without that choice, and from runners that do not set it (the driver's own
 *     default then applies)
 * @param abortRatio the share of transactions (0..1) the driver aborts on purpose after sending, instead of
 *     committing; 0 for none, and for every non-transactional operation
 * @param abortSeed the seed of the random choice of which transactions abort, so a run can be repeated
 * @param messagesPerTransaction a transactional PUBLISH: the most messages one transaction holds before it commits
 *     (0: no count bound, the interval alone cuts it); 0 for every other operation
 * @param commitIntervalMs a transactional PUBLISH: how long a transaction stays open for more messages, from its
 *     begin (0: the driver's own setting); 0 for every other operation
 * @param transactionsPerProducer producer churn: each transactional id ends this many transactions, then its producer
 *     is closed and a new one takes the next id ({@code initTransactions} timed as {@link Phase#INIT}); 0 for none
 */
public record OperationSpec(
        OperationKind kind,
        boolean transactional,
        int messagesPerOperation,
        int partitionsPerOperation,
        boolean sendOffsets,
        boolean readCommitted,
        AwaitAcks awaitAcks,
        double abortRatio,
        long abortSeed,
        int messagesPerTransaction,
        long commitIntervalMs,
        int transactionsPerProducer) {

    /** A spec without producer churn: each transactional id lasts the whole run. */
    public OperationSpec(
            OperationKind kind,
            boolean transactional,
            int messagesPerOperation,
            int partitionsPerOperation,
            boolean sendOffsets,
            boolean readCommitted,
            AwaitAcks awaitAcks,
            double abortRatio,
            long abortSeed,
            int messagesPerTransaction,
            long commitIntervalMs) {
        this(
                kind,
                transactional,
                messagesPerOperation,
                partitionsPerOperation,
                sendOffsets,
                readCommitted,
                awaitAcks,
                abortRatio,
                abortSeed,
                messagesPerTransaction,
                commitIntervalMs,
                0);
    }

    /** A spec whose transactions (if any) are one operation each, not cut from a stream of messages. */
    public OperationSpec(
            OperationKind kind,
            boolean transactional,
            int messagesPerOperation,
            int partitionsPerOperation,
            boolean sendOffsets,
            boolean readCommitted,
            AwaitAcks awaitAcks,
            double abortRatio,
            long abortSeed) {
        this(
                kind,
                transactional,
                messagesPerOperation,
                partitionsPerOperation,
                sendOffsets,
                readCommitted,
                awaitAcks,
                abortRatio,
                abortSeed,
                0,
                0);
    }

    /** A spec without aborts on purpose. */
    public OperationSpec(
            OperationKind kind,
            boolean transactional,
            int messagesPerOperation,
            int partitionsPerOperation,
            boolean sendOffsets,
            boolean readCommitted,
            AwaitAcks awaitAcks) {
        this(
                kind,
                transactional,
                messagesPerOperation,
                partitionsPerOperation,
                sendOffsets,
                readCommitted,
                awaitAcks,
                0,
                0);
    }

    /** A spec that leaves the order of the ack wait to the driver. */
    public OperationSpec(
            OperationKind kind,
            boolean transactional,
            int messagesPerOperation,
            int partitionsPerOperation,
            boolean sendOffsets,
            boolean readCommitted) {
        this(kind, transactional, messagesPerOperation, partitionsPerOperation, sendOffsets, readCommitted, null);
    }

    public OperationSpec {
        if (kind == null) {
            throw new IllegalArgumentException("kind is required");
        }
        if (messagesPerOperation < 0 || (messagesPerOperation == 0 && kind != OperationKind.SEND_OFFSETS)) {
            throw new IllegalArgumentException("messagesPerOperation must be positive for " + kind);
        }
        if (partitionsPerOperation < 1) {
            throw new IllegalArgumentException("partitionsPerOperation must be at least 1");
        }
        if (kind == OperationKind.SEND_OFFSETS && !transactional) {
            throw new IllegalArgumentException("SEND_OFFSETS only exists inside a transaction");
        }
        if (awaitAcks != null && !hasAckOrder(kind, transactional)) {
            throw new IllegalArgumentException("awaitAcks applies to transactional operations and STREAM, not to a"
                    + " non-transactional " + kind);
        }
        if (!(abortRatio >= 0 && abortRatio <= 1)) {
            throw new IllegalArgumentException("abortRatio must be within 0..1, got " + abortRatio);
        }
        if (abortRatio > 0 && !transactional) {
            throw new IllegalArgumentException(
                    "abortRatio applies to transactions, not to a non-transactional " + kind);
        }
        if (messagesPerTransaction < 0 || commitIntervalMs < 0) {
            throw new IllegalArgumentException("messagesPerTransaction and commitIntervalMs must not be negative");
        }
        if ((messagesPerTransaction > 0 || commitIntervalMs > 0) && !(transactional && kind == OperationKind.PUBLISH)) {
            throw new IllegalArgumentException(
                    "messagesPerTransaction and commitIntervalMs cut a transactional PUBLISH's transactions, not "
                            + kind + (transactional ? "'s" : " without transactions"));
        }
        if (transactionsPerProducer < 0) {
            throw new IllegalArgumentException("transactionsPerProducer must not be negative");
        }
        if (transactionsPerProducer > 0 && !(transactional && kind != OperationKind.STREAM)) {
            throw new IllegalArgumentException("transactionsPerProducer renews a transactional producer's id, not a"
                    + (transactional
                            ? " STREAM's (its processors' ids follow their partitions)"
                            : " non-transactional " + kind + "'s"));
        }
    }

    /**
     * Whether the driver cuts this operation's stream of messages into transactions (a transactional PUBLISH), rather
     * than running each operation as one transaction.
     */
    public boolean cutsTransactions() {
        return transactional && kind == OperationKind.PUBLISH;
    }

    /** Whether an operation of this kind has an order of the ack wait to choose: transactions and STREAM batches. */
    public static boolean hasAckOrder(OperationKind kind, boolean transactional) {
        return transactional || kind == OperationKind.STREAM;
    }

    /** OMB's plain publish: one message per operation, no transaction. */
    public static OperationSpec publish() {
        return new OperationSpec(OperationKind.PUBLISH, false, 1, 1, false, false);
    }
}

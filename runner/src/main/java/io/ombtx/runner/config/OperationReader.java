package io.ombtx.runner.config;

import io.ombtx.driver.api.AwaitAcks;
import io.ombtx.driver.api.KeySuggestions;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.config.ConfigFields;
import java.util.List;

/** Reads a workload's {@code operation:} block into the {@link OperationSpec} every worker and driver is given. */
final class OperationReader {

    static final List<String> KEYS = List.of(
            "kind",
            "transactional",
            "messagesPerOperation",
            "partitionsPerOperation",
            "sendOffsets",
            "readCommitted",
            "waitForConsume",
            "prefillMessages",
            "verifyExactlyOnce",
            "liveCheck",
            "awaitAcks",
            "abortRatio",
            "abortSeed",
            "messagesPerTransaction",
            "commitIntervalMs",
            "transactionsPerProducer");

    /**
     * How long a transactional PUBLISH's transaction stays open when the workload does not say: Kafka Streams'
     * {@code commit.interval.ms} under exactly-once, the interval a capacity run of a streaming application meets.
     */
    static final long DEFAULT_COMMIT_INTERVAL_MS = 100;

    /** The seed of the choice of transactions to abort when the workload gives none: fixed, so runs repeat. */
    static final long DEFAULT_ABORT_SEED = 31;

    private OperationReader() {}

    /** @param partitionsPerTopic the most partitions one operation can spread over */
    static OperationSpec read(ConfigFields op, int partitionsPerTopic) {
        op.onlyKeys(KEYS);
        OperationKind kind = op.choice("kind", OperationKind.class, OperationKind.PUBLISH);
        boolean transactional = op.bool("transactional", false);
        int messagesPerOperation = op.wholeNumber(
                "messagesPerOperation",
                kind == OperationKind.SEND_OFFSETS ? 0 : 1,
                kind == OperationKind.SEND_OFFSETS ? 0 : 1,
                10_000_000);
        int partitionsPerOperation = op.wholeNumber("partitionsPerOperation", 1, 1, 100_000);
        if (partitionsPerOperation > partitionsPerTopic) {
            throw op.error(
                    "partitionsPerOperation",
                    "the operation spreads over " + partitionsPerOperation + " partitions but partitionsPerTopic is "
                            + partitionsPerTopic);
        }
        boolean sendOffsets = op.bool("sendOffsets", false);
        boolean readCommitted = op.bool("readCommitted", transactional);
        if (kind == OperationKind.SEND_OFFSETS && !transactional) {
            throw op.error("transactional", "SEND_OFFSETS only exists inside a transaction: set transactional: true");
        }
        if (sendOffsets && (!transactional || kind != OperationKind.WRITE)) {
            throw op.error("sendOffsets", "only a transactional WRITE can also send offsets");
        }
        AwaitAcks awaitAcks = awaitAcks(op, kind, transactional);
        double abortRatio = abortRatio(op, kind, transactional);
        long abortSeed = op.wholeNumber("abortSeed", DEFAULT_ABORT_SEED, Long.MIN_VALUE, Long.MAX_VALUE);
        if (op.has("abortSeed") && abortRatio == 0) {
            throw op.error("abortSeed", "it seeds the choice of transactions to abort: set abortRatio too");
        }
        boolean cuts = transactional && kind == OperationKind.PUBLISH;
        if (cuts && messagesPerOperation > 1) {
            throw op.error(
                    "messagesPerOperation",
                    "a PUBLISH sends one message per operation; its transactions are cut by messagesPerTransaction"
                            + " and commitIntervalMs");
        }
        return new OperationSpec(
                kind,
                transactional,
                messagesPerOperation,
                partitionsPerOperation,
                sendOffsets,
                readCommitted,
                awaitAcks,
                abortRatio,
                abortRatio > 0 ? abortSeed : 0,
                transactionCut(op, cuts, "messagesPerTransaction", 0, 10_000_000),
                transactionCut(op, cuts, "commitIntervalMs", DEFAULT_COMMIT_INTERVAL_MS, 3_600_000),
                transactionsPerProducer(op, kind, transactional));
    }

    /**
     * {@code operation.transactionsPerProducer}: producer churn, each transactional id ending this many transactions
     * before its producer is closed and a new one takes a new id. A producer of transactions only: a STREAM's
     * processors keep their ids, which the consumer group's partitions decide.
     */
    private static int transactionsPerProducer(ConfigFields op, OperationKind kind, boolean transactional) {
        if (!op.has("transactionsPerProducer")) {
            return 0;
        }
        if (!transactional) {
            throw op.error(
                    "transactionsPerProducer",
                    "producer churn renews transactional ids: set transactional: true or remove"
                            + " transactionsPerProducer");
        }
        if (kind == OperationKind.STREAM) {
            throw op.error(
                    "transactionsPerProducer",
                    "a STREAM's processors keep their transactional ids for their partitions: churn a WRITE,"
                            + " SEND_OFFSETS or PUBLISH");
        }
        return (int) op.wholeNumber("transactionsPerProducer", 0, 1, 10_000_000);
    }

    /**
     * {@code operation.messagesPerTransaction} / {@code commitIntervalMs}: how a transactional PUBLISH's stream of
     * messages is cut into transactions (a transaction commits at whichever bound it reaches first). Elsewhere an
     * operation is a transaction of its own, and the keys are an error.
     */
    private static int transactionCut(ConfigFields op, boolean cuts, String key, long fallback, long max) {
        if (!cuts) {
            if (op.has(key)) {
                throw op.error(
                        key,
                        "only a transactional PUBLISH is cut into transactions by count and interval; a WRITE,"
                                + " SEND_OFFSETS or STREAM operation is one transaction (size it with"
                                + " messagesPerOperation)");
            }
            return 0;
        }
        return (int) op.wholeNumber(key, fallback, 1, max);
    }

    /**
     * {@code operation.abortRatio}: the share of transactions the driver aborts on purpose after their sends. Only
     * transactions the driver runs one operation at a time have it: a transactional WRITE, SEND_OFFSETS or STREAM
     * (a transactional PUBLISH group-commits whatever sends arrive, as stock OMB's does).
     */
    private static double abortRatio(ConfigFields op, OperationKind kind, boolean transactional) {
        double ratio = op.number("abortRatio", 0, 0, 1);
        if (ratio > 0 && !transactional) {
            throw op.error(
                    "abortRatio",
                    "only a transaction can be aborted on purpose: set transactional: true or remove abortRatio");
        }
        if (ratio > 0 && kind == OperationKind.PUBLISH) {
            throw op.error(
                    "abortRatio",
                    "a transactional PUBLISH group-commits and aborts nothing on purpose: use kind WRITE, SEND_OFFSETS"
                            + " or STREAM");
        }
        return ratio;
    }

    /**
     * {@code operation.awaitAcks}: where a transaction (or a STREAM batch) waits for its acks. Only operations with
     * that choice take it; for them it defaults to the seeds' order (000 and 001: send, sendOffsets, commit, then
     * wait). A naive STREAM has no sendOffsets, so before-send-offsets means nothing there.
     */
    private static AwaitAcks awaitAcks(ConfigFields op, OperationKind kind, boolean transactional) {
        boolean applies = OperationSpec.hasAckOrder(kind, transactional);
        if (!op.has("awaitAcks")) {
            return applies ? WorkloadLoader.DEFAULT_AWAIT_ACKS : null;
        }
        String value = op.text("awaitAcks", "").trim();
        if (!applies) {
            throw op.error(
                    "awaitAcks",
                    "only a transactional operation (or a STREAM) waits for acks relative to"
                            + " sendOffsets and commit; a non-transactional " + kind + " waits right after its sends:"
                            + " remove awaitAcks or set transactional: true");
        }
        AwaitAcks order;
        try {
            order = AwaitAcks.ofKey(value);
        } catch (IllegalArgumentException e) {
            throw op.error(
                    "awaitAcks",
                    "expected one of " + String.join(" | ", AwaitAcks.keys()) + ", got '" + value
                            + "'"
                            + KeySuggestions.closest(value, AwaitAcks.keys())
                                    .map(s -> " (did you mean '" + s + "'?)")
                                    .orElse(""));
        }
        if (order == AwaitAcks.BEFORE_SEND_OFFSETS && !transactional) {
            throw op.error(
                    "awaitAcks",
                    "a naive (non-transactional) STREAM has no sendOffsetsToTransaction: use"
                            + " before-commit (wait, then commitSync) or after-commit (commitSync, then wait)");
        }
        return order;
    }
}

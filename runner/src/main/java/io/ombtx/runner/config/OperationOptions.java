package io.ombtx.runner.config;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.config.ConfigFields;

/**
 * What the {@code operation:} block says beyond the operation itself, checked against the clients the run has: wait
 * for each operation to be consumed (closed loop, one producer and one consumer), prefill a STREAM's source topic,
 * check a STREAM's output for exactly-once delivery afterwards ({@code verifyExactlyOnce}) and while it runs
 * ({@code liveCheck}, which needs the check afterwards too: its verdict is reported beside it).
 */
public record OperationOptions(
        boolean waitForConsume, long prefillMessages, boolean verifyExactlyOnce, boolean liveCheck) {

    /** The most producers (or consumers) one run can create: they are counted in an {@code int}. */
    static final long MAX_CLIENTS = Integer.MAX_VALUE;

    /** The parts read before, which these options are checked against. */
    record Run(TopicLayout layout, OperationSpec operation, ClientCounts clients, LoadRate load, RunLength length) {}

    static OperationOptions read(ConfigFields f, ConfigFields op, Run run) {
        boolean waitForConsume = op.bool("waitForConsume", false);
        long prefill = op.wholeNumber("prefillMessages", 0L, 0L, Long.MAX_VALUE);
        boolean verify = op.bool("verifyExactlyOnce", false);
        boolean liveCheck = op.bool("liveCheck", false);
        ClientCounts clients = run.clients();
        long producerCount = (long) run.layout().topics() * clients.producersPerTopic();
        long consumerCount =
                (long) run.layout().topics() * clients.subscriptionsPerTopic() * clients.consumerPerSubscription();
        if (producerCount > MAX_CLIENTS) {
            throw f.error(
                    "producersPerTopic",
                    "topics × producersPerTopic is " + producerCount + " producers; one run can create at most "
                            + MAX_CLIENTS);
        }
        if (consumerCount > MAX_CLIENTS) {
            throw f.error(
                    "consumerPerSubscription",
                    "topics × subscriptionsPerTopic × consumerPerSubscription is " + consumerCount
                            + " consumers; one run can create at most " + MAX_CLIENTS);
        }
        int producers = (int) producerCount;
        int consumers = (int) consumerCount;
        if (waitForConsume) {
            if (run.load().loop() != LoopMode.CLOSED) {
                throw op.error("waitForConsume", "waiting for the consumer to see each operation needs loop: closed");
            }
            if (producers != 1 || consumers != 1) {
                throw op.error(
                        "waitForConsume",
                        "needs exactly one producer and one consumer (topics: 1,"
                                + " producersPerTopic: 1, subscriptionsPerTopic: 1, consumerPerSubscription: 1)");
            }
        }
        OperationKind kind = run.operation().kind();
        if (kind == OperationKind.STREAM) {
            checkStream(f, op, run, producers, consumers, prefill);
        } else {
            if (producers == 0) {
                throw f.error(
                        "producersPerTopic", "a " + kind + " operation runs in the producers: at least one is needed");
            }
            if (prefill > 0) {
                throw op.error("prefillMessages", "only a STREAM operation reads a prefilled source topic");
            }
        }
        if (verify && kind != OperationKind.STREAM) {
            throw op.error("verifyExactlyOnce", "the exactly-once check applies to STREAM operations");
        }
        if (liveCheck && kind != OperationKind.STREAM) {
            throw op.error("liveCheck", "the live exactly-once check reads a STREAM's output");
        }
        if (liveCheck && !verify) {
            throw op.error(
                    "liveCheck",
                    "the live check is reported beside the check after the run: set verifyExactlyOnce: true as well");
        }
        return new OperationOptions(waitForConsume, prefill, verify, liveCheck);
    }

    /** A STREAM runs in the consumers and needs input: prefilled, or fed at a rate. */
    private static void checkStream(
            ConfigFields f, ConfigFields op, Run run, int producers, int consumers, long prefill) {
        long producerRate = run.load().producerRate();
        if (consumers == 0) {
            throw f.error("subscriptionsPerTopic", "a STREAM operation runs in the consumers: at least one is needed");
        }
        if (prefill > 0 && producers == 0) {
            throw f.error("producersPerTopic", "prefilling the source topic needs at least one producer");
        }
        if (producerRate == 0 && prefill == 0) {
            throw op.error(
                    "prefillMessages",
                    "a STREAM run needs input: prefill the source topic"
                            + " (prefillMessages) or feed it at a rate (producerRate)");
        }
        RunLength length = run.length();
        if (length.countBased() && producerRate == 0) {
            long needed;
            try {
                needed = Math.multiplyExact(Math.addExact(length.warmupOperations(), length.measureOperations()), (long)
                        run.operation().messagesPerOperation());
            } catch (ArithmeticException e) {
                throw op.error(
                        "prefillMessages",
                        "the run would process more than " + Long.MAX_VALUE + " records (warm-up plus measured"
                                + " operations × messagesPerOperation): lower the counts or messagesPerOperation");
            }
            if (prefill < needed) {
                throw op.error(
                        "prefillMessages",
                        "the run processes " + needed + " records (warm-up plus"
                                + " measured operations × messagesPerOperation) but only " + prefill
                                + " are prefilled");
            }
        }
    }
}

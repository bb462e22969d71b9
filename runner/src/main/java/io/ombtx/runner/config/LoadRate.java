package io.ombtx.runner.config;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.config.ConfigFields;
import java.util.List;

/**
 * How the load is driven: open or closed loop, the producers' total rate (0 in an open loop: find the maximum
 * sustainable rate), OMB's backlog settings, and the latency the search for the maximum rate must hold.
 *
 * @param latencyTargetP99Millis {@code latencyTarget.p99Ms}: the search's probes are sustained only while the
 *     operations' latency p99 is at most this; 0 when the workload sets none
 */
public record LoadRate(
        LoopMode loop,
        long producerRate,
        double consumerBacklogSizeGB,
        double backlogDrainRatio,
        double latencyTargetP99Millis) {

    static LoadRate read(ConfigFields f, OperationSpec operation) {
        OperationKind kind = operation.kind();
        long producerRate = f.wholeNumber("producerRate", 0L, 0L, 100_000_000L);
        double backlogGb = f.number("consumerBacklogSizeGB", 0.0, 0.0, 100_000.0);
        double drainRatio = f.number("backlogDrainRatio", 1.0, 0.0001, 1_000.0);
        // Counts and no producerRate: there is no rate to pace by, and the maximum-rate search needs a time-based
        // run, so unless the workload says otherwise each producer runs closed-loop, as fast as its operations
        // complete.
        boolean countsWithoutRate = (f.has("measureOperations") || f.has("measureMessages"))
                && !f.has("producerRate")
                && kind != OperationKind.STREAM;
        LoopMode loop = f.choice("loop", LoopMode.class, countsWithoutRate ? LoopMode.CLOSED : LoopMode.OPEN);
        if (loop == LoopMode.CLOSED && producerRate > 0) {
            throw f.error(
                    "producerRate",
                    "a closed loop runs one operation at a time per producer, as fast as it"
                            + " completes; remove producerRate or use loop: open");
        }
        if (backlogGb > 0 && (loop == LoopMode.CLOSED || producerRate == 0)) {
            throw f.error(
                    "consumerBacklogSizeGB",
                    "building a backlog needs an open loop at a fixed producerRate"
                            + " (as in OMB, it cannot be combined with searching for the maximum rate)");
        }
        double latencyP99 = 0;
        if (f.has("latencyTarget")) {
            ConfigFields target = f.block("latencyTarget").onlyKeys(List.of("p99Ms"));
            if (!target.has("p99Ms")) {
                throw target.error(
                        "p99Ms",
                        "missing: the operations' latency p99, in ms, that the search for the maximum rate must"
                                + " hold (e.g. latencyTarget: {p99Ms: 50})");
            }
            latencyP99 = target.number("p99Ms", 0.0, 0.001, 3_600_000.0);
            if (loop == LoopMode.CLOSED || producerRate > 0 || kind == OperationKind.STREAM) {
                throw f.error(
                        "latencyTarget",
                        "a latency target bounds the search for the maximum rate, which runs in an open loop with"
                                + " producerRate: 0 and not for STREAM; remove latencyTarget or set producerRate: 0");
            }
            // A transaction cut by time alone lasts at least its interval, at any rate: no search can hold less.
            if (operation.commitIntervalMs() > 0
                    && operation.messagesPerTransaction() == 0
                    && latencyP99 <= operation.commitIntervalMs()) {
                throw target.error(
                        "p99Ms",
                        "every transaction stays open operation.commitIntervalMs (" + operation.commitIntervalMs()
                                + " ms) from its begin, so its latency p99 cannot be "
                                + java.math.BigDecimal.valueOf(latencyP99)
                                        .stripTrailingZeros()
                                        .toPlainString()
                                + " ms or less at"
                                + " any rate: raise p99Ms above the interval, or shorten commitIntervalMs or bound"
                                + " the transaction by messagesPerTransaction");
            }
        }
        return new LoadRate(loop, producerRate, backlogGb, drainRatio, latencyP99);
    }
}

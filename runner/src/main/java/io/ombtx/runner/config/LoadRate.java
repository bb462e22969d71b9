package io.ombtx.runner.config;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.config.ConfigFields;

/**
 * How the load is driven: open or closed loop, the producers' total rate (0 in an open loop: find the maximum
 * sustainable rate), and OMB's backlog settings.
 */
public record LoadRate(LoopMode loop, long producerRate, double consumerBacklogSizeGB, double backlogDrainRatio) {

    static LoadRate read(ConfigFields f, OperationKind kind) {
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
        return new LoadRate(loop, producerRate, backlogGb, drainRatio);
    }
}

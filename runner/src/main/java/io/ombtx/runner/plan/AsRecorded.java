package io.ombtx.runner.plan;

import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.config.RunLength;
import io.ombtx.runner.config.SweepPoint;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.result.WorkloadRecord;

/**
 * The workload as the result records it: where the planner turns workload (config) values into result values. The
 * result package has types of its own for everything it writes and imports nothing of config, so that changing an
 * input type does not change the file format; an enum crosses by its name in files, which both sides spell alike.
 * (A fault's action, target and recovery cross the same way in {@code fault.FaultInjector}.)
 */
public final class AsRecorded {

    private AsRecorded() {}

    /** The workload's description fields, its measured operation and its sweep point. */
    public static WorkloadRecord workload(Workload w) {
        return new WorkloadRecord(
                w.name(),
                w.description(),
                w.messageSize(),
                w.topics(),
                w.partitionsPerTopic(),
                w.producersPerTopic(),
                w.consumerPerSubscription(),
                w.operation(),
                w.waitForConsume(),
                w.prefillMessages(),
                w.sweep() == null ? null : sweep(w.sweep()));
    }

    public static RunResult.Sweep sweep(SweepPoint point) {
        return new RunResult.Sweep(point.sweepName(), point.parameter(), point.value());
    }

    /** The scenario of {@code w} before it ran: no phase sequence reported yet. */
    public static RunResult.Scenario scenario(Workload w) {
        return RunResult.Scenario.of(workload(w), null);
    }

    /** The run mode of {@code w} with progress reported every {@code reportingIntervalSeconds}. */
    public static RunResult.RunMode runMode(Workload w, int reportingIntervalSeconds) {
        return runMode(
                w.loop(),
                w.producerRate(),
                w.streaming(),
                w.length(),
                w.messagesPerOperation(),
                reportingIntervalSeconds);
    }

    /** The run mode of the planned measurement {@code m} with progress reported every {@code reportingIntervalSeconds}. */
    public static RunResult.RunMode runMode(Measurement m, int reportingIntervalSeconds) {
        return runMode(
                m.loop(),
                m.load().producerRate(),
                m.streaming(),
                m.length(),
                m.messagesPerOperation(),
                reportingIntervalSeconds);
    }

    /**
     * The run mode of a run in {@code loop} at {@code producerRate} (0 in open loop: the rate is searched for, unless
     * the run is a STREAM), as long as {@code length} says, each operation writing {@code messagesPerOperation}
     * messages.
     */
    public static RunResult.RunMode runMode(
            LoopMode loop,
            long producerRate,
            boolean streaming,
            RunLength length,
            int messagesPerOperation,
            int reportingIntervalSeconds) {
        boolean open = loop == LoopMode.OPEN;
        RunResult.RunLength warmup = length.countBased()
                ? RunResult.RunLength.operations(
                        length.warmupOperations(), length.warmupOperations() * messagesPerOperation)
                : RunResult.RunLength.seconds(length.warmupDuration().toSeconds());
        RunResult.RunLength measure = length.countBased()
                ? RunResult.RunLength.operations(
                        length.measureOperations(), length.measureOperations() * messagesPerOperation)
                : RunResult.RunLength.seconds(length.testDuration().toSeconds());
        return RunResult.RunMode.of(
                loop(loop),
                open && producerRate > 0 ? producerRate : null,
                open && producerRate == 0 && !streaming,
                warmup,
                measure,
                reportingIntervalSeconds);
    }

    public static RunResult.Loop loop(LoopMode loop) {
        return RunResult.Loop.ofKey(loop.key());
    }
}

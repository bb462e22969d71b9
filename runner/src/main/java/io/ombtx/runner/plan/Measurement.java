package io.ombtx.runner.plan;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.config.Fault;
import io.ombtx.runner.config.Guarantee;
import io.ombtx.runner.config.LoadRate;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.config.RunLength;
import io.ombtx.runner.config.Workload;
import java.time.Duration;
import java.util.List;

/**
 * What one run measures and checks, resolved from its workload while planning: the set-up, the measurement loop,
 * the rate search and the checks after the load read this, never the workload itself.
 *
 * @param name the workload's name (or sweep point's), for the console and the result file's name
 * @param sourceFile the workload's file, to blame a problem found only once the cluster is known
 * @param length warm-up and measurement, as durations or as operation counts
 * @param load loop mode, target rate and OMB's backlog mode (size and drain ratio)
 * @param operation the measured operation
 * @param messageSize bytes per message
 * @param producers producers in all
 * @param subscriptionsPerTopic subscriptions per topic
 * @param stallTimeoutSeconds how long a run may go without progress before it ends as stalled
 * @param prefillMessages messages written to a STREAM's source before the load (0: none)
 * @param liveCheck a read_committed consumer judges a STREAM's output while it runs
 * @param verifyExactlyOnce the output is checked for exactly-once delivery after the load
 * @param faults the faults injected during the measurement, in the order declared
 */
public record Measurement(
        String name,
        String sourceFile,
        RunLength length,
        LoadRate load,
        OperationSpec operation,
        int messageSize,
        int producers,
        int subscriptionsPerTopic,
        int stallTimeoutSeconds,
        long prefillMessages,
        boolean liveCheck,
        boolean verifyExactlyOnce,
        List<Fault> faults,
        Guarantee conformance) {

    public Measurement {
        faults = List.copyOf(faults);
    }

    static Measurement of(Workload w) {
        return new Measurement(
                w.name(),
                w.sourceFile(),
                w.length(),
                w.load(),
                w.operation(),
                w.messageSize(),
                w.producerCount(),
                w.subscriptionsPerTopic(),
                w.stallTimeoutSeconds(),
                w.prefillMessages(),
                w.liveCheck(),
                w.verifyExactlyOnce(),
                w.faults(),
                w.guarantee());
    }

    public boolean countBased() {
        return length.countBased();
    }

    public Duration warmupDuration() {
        return length.warmupDuration();
    }

    public Duration testDuration() {
        return length.testDuration();
    }

    public long warmupOperations() {
        return length.warmupOperations();
    }

    public long measureOperations() {
        return length.measureOperations();
    }

    public LoopMode loop() {
        return load.loop();
    }

    public boolean streaming() {
        return operation.kind() == OperationKind.STREAM;
    }

    /** Messages one operation writes (a PUBLISH is one message; SEND_OFFSETS writes none). */
    public int messagesPerOperation() {
        return operation.kind() == OperationKind.SEND_OFFSETS ? 0 : operation.messagesPerOperation();
    }

    /** Whether the workload aborts transactions on purpose, so aborted records in its output are expected. */
    public boolean abortsOnPurpose() {
        return operation.abortRatio() > 0;
    }

    /** Whether a fault acts on a client (through the workers' drivers) rather than on a broker. */
    public boolean hasClientFaults() {
        return faults.stream().anyMatch(f -> f.target().isClient());
    }
}

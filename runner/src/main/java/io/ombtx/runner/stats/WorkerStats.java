package io.ombtx.runner.stats;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * Where a worker records: one lock-free HdrHistogram {@link Recorder} per latency (µs) and per phase, plus
 * counters. {@link #drainInterval()} hands out what was recorded since the last call and keeps recording.
 */
public final class WorkerStats {

    private final Map<String, Recorder> recorders = new LinkedHashMap<>();
    private final EnumMap<Phase, Recorder> phases = new EnumMap<>(Phase.class);
    private final Map<String, LongAdder> counters = new LinkedHashMap<>();
    private final AtomicLong firstMeasuredStartNanos = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastMeasuredEndNanos = new AtomicLong(Long.MIN_VALUE);

    public WorkerStats() {
        for (String name : new String[] {StatsSnapshot.PUBLISH_LATENCY, StatsSnapshot.PUBLISH_DELAY,
                StatsSnapshot.END_TO_END, StatsSnapshot.INTENDED_PUBLISH_LATENCY, StatsSnapshot.OPERATION_LATENCY}) {
            recorders.put(name, newRecorder());
        }
        for (Phase phase : Phase.values()) {
            phases.put(phase, newRecorder());
        }
        for (String name : new String[] {StatsSnapshot.MESSAGES_SENT, StatsSnapshot.BYTES_SENT,
                StatsSnapshot.PUBLISH_ERRORS, StatsSnapshot.MESSAGES_RECEIVED, StatsSnapshot.BYTES_RECEIVED,
                StatsSnapshot.OPERATIONS, StatsSnapshot.MESSAGES_PROCESSED, StatsSnapshot.COMMITTED, StatsSnapshot.ABORTED, StatsSnapshot.FAILED,
                StatsSnapshot.FATAL_ERRORS}) {
            counters.put(name, new LongAdder());
        }
    }

    private static Recorder newRecorder() {
        return new Recorder(Histograms.HIGHEST_MICROS, Histograms.SIGNIFICANT_DIGITS);
    }

    public void recordMicros(String histogram, long micros) {
        recorders.get(histogram).recordValue(Histograms.clamp(micros));
    }

    public void count(String counter, long delta) {
        counters.get(counter).add(delta);
    }

    /** Records a message the producers wrote: publish latency from the actual and from the intended send. */
    public void recordPublish(int messages, long bytes, long sendNanos, long intendedNanos, long ackNanos) {
        long latencyMicros = (ackNanos - sendNanos) / 1000;
        long intendedMicros = (ackNanos - intendedNanos) / 1000;
        recorders.get(StatsSnapshot.PUBLISH_LATENCY).recordValueWithCount(Histograms.clamp(latencyMicros), messages);
        recorders.get(StatsSnapshot.INTENDED_PUBLISH_LATENCY).recordValueWithCount(Histograms.clamp(intendedMicros), messages);
        recorders.get(StatsSnapshot.PUBLISH_DELAY).recordValue(Histograms.clamp((sendNanos - intendedNanos) / 1000));
        counters.get(StatsSnapshot.MESSAGES_SENT).add(messages);
        counters.get(StatsSnapshot.BYTES_SENT).add(bytes);
    }

    /** Records one whole operation: its latency, its phases and its outcome. */
    public void recordOperation(OperationTimings timings, long startNanos, long endNanos) {
        recorders.get(StatsSnapshot.OPERATION_LATENCY).recordValue(Histograms.clamp(timings.totalNanos() / 1000));
        timings.phaseNanos().forEach((phase, nanos) -> {
            if (nanos >= 0) {
                phases.get(phase).recordValue(Histograms.clamp(nanos / 1000));
            }
        });
        counters.get(StatsSnapshot.OPERATIONS).increment();
        counters.get(StatsSnapshot.ABORTED).add(timings.abortedAttempts());
        counters.get(StatsSnapshot.FATAL_ERRORS).add(timings.fatalErrors());
        switch (timings.outcome()) {
            case COMMITTED -> counters.get(StatsSnapshot.COMMITTED).increment();
            case FAILED -> counters.get(StatsSnapshot.FAILED).increment();
            default -> { }
        }
        markMeasured(startNanos, endNanos);
    }

    /** Notes that a measured operation ran from {@code startNanos} to {@code endNanos} (for the wall-clock span). */
    public void markMeasured(long startNanos, long endNanos) {
        firstMeasuredStartNanos.accumulateAndGet(startNanos, Math::min);
        lastMeasuredEndNanos.accumulateAndGet(endNanos, Math::max);
    }

    /** What was recorded since the previous call; counters are reset, the span is reported as it stands. */
    public StatsSnapshot drainInterval() {
        StatsSnapshot snapshot = new StatsSnapshot();
        recorders.forEach((name, recorder) -> snapshot.putHistogram(name, recorder.getIntervalHistogram()));
        phases.forEach((phase, recorder) -> snapshot.putHistogram(
                StatsSnapshot.PHASE_PREFIX + phase.key(), recorder.getIntervalHistogram()));
        counters.forEach((name, adder) -> snapshot.putCounter(name, adder.sumThenReset()));
        long first = firstMeasuredStartNanos.get();
        long last = lastMeasuredEndNanos.get();
        if (first != Long.MAX_VALUE && last >= first) {
            snapshot.putCounter(StatsSnapshot.MEASURED_SPAN_NANOS, last - first);
        }
        return snapshot;
    }

    /** Forgets everything recorded so far (the end of a time-based warm-up). */
    public void reset() {
        drainInterval();
        firstMeasuredStartNanos.set(Long.MAX_VALUE);
        lastMeasuredEndNanos.set(Long.MIN_VALUE);
    }
}

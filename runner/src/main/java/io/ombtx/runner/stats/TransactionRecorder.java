package io.ombtx.runner.stats;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The transactions a producer cut from its messages (a transactional PUBLISH), recorded whole: a transaction's
 * outcome, counts, latency, phases and size go into one interval together, and a drain takes a whole interval, so a
 * drain never holds a transaction's count without its size or the other way round (drained piece by piece from
 * separate recorders, the warm-up's reset split transactions recorded meanwhile: the measurement then held two
 * more sizes than commits). Transactions are few next to messages (one per commit interval per producer), so a lock
 * serves their writers.
 */
final class TransactionRecorder {

    private Interval active = new Interval();

    /** Records one whole transaction. */
    synchronized void record(OperationTimings timings) {
        Interval i = active;
        i.operation.recordValue(Histograms.clamp(timings.totalNanos() / 1000));
        timings.phaseNanos().forEach((phase, nanos) -> {
            if (nanos >= 0) {
                i.phases.computeIfAbsent(phase, p -> newHistogram()).recordValue(Histograms.clamp(nanos / 1000));
            }
        });
        i.messages.recordValue(Histograms.clamp(timings.messages()));
        WorkerStats.countOutcome(timings, (counter, delta) -> i.counts.merge(counter, delta, Long::sum));
        if (!timings.sequence().isEmpty()) {
            i.sequences.merge(timings.sequence(), 1L, Long::sum);
        }
    }

    /** Adds every transaction recorded since the last call to {@code into}. */
    void drainInto(StatsSnapshot into) {
        Interval done;
        synchronized (this) {
            done = active;
            active = new Interval();
        }
        if (done.operation.getTotalCount() == 0) {
            return;
        }
        into.histogram(Latency.OPERATION_LATENCY).add(done.operation);
        into.histogram(Latency.MESSAGES_PER_TRANSACTION).add(done.messages);
        done.phases.forEach((phase, h) -> into.histogram(phase).add(h));
        done.counts.forEach((counter, delta) -> into.put(counter, into.counter(counter) + delta));
        done.sequences.forEach((sequence, count) -> into.phaseSequences().count(sequence, count));
    }

    private static Histogram newHistogram() {
        return new Histogram(Histograms.SIGNIFICANT_DIGITS); // auto-resizing; values are clamped anyway
    }

    private static final class Interval {
        final Histogram operation = newHistogram();
        final Histogram messages = newHistogram();
        final Map<Phase, Histogram> phases = new EnumMap<>(Phase.class);
        final Map<Counter, Long> counts = new EnumMap<>(Counter.class);
        final Map<List<Phase>, Long> sequences = new HashMap<>();
    }
}

package io.ombtx.runner.stats;

import io.ombtx.driver.api.Phase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * The publish hot path of {@link WorkerStats}: every acknowledged message writes three latencies, and a plain
 * publish also its operation latency and phase. Going through one {@code Recorder} per histogram costs a phaser
 * enter/exit and a compare-and-set on the histogram's maximum each, five times per message. Here each writing
 * thread (the client's I/O thread that runs the acknowledgements) has a shard of plain histograms and counters
 * behind one {@link WriterReaderPhaser}: one enter/exit per message, no shared cache line. {@link #drainInto}
 * flips every shard, as {@code Recorder} does, and adds what it held. The figures are the same values recorded
 * into the same histograms as before; only their path differs.
 */
final class PublishRecorder {

    private final List<Shard> shards = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Shard> shard = ThreadLocal.withInitial(() -> {
        Shard created = new Shard();
        shards.add(created);
        return created;
    });

    /**
     * One acknowledged publish of {@code messages} messages; with {@code asOperation} also one acknowledged
     * single-message operation (its latency is the publish latency, its one phase the whole operation).
     */
    void record(int messages, long bytes, long sendNanos, long intendedNanos, long ackNanos, boolean asOperation) {
        Shard s = shard.get();
        long phase = s.phaser.writerCriticalSectionEnter();
        try {
            Interval i = s.active;
            long latencyMicros = Histograms.clamp((ackNanos - sendNanos) / 1000);
            i.publishLatency.recordValueWithCount(latencyMicros, messages);
            i.intendedLatency.recordValueWithCount(Histograms.clamp((ackNanos - intendedNanos) / 1000), messages);
            i.publishDelay.recordValue(Histograms.clamp((sendNanos - intendedNanos) / 1000));
            i.messages += messages;
            i.bytes += bytes;
            if (asOperation) {
                i.operationLatency.recordValue(latencyMicros);
                i.transactionPhase.recordValue(latencyMicros);
                i.operations++;
                i.firstStartNanos = Math.min(i.firstStartNanos, sendNanos);
                i.lastEndNanos = Math.max(i.lastEndNanos, ackNanos);
            }
        } finally {
            s.phaser.writerCriticalSectionExit(phase);
        }
    }

    /** Adds what every shard recorded since the last call to {@code into}; returns the span it saw (for the span). */
    Span drainInto(StatsSnapshot into) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Shard s : shards) {
            Interval done = s.flip();
            if (done.messages == 0 && done.operations == 0) {
                continue;
            }
            into.histogram(Latency.PUBLISH_LATENCY).add(done.publishLatency);
            into.histogram(Latency.INTENDED_PUBLISH_LATENCY).add(done.intendedLatency);
            into.histogram(Latency.PUBLISH_DELAY).add(done.publishDelay);
            into.put(Counter.MESSAGES_SENT, into.counter(Counter.MESSAGES_SENT) + done.messages);
            into.put(Counter.BYTES_SENT, into.counter(Counter.BYTES_SENT) + done.bytes);
            if (done.operations > 0) {
                into.histogram(Latency.OPERATION_LATENCY).add(done.operationLatency);
                into.histogram(Phase.TRANSACTION).add(done.transactionPhase);
                into.put(Counter.OPERATIONS, into.counter(Counter.OPERATIONS) + done.operations);
                first = Math.min(first, done.firstStartNanos);
                last = Math.max(last, done.lastEndNanos);
            }
        }
        return new Span(first, last);
    }

    /** The first measured start and last measured end seen by one drain (MAX_VALUE / MIN_VALUE when none). */
    record Span(long firstStartNanos, long lastEndNanos) {
    }

    private static final class Shard {
        private final WriterReaderPhaser phaser = new WriterReaderPhaser();
        private volatile Interval active = new Interval();
        private Interval inactive = new Interval();

        /** Swaps the intervals and waits for writers still in the old one; returns it, stable from here on. */
        Interval flip() {
            phaser.readerLock();
            try {
                inactive.reset();
                Interval done = active;
                active = inactive;
                inactive = done;
                phaser.flipPhase();
                return done;
            } finally {
                phaser.readerUnlock();
            }
        }
    }

    /** What one shard recorded in one interval: auto-resizing histograms, so an idle shard stays small. */
    private static final class Interval {
        final Histogram publishLatency = newHistogram();
        final Histogram intendedLatency = newHistogram();
        final Histogram publishDelay = newHistogram();
        final Histogram operationLatency = newHistogram();
        final Histogram transactionPhase = newHistogram();
        long messages;
        long bytes;
        long operations;
        long firstStartNanos = Long.MAX_VALUE;
        long lastEndNanos = Long.MIN_VALUE;

        private static Histogram newHistogram() {
            return new Histogram(Histograms.SIGNIFICANT_DIGITS); // auto-resizing; values are clamped anyway
        }

        void reset() {
            publishLatency.reset();
            intendedLatency.reset();
            publishDelay.reset();
            operationLatency.reset();
            transactionPhase.reset();
            messages = 0;
            bytes = 0;
            operations = 0;
            firstStartNanos = Long.MAX_VALUE;
            lastEndNanos = Long.MIN_VALUE;
        }
    }
}

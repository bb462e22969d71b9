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
 * behind one {@link WriterReaderPhaser}: one enter/exit per message, no shared cache line. A single-message
 * operation's publish, operation and phase latency are one value: it is written once, into one histogram that the
 * drain adds to all three (three histogram writes per message instead of five). {@link #drainInto} flips every
 * shard, as {@code Recorder} does, and adds what it held. The figures are the same values recorded into the same
 * histograms as before; only their path differs.
 */
final class PublishRecorder {

    private final List<Shard> shards = new CopyOnWriteArrayList<>();
    /** The first writing thread's shard (a plain field: each shard knows its owner, and it is set once). */
    private Shard lastUsed;

    private final ThreadLocal<Shard> shard = ThreadLocal.withInitial(() -> {
        Shard created = new Shard();
        shards.add(created);
        return created;
    });

    /**
     * One acknowledged publish of {@code messages} messages; with {@code asOperation} also one acknowledged
     * single-message operation (its latency is the publish latency, its one phase the whole operation).
     */
    void record(
            int messages,
            long bytes,
            long sendNanos,
            long intendedNanos,
            long ackNanos,
            boolean asOperation,
            boolean sentMeasured) {
        Shard s = shardOfThisThread();
        long phase = s.phaser.writerCriticalSectionEnter();
        try {
            Interval i = s.active;
            long latencyMicros = Histograms.clamp((ackNanos - sendNanos) / 1000);
            i.intendedLatency.recordValueWithCount(Histograms.clamp((ackNanos - intendedNanos) / 1000), messages);
            i.publishDelay.recordValue(Histograms.clamp((sendNanos - intendedNanos) / 1000));
            i.messages += messages;
            if (sentMeasured) {
                i.messagesSentMeasured += messages;
            }
            i.bytes += bytes;
            if (asOperation && messages == 1) {
                // One message, one operation: its publish, operation and phase latencies are one value, written
                // once here and added to all three when drained.
                i.operationLatency.recordValue(latencyMicros);
            } else {
                i.otherPublishLatency.recordValueWithCount(latencyMicros, messages);
                if (asOperation) {
                    i.separateOperationLatency.recordValue(latencyMicros);
                }
            }
            if (asOperation) {
                i.operations++;
                i.firstStartNanos = Math.min(i.firstStartNanos, sendNanos);
                i.lastEndNanos = Math.max(i.lastEndNanos, ackNanos);
            }
        } finally {
            s.phaser.writerCriticalSectionExit(phase);
        }
    }

    /**
     * This thread's shard: the first writer's without a thread-local look-up (one client I/O thread normally writes
     * every acknowledgement), any other thread's from the thread-local.
     */
    private Shard shardOfThisThread() {
        Shard last = lastUsed;
        if (last != null && last.owner == Thread.currentThread()) {
            return last;
        }
        Shard mine = shard.get();
        if (last == null) {
            lastUsed = mine; // the first writer keeps it: no field bouncing between several writing threads
        }
        return mine;
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
            Histogram publishLatency = into.histogram(Latency.PUBLISH_LATENCY);
            publishLatency.add(done.operationLatency);
            publishLatency.add(done.otherPublishLatency);
            into.histogram(Latency.INTENDED_PUBLISH_LATENCY).add(done.intendedLatency);
            into.histogram(Latency.PUBLISH_DELAY).add(done.publishDelay);
            into.put(Counter.MESSAGES_SENT, into.counter(Counter.MESSAGES_SENT) + done.messages);
            into.put(
                    Counter.MESSAGES_SENT_MEASURED,
                    into.counter(Counter.MESSAGES_SENT_MEASURED) + done.messagesSentMeasured);
            into.put(Counter.BYTES_SENT, into.counter(Counter.BYTES_SENT) + done.bytes);
            if (done.operations > 0) {
                for (Histogram operations :
                        List.of(into.histogram(Latency.OPERATION_LATENCY), into.histogram(Phase.TRANSACTION))) {
                    operations.add(done.operationLatency);
                    operations.add(done.separateOperationLatency);
                }
                into.put(Counter.OPERATIONS, into.counter(Counter.OPERATIONS) + done.operations);
                first = Math.min(first, done.firstStartNanos);
                last = Math.max(last, done.lastEndNanos);
            }
        }
        return new Span(first, last);
    }

    /** The first measured start and last measured end seen by one drain (MAX_VALUE / MIN_VALUE when none). */
    record Span(long firstStartNanos, long lastEndNanos) {}

    private static final class Shard {
        private final Thread owner = Thread.currentThread();
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
        /** Single-message operations: publish, operation and phase latency at once. */
        final Histogram operationLatency = newHistogram();
        /** Publishes that are not single-message operations. */
        final Histogram otherPublishLatency = newHistogram();
        /** Operations of several messages (their operation latency apart from the messages'). */
        final Histogram separateOperationLatency = newHistogram();

        final Histogram intendedLatency = newHistogram();
        final Histogram publishDelay = newHistogram();
        long messages;
        long messagesSentMeasured;
        long bytes;
        long operations;
        long firstStartNanos = Long.MAX_VALUE;
        long lastEndNanos = Long.MIN_VALUE;

        private static Histogram newHistogram() {
            return new Histogram(Histograms.SIGNIFICANT_DIGITS); // auto-resizing; values are clamped anyway
        }

        void reset() {
            operationLatency.reset();
            otherPublishLatency.reset();
            separateOperationLatency.reset();
            intendedLatency.reset();
            publishDelay.reset();
            messages = 0;
            messagesSentMeasured = 0;
            bytes = 0;
            operations = 0;
            firstStartNanos = Long.MAX_VALUE;
            lastEndNanos = Long.MIN_VALUE;
        }
    }
}

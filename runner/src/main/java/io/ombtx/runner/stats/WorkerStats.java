package io.ombtx.runner.stats;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * Where a worker records: one lock-free HdrHistogram {@link Recorder} per latency (µs) and per phase, plus
 * counters and the phase sequences operations ran. {@link #drainInterval()} hands out what was recorded since the last call and keeps recording.
 */
public final class WorkerStats {

    private final EnumMap<Latency, Recorder> recorders = new EnumMap<>(Latency.class);
    private final EnumMap<Phase, Recorder> phases = new EnumMap<>(Phase.class);
    private final EnumMap<Counter, LongAdder> counters = new EnumMap<>(Counter.class);
    private final Map<List<Phase>, LongAdder> sequences = new ConcurrentHashMap<>();
    private final AtomicLong firstMeasuredStartNanos = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastMeasuredEndNanos = new AtomicLong(Long.MIN_VALUE);
    private final PublishRecorder publishes = new PublishRecorder();
    private final TransactionRecorder transactions = new TransactionRecorder();
    /**
     * When {@link #reset} last ran ({@code System.nanoTime()}): messages sent since are the measurement's own; {@link
     * #NEVER_RESET} until it runs (a count-based run, whose tallies are the measurement's from the start).
     */
    private volatile long resetNanos = NEVER_RESET;

    private static final long NEVER_RESET = Long.MIN_VALUE;
    /**
     * Messages received, their bytes and their end-to-end latency, recorded together behind one phaser, so that a
     * period holds a message's count and its latency both or neither. Counters and a {@link Recorder} drained one
     * after the other could split them: a message counted in one period and its latency in the next.
     */
    private final WriterReaderPhaser receiving = new WriterReaderPhaser();

    private volatile Receipts receipts = new Receipts();

    private static final class Receipts {
        final LongAdder messages = new LongAdder();
        final LongAdder bytes = new LongAdder();
        final AtomicHistogram endToEnd = new AtomicHistogram(Histograms.HIGHEST_MICROS, Histograms.SIGNIFICANT_DIGITS);
    }

    public WorkerStats() {
        for (Latency latency : Latency.values()) {
            recorders.put(latency, newRecorder());
        }
        for (Phase phase : Phase.values()) {
            phases.put(phase, newRecorder());
        }
        for (Counter counter : Counter.values()) {
            if (counter != Counter.MEASURED_SPAN_NANOS) { // derived from the first and last measured operation
                counters.put(counter, new LongAdder());
            }
        }
    }

    private static Recorder newRecorder() {
        return new Recorder(Histograms.HIGHEST_MICROS, Histograms.SIGNIFICANT_DIGITS);
    }

    public void recordMicros(Latency histogram, long micros) {
        recorders.get(histogram).recordValue(Histograms.clamp(micros));
    }

    public void count(Counter counter, long delta) {
        counters.get(counter).add(delta);
    }

    /**
     * Records a message a consumer received: its bytes and, with {@code withLatency}, its end-to-end latency, in the
     * same period as its count (see {@link #receiving}).
     */
    public void recordReceived(int bytes, long endToEndMicros, boolean withLatency) {
        long phase = receiving.writerCriticalSectionEnter();
        try {
            Receipts into = receipts;
            into.messages.increment();
            into.bytes.add(bytes);
            if (withLatency) {
                into.endToEnd.recordValue(Histograms.clamp(endToEndMicros));
            }
        } finally {
            receiving.writerCriticalSectionExit(phase);
        }
    }

    /** Records a message the producers wrote: publish latency from the actual and from the intended send. */
    public void recordPublish(int messages, long bytes, long sendNanos, long intendedNanos, long ackNanos) {
        long latencyMicros = (ackNanos - sendNanos) / 1000;
        long intendedMicros = (ackNanos - intendedNanos) / 1000;
        recorders.get(Latency.PUBLISH_LATENCY).recordValueWithCount(Histograms.clamp(latencyMicros), messages);
        recorders
                .get(Latency.INTENDED_PUBLISH_LATENCY)
                .recordValueWithCount(Histograms.clamp(intendedMicros), messages);
        recorders.get(Latency.PUBLISH_DELAY).recordValue(Histograms.clamp((sendNanos - intendedNanos) / 1000));
        counters.get(Counter.MESSAGES_SENT).add(messages);
        if (sentSinceReset(sendNanos)) {
            counters.get(Counter.MESSAGES_SENT_MEASURED).add(messages);
        }
        counters.get(Counter.BYTES_SENT).add(bytes);
    }

    /**
     * Records an acknowledged plain publish of one message that is also one operation: what
     * {@link #recordPublish} and {@link #recordOperation} (one ACKNOWLEDGED operation whose only phase is the whole
     * operation, {@code ackNanos - sendNanos}) record together, through one per-thread shard instead of five
     * recorders (see {@link PublishRecorder}); with {@code asOperation} false, only what {@code recordPublish} does.
     */
    public void recordAckedPublish(long bytes, long sendNanos, long intendedNanos, long ackNanos, boolean asOperation) {
        publishes.record(1, bytes, sendNanos, intendedNanos, ackNanos, asOperation, sentSinceReset(sendNanos));
    }

    /** Whether a message sent at {@code sendNanos} is the measurement's (see {@link Counter#MESSAGES_SENT_MEASURED}). */
    private boolean sentSinceReset(long sendNanos) {
        long reset = resetNanos;
        return reset == NEVER_RESET || sendNanos - reset >= 0; // a difference: nanoTime may wrap
    }

    /** Records one whole operation: its latency, its phases and its outcome. */
    public void recordOperation(OperationTimings timings, long startNanos, long endNanos) {
        recordOutcome(timings);
        markMeasured(startNanos, endNanos);
    }

    /** An operation's latency, phases and counts, without its place in the measured span. */
    private void recordOutcome(OperationTimings timings) {
        recorders.get(Latency.OPERATION_LATENCY).recordValue(Histograms.clamp(timings.totalNanos() / 1000));
        timings.phaseNanos().forEach((phase, nanos) -> {
            if (nanos >= 0) {
                phases.get(phase).recordValue(Histograms.clamp(nanos / 1000));
            }
        });
        if (!timings.sequence().isEmpty()) {
            sequences.computeIfAbsent(timings.sequence(), s -> new LongAdder()).increment();
        }
        countOutcome(timings, (counter, delta) -> counters.get(counter).add(delta));
    }

    /** What one operation adds to the counters: itself, its outcome, and what it took to get through failures. */
    static void countOutcome(OperationTimings timings, java.util.function.ObjLongConsumer<Counter> count) {
        count.accept(Counter.OPERATIONS, 1);
        count.accept(Counter.ABORTED, timings.abortedAttempts());
        count.accept(Counter.FATAL_ERRORS, timings.fatalErrors());
        OperationTimings.Recovery recovery = timings.recovery();
        count.accept(Counter.RETRIES, recovery.retries());
        count.accept(Counter.FENCED, recovery.fenced());
        count.accept(Counter.PRODUCERS_REPLACED, recovery.producersReplaced());
        count.accept(Counter.CLIENT_RETRIES, recovery.clientRetries());
        switch (timings.outcome()) {
            case COMMITTED -> count.accept(Counter.COMMITTED, 1);
            case FAILED -> count.accept(Counter.FAILED, 1);
            case ABORTED -> count.accept(Counter.ABORTED_ON_PURPOSE, 1);
            default -> {}
        }
    }

    /**
     * Records one transaction that a producer cut from its messages (a transactional PUBLISH): an operation as {@link
     * #recordOperation} records it, and how many messages it held; the measured span is left to the messages.
     */
    public void recordTransaction(OperationTimings timings) {
        // Whole, apart from the recorders: see TransactionRecorder. The measured span stays its messages': a
        // transaction begun in the warm-up and committed after it would stretch the span back into the warm-up.
        transactions.record(timings);
    }

    /** Notes that a measured operation ran from {@code startNanos} to {@code endNanos} (for the wall-clock span). */
    public void markMeasured(long startNanos, long endNanos) {
        firstMeasuredStartNanos.accumulateAndGet(startNanos, Math::min);
        lastMeasuredEndNanos.accumulateAndGet(endNanos, Math::max);
    }

    /** What was recorded since the previous call; counters are reset, the span is reported as it stands. */
    public StatsSnapshot drainInterval() {
        StatsSnapshot snapshot = new StatsSnapshot();
        recorders.forEach((latency, recorder) -> snapshot.put(latency, recorder.getIntervalHistogram()));
        phases.forEach((phase, recorder) -> snapshot.put(phase, recorder.getIntervalHistogram()));
        counters.forEach((counter, adder) -> snapshot.put(counter, adder.sumThenReset()));
        sequences.forEach((sequence, adder) -> snapshot.phaseSequences().count(sequence, adder.sumThenReset()));
        Receipts received;
        receiving.readerLock();
        try {
            received = receipts;
            receipts = new Receipts();
            receiving.flipPhase(); // every receipt begun on the old one has ended
        } finally {
            receiving.readerUnlock();
        }
        snapshot.put(Counter.MESSAGES_RECEIVED, snapshot.counter(Counter.MESSAGES_RECEIVED) + received.messages.sum());
        snapshot.put(Counter.BYTES_RECEIVED, snapshot.counter(Counter.BYTES_RECEIVED) + received.bytes.sum());
        snapshot.histogram(Latency.END_TO_END).add(received.endToEnd);
        transactions.drainInto(snapshot);
        PublishRecorder.Span span = publishes.drainInto(snapshot);
        if (span.firstStartNanos() != Long.MAX_VALUE) {
            markMeasured(span.firstStartNanos(), span.lastEndNanos());
        }
        long first = firstMeasuredStartNanos.get();
        long last = lastMeasuredEndNanos.get();
        if (first != Long.MAX_VALUE && last >= first) {
            snapshot.put(Counter.MEASURED_SPAN_NANOS, last - first);
        }
        return snapshot;
    }

    /** Forgets everything recorded so far (the end of a time-based warm-up). */
    public void reset() {
        resetNanos = System.nanoTime();
        drainInterval();
        firstMeasuredStartNanos.set(Long.MAX_VALUE);
        lastMeasuredEndNanos.set(Long.MIN_VALUE);
    }
}

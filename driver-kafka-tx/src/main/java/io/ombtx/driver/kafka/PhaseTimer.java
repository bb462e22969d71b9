package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Times one operation's phases back to back: each {@link #lap} ends the current phase where the next begins, so
 * the phases add up to the whole operation except where time is deliberately left out ({@link #skip}).
 *
 * <p>While the operation runs, a lap only adds to an array: a closed loop times its transactions on its own thread,
 * and everything done there between one commit and the next begin is time the seeds' bare loop did not spend. The
 * {@link OperationTimings} (maps, lists) are made in {@link #finish}, which a closed loop calls off its thread.
 */
final class PhaseTimer {

    private static final Phase[] PHASES = Phase.values();
    private static final long NOT_PAUSED = Long.MIN_VALUE;

    private final LongSupplier clock;
    private final long start;
    private final long[] nanos = new long[PHASES.length];
    private int lapped; // a bit per phase ordinal: the phases lapped at least once
    private byte[] sequence = new byte[8]; // phase ordinals in lap order, a phase lapped twice in a row once
    private int sequenceLength;
    private long mark;
    /** Time spent in {@link #exclude} or paused: in no phase and not in the whole operation. */
    private long excluded;

    /** When {@link #pause} stopped the clock, or {@link #NOT_PAUSED}. */
    private long pausedAt = NOT_PAUSED;
    /** What the operation got past (retries, failures), made on its first count: most operations have none. */
    private OperationTimings.Builder counts;

    PhaseTimer() {
        this(System::nanoTime);
    }

    /** @param clock nanoseconds (tests pass their own) */
    PhaseTimer(LongSupplier clock) {
        this.clock = clock;
        this.start = clock.getAsLong();
        this.mark = start;
    }

    /** When the timer started (its clock's value). */
    long startNanos() {
        return start;
    }

    /** Attributes the time since the last boundary to {@code phase}. */
    void lap(Phase phase) {
        long now = clock.getAsLong();
        int ordinal = phase.ordinal();
        nanos[ordinal] += now - mark;
        lapped |= 1 << ordinal;
        mark = now;
        if (sequenceLength == 0 || sequence[sequenceLength - 1] != ordinal) {
            if (sequenceLength == sequence.length) {
                sequence = Arrays.copyOf(sequence, sequenceLength * 2);
            }
            sequence[sequenceLength++] = (byte) ordinal;
        }
    }

    /**
     * Moves the boundary without attributing the time to a phase. Used for replacing a producer after a fatal error
     * and for the idle time of a transaction that records join one at a time: that time is in the whole operation
     * (TRANSACTION) but in no protocol phase.
     */
    void skip() {
        mark = clock.getAsLong();
    }

    /**
     * Runs {@code work} (the caller's bookkeeping, see {@code OperationProducer}'s quiet point) outside the
     * operation's time: neither the phase in progress nor the whole operation gets it.
     */
    void exclude(Runnable work) {
        pause();
        try {
            work.run();
        } finally {
            resume();
        }
    }

    /**
     * Stops the clock until {@link #resume}: the time between is in no phase and not in the whole operation (a closed
     * loop's runner working between a transaction's quiet point and the rest of it).
     */
    void pause() {
        pausedAt = clock.getAsLong();
    }

    /** Starts the clock again after {@link #pause}; does nothing when it is not paused. */
    void resume() {
        if (pausedAt != NOT_PAUSED) {
            long spent = clock.getAsLong() - pausedAt;
            pausedAt = NOT_PAUSED;
            excluded += spent;
            mark += spent;
        }
    }

    void abortedAttempt() {
        counts().abortedAttempt();
    }

    void fatalError() {
        counts().fatalError();
    }

    void retry() {
        counts().retry();
    }

    void fenced() {
        counts().fenced();
    }

    void producerReplaced() {
        counts().producerReplaced();
    }

    void clientRetries(long count) {
        if (count > 0) {
            counts().clientRetries(count);
        }
    }

    private OperationTimings.Builder counts() {
        if (counts == null) {
            counts = new OperationTimings.Builder(start);
        }
        return counts;
    }

    /** The phases in the order they were lapped; laps of one phase in a row appear once. */
    List<Phase> sequence() {
        Phase[] phases = new Phase[sequenceLength];
        for (int i = 0; i < sequenceLength; i++) {
            phases[i] = PHASES[sequence[i]];
        }
        return List.of(phases);
    }

    /** The whole operation ends at the last boundary, so bookkeeping after it is not counted. */
    OperationTimings finish(int messages, OperationTimings.Outcome outcome) {
        OperationTimings.Builder builder = counts();
        for (Phase phase : PHASES) {
            if ((lapped & (1 << phase.ordinal())) != 0) {
                builder.add(phase, nanos[phase.ordinal()]);
            }
        }
        return builder.build(mark - excluded, messages, outcome, sequence());
    }
}

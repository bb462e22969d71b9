package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Times one operation's phases back to back: each {@link #lap} ends the current phase where the next begins, so
 * the phases add up to the whole operation except where time is deliberately left out ({@link #skip}).
 */
final class PhaseTimer {

    private final LongSupplier clock;
    private final OperationTimings.Builder builder;
    private final List<Phase> sequence = new ArrayList<>(8);
    private long mark;

    PhaseTimer() {
        this(System::nanoTime);
    }

    /** @param clock nanoseconds (tests pass their own) */
    PhaseTimer(LongSupplier clock) {
        this.clock = clock;
        this.mark = clock.getAsLong();
        this.builder = new OperationTimings.Builder(mark);
    }

    /** Attributes the time since the last boundary to {@code phase}. */
    void lap(Phase phase) {
        long now = clock.getAsLong();
        builder.add(phase, now - mark);
        mark = now;
        if (sequence.isEmpty() || sequence.get(sequence.size() - 1) != phase) {
            sequence.add(phase);
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

    void abortedAttempt() {
        builder.abortedAttempt();
    }

    void fatalError() {
        builder.fatalError();
    }

    void retry() {
        builder.retry();
    }

    void fenced() {
        builder.fenced();
    }

    void producerReplaced() {
        builder.producerReplaced();
    }

    void clientRetries(long count) {
        builder.clientRetries(count);
    }

    /** The phases in the order they were lapped; laps of one phase in a row appear once. */
    List<Phase> sequence() {
        return List.copyOf(sequence);
    }

    /** The whole operation ends at the last boundary, so bookkeeping after it is not counted. */
    OperationTimings finish(int messages, OperationTimings.Outcome outcome) {
        return builder.build(mark, messages, outcome, sequence);
    }
}

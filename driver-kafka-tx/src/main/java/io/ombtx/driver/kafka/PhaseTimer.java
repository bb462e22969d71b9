package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;

/**
 * Times one operation's phases back to back: each {@link #lap} ends the current phase where the next begins, so
 * the phases add up to the whole operation except where time is deliberately left out ({@link #skip}).
 */
final class PhaseTimer {

    private final OperationTimings.Builder builder;
    private long mark;

    PhaseTimer() {
        this.mark = System.nanoTime();
        this.builder = new OperationTimings.Builder(mark);
    }

    /** Attributes the time since the last boundary to {@code phase}. */
    void lap(Phase phase) {
        long now = System.nanoTime();
        builder.add(phase, now - mark);
        mark = now;
    }

    /**
     * Moves the boundary without attributing the time to a phase. Used for replacing a producer after a fatal error:
     * that time is in the whole operation (TRANSACTION) but in no protocol phase.
     */
    void skip() {
        mark = System.nanoTime();
    }

    void abortedAttempt() {
        builder.abortedAttempt();
    }

    void fatalError() {
        builder.fatalError();
    }

    /** The whole operation ends at the last boundary, so bookkeeping after it is not counted. */
    OperationTimings finish(int messages, OperationTimings.Outcome outcome) {
        return builder.build(mark, messages, outcome);
    }
}

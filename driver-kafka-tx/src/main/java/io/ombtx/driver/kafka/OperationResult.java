package io.ombtx.driver.kafka;

import io.ombtx.driver.api.FinishedOperation;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;

/**
 * One finished operation: its outcome, the error it was given up on (null unless its outcome is FAILED), and its
 * timings. A transaction's timings are built from its timer on first use, by whichever thread reports them (the
 * closed loop's report queue), not by the loop between two transactions; the timer is done with by then.
 */
final class OperationResult implements FinishedOperation {

    /** How a flow builds a transaction's timings from its timer, when first asked (see {@link #timings}). */
    interface Builder {
        OperationTimings build(PhaseTimer timer, int messages, Outcome outcome);
    }

    private final PhaseTimer timer; // null when built from the start
    private final Builder builder;
    private final int messages;
    private final Outcome outcome;
    private final Throwable failure;
    private OperationTimings timings;

    OperationResult(OperationTimings timings, Throwable failure) {
        this.timer = null;
        this.builder = null;
        this.messages = timings.messages();
        this.outcome = timings.outcome();
        this.failure = failure;
        this.timings = timings;
    }

    /** Timings built from {@code timer} by {@code builder} when first asked; nothing may lap it any more. */
    OperationResult(PhaseTimer timer, int messages, Outcome outcome, Throwable failure, Builder builder) {
        this.timer = timer;
        this.builder = builder;
        this.messages = messages;
        this.outcome = outcome;
        this.failure = failure;
    }

    @Override
    public Outcome outcome() {
        return outcome;
    }

    Throwable failure() {
        return failure;
    }

    @Override
    public long startNanos() {
        return timer == null ? UNKNOWN_START : timer.startNanos();
    }

    @Override
    public synchronized OperationTimings timings() {
        if (timings == null) {
            timings = builder.build(timer, messages, outcome);
        }
        return timings;
    }
}

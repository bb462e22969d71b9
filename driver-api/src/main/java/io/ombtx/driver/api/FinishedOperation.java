package io.ombtx.driver.api;

/**
 * An operation a closed loop ran on its own thread ({@link OperationProducer#runOperationInline}): its outcome at
 * once, its timings when asked. A driver may build the timings only then, on the thread that records them, and do its
 * own reporting of the operation there, so that nothing but the loop runs between the end of one transaction and the
 * begin of the next. The runner reads the timings of every operation it is handed, once, off the loop's thread.
 */
public interface FinishedOperation {

    OperationTimings.Outcome outcome();

    /** The operation's timings; safe to call from another thread once this object was handed over to it. */
    OperationTimings timings();

    /** {@link #startNanos} when the driver does not say. */
    long UNKNOWN_START = Long.MIN_VALUE;

    /**
     * When the operation began ({@link System#nanoTime}), as the driver timed it; {@link #UNKNOWN_START} when it does
     * not say. A loop running ahead ({@link OperationProducer#runAhead}) has no clock of its own around an operation,
     * so it places the operation's measured span with this and its timings' whole.
     */
    default long startNanos() {
        return UNKNOWN_START;
    }

    /** An operation whose timings are already built. */
    static FinishedOperation of(OperationTimings timings) {
        return of(timings, UNKNOWN_START);
    }

    /** An operation whose timings are already built, begun at {@code startNanos} ({@link #startNanos}). */
    static FinishedOperation of(OperationTimings timings, long startNanos) {
        return new FinishedOperation() {
            @Override
            public OperationTimings.Outcome outcome() {
                return timings.outcome();
            }

            @Override
            public OperationTimings timings() {
                return timings;
            }

            @Override
            public long startNanos() {
                return startNanos;
            }
        };
    }
}

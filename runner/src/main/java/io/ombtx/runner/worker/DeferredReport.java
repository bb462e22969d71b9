package io.ombtx.runner.worker;

import io.ombtx.driver.api.FinishedOperation;
import io.ombtx.driver.api.OperationTimings;

/**
 * A closed loop's bookkeeping of its last operation, done at the next operation's quiet point (or when the loop
 * ends): counting what it acknowledged and queueing its record on the load's report queue. It holds the operation
 * in fields, so holding it allocates nothing. Used by the loop's thread only; running it again does nothing.
 */
final class DeferredReport implements Runnable {
    /**
     * An end time that says: the operation ended its timings' whole after {@code sendNanos} (a loop running ahead,
     * whose driver alone saw the operation's start and end).
     */
    static final long TIMED_BY_DRIVER = Long.MIN_VALUE;

    private final LoadState state;
    private boolean due;
    private boolean counted;
    private FinishedOperation finished;
    private Throwable error;
    private int payloadLength;
    private long sendNanos;
    private long endNanos;
    private LoadState.Tally tally;
    private boolean countsDone;
    /** How long runs during the current operation took: no part of the operation. */
    private long nanosInCall;

    DeferredReport(LoadState state) {
        this.state = state;
    }

    void hold(
            FinishedOperation finished,
            Throwable error,
            int payloadLength,
            long sendNanos,
            long endNanos,
            LoadState.Tally tally,
            boolean countsDone) {
        this.finished = finished;
        this.error = error;
        this.payloadLength = payloadLength;
        this.sendNanos = sendNanos;
        this.endNanos = endNanos;
        this.tally = tally;
        this.countsDone = countsDone;
        this.counted = false;
        this.due = true;
    }

    /** Counts what the held operation acknowledged now (a visibility wait reads the count). */
    void countAcked() {
        if (due && !counted) {
            counted = true;
            state.countAcked(finished == null ? null : finished.outcome(), error);
        }
    }

    long takeNanosInCall() {
        long nanos = nanosInCall;
        nanosInCall = 0;
        return nanos;
    }

    /** Runs what is due between two operations: in neither one's time. */
    void runAfterCall() {
        run();
        nanosInCall = 0;
    }

    @Override
    public void run() {
        if (!due) {
            return;
        }
        long start = System.nanoTime();
        countAcked();
        due = false;
        FinishedOperation done = finished;
        Throwable failed = error;
        int length = payloadLength;
        long sent = sendNanos;
        long ended = endNanos;
        LoadState.Tally into = tally;
        boolean countsAsDone = countsDone;
        finished = null;
        error = null;
        state.reports.execute(() -> {
            try {
                // The driver may build the timings only now, here, off the loop's thread.
                OperationTimings timings = done == null ? null : done.timings();
                state.recordOperation(
                        timings,
                        failed,
                        length,
                        sent,
                        sent,
                        ended != TIMED_BY_DRIVER ? ended : timings == null ? 0 : sent + timings.totalNanos(),
                        into,
                        countsAsDone);
            } finally {
                state.inFlight.decrementAndGet();
            }
        });
        nanosInCall += System.nanoTime() - start;
    }
}

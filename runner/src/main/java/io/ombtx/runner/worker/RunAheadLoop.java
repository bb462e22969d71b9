package io.ombtx.runner.worker;

import io.ombtx.driver.api.FinishedOperation;
import io.ombtx.driver.api.OperationProducer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.util.Optional;

/**
 * A closed loop that runs ahead ({@link OperationProducer#runAhead}): each call commits the previous operation and
 * begins the next, and this loop's bookkeeping runs after it, at that one's quiet point. Not when the loop waits for
 * each write to be visible before the next begins.
 */
final class RunAheadLoop extends ProducerLoop {

    private final OperationProducer inline;
    /** Whether the driver holds an operation begun ahead, and what the loop knew of it when it began it. */
    private boolean pending;

    private LoadState.Tally pendingTally;
    private int pendingPayloadLength;
    /** When the call that began it began: its start, if the driver does not say (see FinishedOperation). */
    private long pendingCallNanos;

    RunAheadLoop(LoadState state, BenchmarkProducer producer, OperationProducer inline, LoadSpec spec) {
        super(state, producer, spec, true);
        this.inline = inline;
    }

    @Override
    boolean issue(int which, byte[] payload) {
        return runAhead(keys.nextKey(), payload, state.tallies[which]);
    }

    @Override
    void boundReached() {
        runAhead(null, null, state.tallies[0]); // the last operation begun is finished
    }

    /**
     * One call of the loop running ahead: the driver finishes the operation it holds and begins this one ({@code
     * payload} null: only finishes). Here, at this one's quiet point, the finished one is recorded. False when
     * stopping cut the call short: neither operation is recorded (the driver's close aborts what it began).
     */
    private boolean runAhead(Optional<String> key, byte[] payload, LoadState.Tally tally) {
        long callNanos = System.nanoTime();
        boolean begins = payload != null;
        if (begins) {
            state.inFlight.incrementAndGet();
        }
        FinishedOperation previous;
        try {
            previous = begins ? inline.runAhead(key, payload, spec.consumed()) : inline.finishAhead();
        } catch (RuntimeException e) {
            if (state.stopping && Thread.currentThread().isInterrupted()) {
                state.inFlight.addAndGet(-(pending ? 1 : 0) - (begins ? 1 : 0));
                pending = false;
                return false;
            }
            // Neither the operation held nor this one completed: both are failures.
            Throwable error = LoadState.unwrapped(e);
            if (pending) {
                record(null, error, pendingPayloadLength, pendingTally, pendingCallNanos);
            }
            if (begins) {
                record(null, error, payload.length, tally, callNanos);
            }
            pending = false;
            return true;
        }
        if (pending) {
            if (previous != null) {
                record(previous, null, pendingPayloadLength, pendingTally, pendingCallNanos);
            } else {
                state.inFlight.decrementAndGet(); // the driver held nothing (closed meanwhile): nothing to record
            }
        }
        pending = begins;
        pendingTally = tally;
        pendingPayloadLength = begins ? payload.length : 0;
        pendingCallNanos = callNanos;
        return true;
    }

    /**
     * Queues an operation's record. Its latency is its timings' whole, from its start as the driver timed it (else
     * from {@code callNanos}, when the call that began it began): no clock of the runner's is around it.
     */
    private void record(
            FinishedOperation finished, Throwable error, int payloadLength, LoadState.Tally tally, long callNanos) {
        long start = finished == null || finished.startNanos() == FinishedOperation.UNKNOWN_START
                ? callNanos
                : finished.startNanos();
        lastOperation.hold(finished, error, payloadLength, start, DeferredReport.TIMED_BY_DRIVER, tally, true);
        lastOperation.run();
    }

    /** At the loop's end: an operation begun ahead and never finished (the loop stopped) is not recorded. */
    @Override
    void end() {
        super.end();
        if (pending) {
            pending = false;
            state.inFlight.decrementAndGet();
        }
    }
}

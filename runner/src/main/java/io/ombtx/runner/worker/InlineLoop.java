package io.ombtx.runner.worker;

import io.ombtx.driver.api.FinishedOperation;
import io.ombtx.driver.api.OperationProducer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.util.Optional;

/**
 * A closed loop's operations (WRITE, SEND_OFFSETS) run on this loop's thread, as the seeds' bare loops did, with no
 * hand-off to the producer's thread and back between two operations. Its bookkeeping (counting what it acknowledged,
 * queueing its record on the load's report queue) is held in a {@link DeferredReport} and done at the next
 * operation's quiet point, after that one's first requests are out (see {@link OperationProducer}), so that between a
 * commit and the next transaction's requests the thread does little more than the seeds' loop did. With {@code
 * waitForConsume} an operation is done once the consumer has seen it, not when it commits, and what it acknowledged
 * is counted at once, for the wait to read.
 */
final class InlineLoop extends ProducerLoop {

    private final OperationProducer inline;
    private final boolean waitForConsume;

    InlineLoop(LoadState state, BenchmarkProducer producer, OperationProducer inline, LoadSpec spec) {
        super(state, producer, spec, true);
        this.inline = inline;
        this.waitForConsume = spec.waitForConsume();
    }

    @Override
    boolean issue(int which, byte[] payload) {
        LoadState.Tally tally = state.tallies[which];
        issueInline(keys.nextKey(), payload, spec.consumed(), tally, !waitForConsume, waitForConsume);
        if (waitForConsume && state.awaitVisible(state.messagesAcked.get())) {
            tally.done().incrementAndGet();
        }
        return true;
    }

    private void issueInline(
            Optional<String> key,
            byte[] payload,
            boolean consumed,
            LoadState.Tally tally,
            boolean countsDone,
            boolean countNow) {
        DeferredReport last = lastOperation;
        long sendNanos = System.nanoTime();
        state.inFlight.incrementAndGet();
        FinishedOperation finished = null;
        Throwable error = null;
        try {
            finished = inline.runOperationInline(key, payload, consumed, last);
        } catch (RuntimeException e) {
            if (state.stopping && Thread.currentThread().isInterrupted()) {
                // Stopping interrupted the operation on this thread: it was cut short, not failed; not recorded.
                last.run();
                state.inFlight.decrementAndGet();
                return; // the loop sees stopping and ends
            }
            error = LoadState.unwrapped(e);
        }
        // The bookkeeping the driver ran at the quiet point is no part of this operation's time.
        long endNanos = System.nanoTime() - last.takeNanosInCall();
        last.runAfterCall(); // when the driver did not reach a quiet point (a failure before it)
        last.hold(finished, error, payload.length, sendNanos, endNanos, tally, countsDone);
        if (countNow) {
            last.countAcked();
        }
    }
}

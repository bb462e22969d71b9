package io.ombtx.runner.worker;

import io.ombtx.driver.api.CallbackProducer;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.WorkerStats;

/**
 * What plain publishes record once acknowledged or failed (on the client's I/O thread): the publish and, when it
 * counts as an operation, one ACKNOWLEDGED operation, together through {@link WorkerStats#recordAckedPublish}. One
 * instance serves every message of its kind: through the fast path ({@link CallbackProducer}) the driver hands back
 * each message's size and times, so the runner allocates nothing per message in flight and the driver's own
 * per-message object (kafka-clients' call-back) is the only one. At saturation kafka-clients holds a few hundred
 * thousand messages in flight, and every young collection copies them.
 */
final class Acknowledgement implements CallbackProducer.SendCallback {
    private final LoadState state;
    private final LoadState.Tally tally;
    private final boolean countsOperations;
    private final boolean countsDone;
    /** Whether a message is also recorded as an operation (false when its transaction is: see below). */
    private final boolean asOperation;

    /**
     * @param countsOperations each message is one of the load's operations, counted done when acknowledged
     * @param asOperation each message is also recorded as an ACKNOWLEDGED operation; false where the producer
     *     reports the transactions that hold the messages ({@link LoadState#transactionEnded}), which are then the
     *     operations
     */
    Acknowledgement(
            LoadState state, LoadState.Tally tally, boolean countsOperations, boolean countsDone, boolean asOperation) {
        this.state = state;
        this.tally = tally;
        this.countsOperations = countsOperations;
        this.countsDone = countsDone;
        this.asOperation = asOperation;
    }

    /** The fast path's call-back: records, and the send is no longer in flight. */
    @Override
    public void completed(Throwable error, int bytes, long intendedNanos, long sendNanos) {
        try {
            record(error, bytes, intendedNanos, sendNanos);
        } finally {
            state.fastCompleted.incrementAndGet();
        }
    }

    void record(Throwable error, int bytes, long intendedNanos, long sendNanos) {
        long ackNanos = System.nanoTime();
        if (error == null) {
            state.messagesAcked.incrementAndGet();
            if (!state.succeeded) {
                state.succeeded = true;
            }
        } else {
            state.noteError(error);
        }
        WorkerStats into = tally.stats();
        if (error != null) {
            into.count(Counter.PUBLISH_ERRORS, 1);
            into.count(Counter.FAILED, asOperation ? 1 : 0);
        } else {
            into.recordAckedPublish(bytes, sendNanos, intendedNanos, ackNanos, asOperation);
        }
        if (countsOperations && countsDone) {
            tally.done().incrementAndGet();
        }
    }
}

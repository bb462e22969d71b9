package io.ombtx.runner.worker;

import io.ombtx.driver.api.OperationListener;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.PreciseConsumerCallback;
import io.ombtx.runner.stats.Counter;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/** Receives for every consumer: counts, end-to-end latency, and the operations consumers perform (a STREAM's). */
final class Receiver implements PreciseConsumerCallback, OperationListener {

    private final LoadState state;

    Receiver(LoadState state) {
        this.state = state;
    }

    static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    @Override
    public void messageReceived(byte[] payload, long publishTimestamp) {
        received(payload.length, (System.currentTimeMillis() - publishTimestamp) * 1000);
    }

    @Override
    public void messageReceived(ByteBuffer payload, long publishTimestamp) {
        received(payload.remaining(), (System.currentTimeMillis() - publishTimestamp) * 1000);
    }

    @Override
    public void messageReceivedMicros(int payloadLength, long publishEpochMicros) {
        received(payloadLength, epochMicros() - publishEpochMicros);
    }

    /**
     * Consumers record from the moment they exist, as OMB's do: a worker that only consumes may never be sent a load
     * (OMB's coordinator starts the load on producing workers only), and then takes OMB's meaning — every message
     * counts, end-to-end latency from the publish timestamp, warm-up ended by {@code /reset-stats}. A load that counts
     * operations holds back its warm-up's messages.
     */
    private void received(int length, long endToEndMicros) {
        while (state.paused) {
            LockSupport.parkNanos(1_000_000);
        }
        LoadSpec spec = state.load;
        long index = state.receivedIndex.incrementAndGet();
        try {
            long warmupMessages = spec == null
                    ? 0
                    : spec.warmupOperations() * Math.max(1, spec.messagesPerOperation())
                            - state.warmupRecordsAborted.get();
            // index is 1-based: the tally of message index - 1 of a warm-up of warmupMessages
            state.tallies[LoadState.tallyIndex(index - 1, warmupMessages)]
                    .stats()
                    .recordReceived(length, endToEndMicros, state.recordEndToEnd);
        } finally {
            // Counted only once recorded: whoever sees the count also finds the latency in the stats.
            state.messagesReceived.incrementAndGet();
        }
    }

    @Override
    public void operationCompleted(OperationTimings timings) {
        long index = state.streamOperationIndex.getAndIncrement();
        LoadSpec spec = state.load;
        if (spec != null && index < spec.warmupOperations() && timings.outcome() == OperationTimings.Outcome.ABORTED) {
            // Reported before the records of later batches are delivered (the driver's report order).
            state.warmupRecordsAborted.addAndGet(timings.messages());
        }
        if (spec == null
                || (spec.measureOperations() > 0 && index >= spec.warmupOperations() + spec.measureOperations())) {
            return;
        }
        LoadState.Tally tally = state.tallies[LoadState.tallyIndex(index, spec.warmupOperations())];
        long end = System.nanoTime();
        tally.stats().recordOperation(timings, end - Math.max(0, timings.totalNanos()), end);
        if (timings.outcome() != OperationTimings.Outcome.ABORTED) { // an aborted batch is processed again
            tally.stats().count(Counter.MESSAGES_PROCESSED, timings.messages());
        }
        tally.done().incrementAndGet();
    }
}

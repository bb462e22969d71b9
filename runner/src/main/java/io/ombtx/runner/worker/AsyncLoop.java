package io.ombtx.runner.worker;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationProducer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A closed loop through the driver's futures, OMB's way: each send or operation awaited before the next, and with
 * {@code waitForConsume} until the consumer has seen it too. A plain publish is recorded by an {@link
 * Acknowledgement}, an operation by its timings; {@link #issue} serves the paced loop ({@link PacedAsyncLoop}) too.
 */
final class AsyncLoop extends ProducerLoop {

    /** Waiting for the consumer: an operation is done once it is visible, not when it commits. */
    private final boolean doneWhenConsumed;

    AsyncLoop(LoadState state, BenchmarkProducer producer, LoadSpec spec, boolean countsOperations) {
        super(state, producer, spec, countsOperations);
        this.doneWhenConsumed = countsOperations && spec.waitForConsume();
    }

    @Override
    boolean issue(int which, byte[] payload) {
        LoadState.Tally tally = state.tallies[which];
        long intended = System.nanoTime();
        CompletableFuture<?> done =
                issue(state, producer, countsOperations, keys.nextKey(), payload, intended, tally, !doneWhenConsumed);
        done.handle((ok, error) -> null).join();
        if (spec.waitForConsume() && state.awaitVisible(state.messagesAcked.get()) && doneWhenConsumed) {
            tally.done().incrementAndGet();
        }
        return true;
    }

    /** Issues one send or operation through {@code producer}'s future; the future completes once it is recorded. */
    static CompletableFuture<?> issue(
            LoadState state,
            BenchmarkProducer producer,
            boolean countsOperations,
            Optional<String> key,
            byte[] payload,
            long intendedNanos,
            LoadState.Tally tally,
            boolean countsDone) {
        long sendNanos = System.nanoTime();
        state.inFlight.incrementAndGet();
        try {
            return issueTracked(
                            state,
                            producer,
                            countsOperations,
                            key,
                            payload,
                            sendNanos,
                            intendedNanos,
                            tally,
                            countsDone)
                    .whenComplete((ignored, error) -> state.inFlight.decrementAndGet());
        } catch (RuntimeException thrownBySend) {
            state.inFlight.decrementAndGet();
            throw thrownBySend;
        }
    }

    private static CompletableFuture<?> issueTracked(
            LoadState state,
            BenchmarkProducer producer,
            boolean countsOperations,
            Optional<String> key,
            byte[] payload,
            long sendNanos,
            long intendedNanos,
            LoadState.Tally tally,
            boolean countsDone) {
        if (state.operation.kind() == OperationKind.PUBLISH || !countsOperations) {
            Acknowledgement ack = new Acknowledgement(
                    state, tally, countsOperations, countsDone, countsOperations && !state.transactionsReported);
            return producer.sendAsync(key, payload)
                    .whenComplete((ok, error) -> ack.record(error, payload.length, intendedNanos, sendNanos));
        }
        return ((OperationProducer) producer).runOperation(key, payload).whenComplete((timings, error) -> {
            long endNanos = System.nanoTime();
            state.countAcked(timings == null ? null : timings.outcome(), error);
            state.recordOperation(
                    timings, error, payload.length, sendNanos, intendedNanos, endNanos, tally, countsDone);
        });
    }
}

package io.ombtx.runner.worker;

import io.ombtx.driver.api.CallbackProducer;
import io.ombtx.driver.api.OperationKind;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.util.List;

/**
 * One producer's open-loop schedule (or one share of it, see {@link SenderThreads}): what it sends when its {@link
 * Pacer} says, on a thread it shares with other producers' schedules ({@link SharedSenders}). The operation's index
 * is taken when it is sent, so the warm-up and the bound count what was sent. Chosen once when the load starts
 * ({@link #of}): through the driver's fast path when it offers one ({@link FastPublishLoop}), else through its
 * futures ({@link PacedAsyncLoop}).
 */
abstract class PacedLoop {

    final LoadState state;
    final BenchmarkProducer producer;
    final LoadSpec spec;
    /** Whether this loop's sends are the load's operations (false: a STREAM's input). */
    final boolean countsOperations;

    final Pacer pacer;
    /** Its thread's name when it has one of its own: {@code producer-<i>}, or {@code producer-<i>-<share>}. */
    final String name;

    final KeyChooser keys;
    private final long bound;
    private int payloadIndex;

    PacedLoop(
            LoadState state,
            BenchmarkProducer producer,
            Pacer pacer,
            LoadSpec spec,
            boolean countsOperations,
            String name) {
        this.name = name;
        this.state = state;
        this.producer = producer;
        this.pacer = pacer;
        this.spec = spec;
        this.countsOperations = countsOperations;
        this.keys = new KeyChooser(spec.keyDistributor());
        this.bound = spec.measureOperations() > 0 ? spec.warmupOperations() + spec.measureOperations() : Long.MAX_VALUE;
    }

    static PacedLoop of(
            LoadState state,
            BenchmarkProducer producer,
            Pacer pacer,
            LoadSpec spec,
            boolean countsOperations,
            String name) {
        return producer instanceof CallbackProducer
                        && (state.operation.kind() == OperationKind.PUBLISH || !countsOperations)
                ? new FastPublishLoop(state, producer, pacer, spec, countsOperations, name)
                : new PacedAsyncLoop(state, producer, pacer, spec, countsOperations, name);
    }

    /**
     * Sends what was intended at {@code intendedNanos}, the wait for it over at {@code nowNanos}; false when the
     * loop is over (its bound reached).
     */
    final boolean sendAt(long intendedNanos, long nowNanos) {
        long index = countsOperations ? state.operationIndex.getAndIncrement() : -1;
        if (countsOperations && index >= bound) {
            return false;
        }
        int which = countsOperations ? LoadState.tallyIndex(index, spec.warmupOperations()) : 1;
        List<byte[]> payloads = spec.payloads();
        byte[] payload = payloads.get(payloadIndex++ % payloads.size());
        send(which, payload, intendedNanos, nowNanos);
        return true;
    }

    /** Sends {@code payload} into tally {@code which} ({@link LoadState#tallyIndex}). */
    abstract void send(int which, byte[] payload, long intendedNanos, long nowNanos);
}

package io.ombtx.runner.worker;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationProducer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.util.List;

/**
 * One closed-loop producer thread's way of generating load, chosen once when the load starts ({@link #of}), as JMH
 * picks one handler per benchmark mode: a loop that runs ahead ({@link RunAheadLoop}), a loop of whole operations on
 * this thread ({@link InlineLoop}), or sends and operations through the driver's futures ({@link AsyncLoop}). The
 * base holds what every way shares: the operation's index and bound, the tally it records into, keys and payloads.
 * An open loop's ways are {@link PacedLoop}s.
 */
abstract class ProducerLoop {

    final LoadState state;
    final BenchmarkProducer producer;
    final LoadSpec spec;
    /** Whether this loop's sends are the load's operations (false: a STREAM's input, paced). */
    final boolean countsOperations;

    final KeyChooser keys;
    private final long bound;
    private int payloadIndex;
    /** The last inline operation's bookkeeping, for the next one's quiet point. */
    final DeferredReport lastOperation;

    ProducerLoop(LoadState state, BenchmarkProducer producer, LoadSpec spec, boolean countsOperations) {
        this.state = state;
        this.producer = producer;
        this.spec = spec;
        this.countsOperations = countsOperations;
        this.keys = new KeyChooser(spec.keyDistributor());
        this.bound = spec.measureOperations() > 0 ? spec.warmupOperations() + spec.measureOperations() : Long.MAX_VALUE;
        this.lastOperation = new DeferredReport(state);
    }

    /**
     * The way {@code producer} generates a closed-loop load: its operations whole on this thread when the driver can
     * run them so (running ahead where it can), else through its futures. An open loop's producers are {@link
     * PacedLoop}s.
     */
    static ProducerLoop of(LoadState state, BenchmarkProducer producer, LoadSpec spec, boolean countsOperations) {
        if (countsOperations
                && state.operation.kind() != OperationKind.PUBLISH
                && producer instanceof OperationProducer inline) {
            return !spec.waitForConsume() && inline.runsAhead()
                    ? new RunAheadLoop(state, producer, inline, spec)
                    : new InlineLoop(state, producer, inline, spec);
        }
        return new AsyncLoop(state, producer, spec, countsOperations);
    }

    /** Issues the next operation; false when the loop is over (its bound reached, or its wait interrupted). */
    final boolean next() {
        long index = countsOperations ? state.operationIndex.getAndIncrement() : -1;
        if (countsOperations && index >= bound) {
            boundReached();
            return false;
        }
        int which = countsOperations ? LoadState.tallyIndex(index, spec.warmupOperations()) : 1;
        List<byte[]> payloads = spec.payloads();
        byte[] payload = payloads.get(payloadIndex++ % payloads.size());
        return issue(which, payload);
    }

    /**
     * Issues one operation or message into tally {@code which} ({@link LoadState#tallyIndex}); false when the loop is
     * over.
     */
    abstract boolean issue(int which, byte[] payload);

    /** The loop's bound is reached: what it holds of an operation is finished. */
    void boundReached() {}

    /** The loop ends, whichever way: the last operation's bookkeeping is done, or dropped if it never finished. */
    void end() {
        lastOperation.run();
    }
}

package io.ombtx.runner.worker;

import io.openmessaging.benchmark.driver.BenchmarkProducer;

/** An open loop through the driver's futures, OMB's way: each send or operation issued at its intended time. */
final class PacedAsyncLoop extends PacedLoop {

    PacedAsyncLoop(
            LoadState state,
            BenchmarkProducer producer,
            Pacer pacer,
            LoadSpec spec,
            boolean countsOperations,
            String name) {
        super(state, producer, pacer, spec, countsOperations, name);
    }

    @Override
    void send(int which, byte[] payload, long intendedNanos, long nowNanos) {
        AsyncLoop.issue(
                state, producer, countsOperations, keys.nextKey(), payload, intendedNanos, state.tallies[which], true);
    }
}

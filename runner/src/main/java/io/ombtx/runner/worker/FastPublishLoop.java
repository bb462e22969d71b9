package io.ombtx.runner.worker;

import io.ombtx.driver.api.CallbackProducer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;

/**
 * An open loop of plain publishes through the driver's fast path ({@link CallbackProducer#send}): each message sent
 * at its intended time, acknowledged through one long-lived {@link Acknowledgement} per tally, so nothing of the
 * runner's lives per message in flight.
 */
final class FastPublishLoop extends PacedLoop {

    private final CallbackProducer fast;
    /** The warm-up's and the measurement's acknowledgement, by {@link LoadState#tallyIndex}. */
    private final Acknowledgement[] acks;

    FastPublishLoop(
            LoadState state,
            BenchmarkProducer producer,
            Pacer pacer,
            LoadSpec spec,
            boolean countsOperations,
            String name) {
        super(state, producer, pacer, spec, countsOperations, name);
        this.fast = (CallbackProducer) producer;
        boolean asOperations = countsOperations && !state.transactionsReported;
        this.acks = new Acknowledgement[] {
            new Acknowledgement(state, state.tallies[0], countsOperations, true, asOperations),
            new Acknowledgement(state, state.tallies[1], countsOperations, true, asOperations)
        };
    }

    @Override
    void send(int which, byte[] payload, long intendedNanos, long nowNanos) {
        state.fastIssued.incrementAndGet();
        // The time the wait ended is the send time: the clock is not read again.
        fast.send(keys.nextKeyOrNull(), payload, spec.consumed(), intendedNanos, nowNanos, acks[which]);
    }
}

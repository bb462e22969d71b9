package io.ombtx.runner.worker;

import io.ombtx.driver.api.CallbackProducer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;

/**
 * An open loop of plain publishes through the driver's fast path ({@link CallbackProducer#send}): each message sent
 * at its intended time on the {@link Pacer}'s schedule, acknowledged through one long-lived {@link Acknowledgement}
 * per tally, so nothing of the runner's lives per message in flight.
 */
final class FastPublishLoop extends ProducerLoop {

    private final CallbackProducer fast;
    private final Pacer pacer;
    /** The warm-up's and the measurement's acknowledgement, by {@link LoadState#tallyIndex}. */
    private final Acknowledgement[] acks;

    FastPublishLoop(LoadState state, BenchmarkProducer producer, Pacer pacer, LoadSpec spec, boolean countsOperations) {
        super(state, producer, spec, countsOperations);
        this.fast = (CallbackProducer) producer;
        this.pacer = pacer;
        boolean asOperations = countsOperations && !state.transactionsReported;
        this.acks = new Acknowledgement[] {
            new Acknowledgement(state, state.tallies[0], countsOperations, true, asOperations),
            new Acknowledgement(state, state.tallies[1], countsOperations, true, asOperations)
        };
    }

    @Override
    boolean issue(int which, byte[] payload) {
        long intended = pacer.nextIntendedNanos();
        // The time the wait ended: the send time, without reading the clock again.
        long now = Pacer.awaitNanos(intended);
        if (now == Pacer.INTERRUPTED) {
            return false;
        }
        state.fastIssued.incrementAndGet();
        fast.send(keys.nextKeyOrNull(), payload, spec.consumed(), intended, now, acks[which]);
        return true;
    }
}

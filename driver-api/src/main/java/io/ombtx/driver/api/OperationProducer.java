package io.ombtx.driver.api;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Implemented by a {@code BenchmarkProducer} whose driver is a {@link ScenarioDriver}: runs one whole
 * operation as configured by {@link ScenarioDriver#configureOperation}.
 */
public interface OperationProducer {

    /**
     * Runs one operation with {@code payload} as every message's value. Operations on one producer run one at a
     * time in call order. Completes when every write is acknowledged (and the transaction committed), with the
     * timings; completes exceptionally only when the operation could not be done at all.
     */
    CompletableFuture<OperationTimings> runOperation(Optional<String> key, byte[] payload);

    /**
     * Runs one operation on the calling thread and returns its outcome, with its timings to be read later: a closed
     * loop's thread runs one operation after another with nothing between them, as the seeds' bare loops did (a
     * hand-off to another thread and back, or bookkeeping, between two transactions changes whether the next one
     * meets the previous commit's markers). Not to be mixed with {@link #runOperation} calls still running. The
     * default waits for {@link #runOperation}.
     *
     * @throws java.util.concurrent.CompletionException when the operation could not be done at all
     */
    default FinishedOperation runOperationInline(Optional<String> key, byte[] payload) {
        return FinishedOperation.of(runOperation(key, payload).join());
    }

    /**
     * {@link #runOperationInline(Optional, byte[])}, told whether anything in the run consumes what it writes: when
     * nothing does ({@code consumed} false), the records need no publish-time header, and a driver may leave it off
     * so they are the records the seeds' bare loops wrote. The default ignores it.
     */
    default FinishedOperation runOperationInline(Optional<String> key, byte[] payload, boolean consumed) {
        return runOperationInline(key, payload);
    }

    /**
     * {@link #runOperationInline(Optional, byte[], boolean)}, given the caller's bookkeeping of its previous operation
     * to run at this operation's <em>quiet point</em>: once the operation's first requests are out (its records handed
     * to the client, its offsets sent) and before its commit. Between the previous commit and those requests the
     * thread should do no more than the seeds' bare loop did, since that time decides whether they meet the previous
     * commit's markers; at the quiet point it waits on nothing the broker is still finishing. The driver runs {@code
     * quietPoint} at most once, and leaves the time it takes out of the operation's timings; the caller runs it
     * after the call when the driver did not (it must tolerate being asked twice). The default runs it first.
     */
    default FinishedOperation runOperationInline(
            Optional<String> key, byte[] payload, boolean consumed, Runnable quietPoint) {
        quietPoint.run();
        return runOperationInline(key, payload, consumed);
    }

    /**
     * Whether this producer runs a closed loop's operations ahead ({@link #runAhead}). The default does not; the
     * runner then calls {@link #runOperationInline(Optional, byte[], boolean, Runnable)}.
     */
    default boolean runsAhead() {
        return false;
    }

    /**
     * A closed loop's path in which nothing of the caller runs between one transaction's commit and the next one's
     * begin: finishes the operation the last call began (its commit, and what follows it in its order), begins this
     * one and runs it to its quiet point (its records handed to the client, its offsets sent), and returns there
     * with the previous operation, or null on the first call. The caller does its own work after the return, while
     * this operation's first requests are out: that time is left out of this operation's timings, which the driver
     * measures itself from just before its begin. {@link #finishAhead} finishes the last one. On the calling thread
     * only, one loop per producer, not mixed with the other paths. An exception means that neither the previous
     * operation nor this one completed.
     *
     * @throws UnsupportedOperationException unless {@link #runsAhead}
     */
    default FinishedOperation runAhead(Optional<String> key, byte[] payload, boolean consumed) {
        throw new UnsupportedOperationException("this producer does not run operations ahead");
    }

    /**
     * Finishes the operation the last {@link #runAhead} began and returns it, or null when none is open. An operation
     * begun and never finished (the loop stopped) is aborted when the producer closes.
     */
    default FinishedOperation finishAhead() {
        throw new UnsupportedOperationException("this producer does not run operations ahead");
    }
}

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
}

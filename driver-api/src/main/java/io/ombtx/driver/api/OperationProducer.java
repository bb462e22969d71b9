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
}

package io.openmessaging.benchmark.driver;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** OMB SPI: publishes one message; the future completes when the broker has acknowledged it. */
public interface BenchmarkProducer extends AutoCloseable {

    CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload);
}

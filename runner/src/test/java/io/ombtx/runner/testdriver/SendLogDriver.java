package io.ombtx.runner.testdriver;

import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.io.File;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.bookkeeper.stats.StatsLogger;

/**
 * An OMB-SPI-only driver whose sends are acknowledged at once; each send is logged (when, on which thread) in
 * {@link #sends}, so a test that hands this driver to a {@code LocalWorker} can check the schedule the runner kept.
 */
public final class SendLogDriver implements BenchmarkDriver {

    /** One send: {@code System.nanoTime()} as it was called, and the calling thread's name. */
    public record Send(long nanos, String thread) {}

    public final ConcurrentLinkedQueue<Send> sends = new ConcurrentLinkedQueue<>();

    @Override
    public void initialize(File configurationFile, StatsLogger statsLogger) {}

    @Override
    public String getTopicNamePrefix() {
        return "send-log";
    }

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
        return CompletableFuture.completedFuture(new BenchmarkProducer() {
            @Override
            public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload) {
                sends.add(new Send(System.nanoTime(), Thread.currentThread().getName()));
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public void close() {}
        });
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscription, ConsumerCallback callback) {
        return CompletableFuture.completedFuture(() -> {});
    }

    @Override
    public void close() {}
}

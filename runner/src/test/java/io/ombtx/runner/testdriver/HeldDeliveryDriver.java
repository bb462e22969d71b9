package io.ombtx.runner.testdriver;

import io.ombtx.driver.api.FinishedOperation;
import io.ombtx.driver.api.OperationProducer;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.PreciseConsumerCallback;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * An in-memory broker: operations commit at once and reach the consumer on a delivery thread. The delivery of
 * operation {@code holdOperation} (counting from 0) waits until {@code release} is counted down or
 * {@code holdMillis} pass, so a test can place a consumer callback after whatever the runner does next.
 */
public final class HeldDeliveryDriver extends InMemoryScenarioDriver {

    private final long holdOperation;
    private final long holdMillis;
    private final CountDownLatch release;

    /** Holds nothing back. */
    public HeldDeliveryDriver() {
        this(-1, 0, new CountDownLatch(0));
    }

    public HeldDeliveryDriver(long holdOperation, long holdMillis, CountDownLatch release) {
        this.holdOperation = holdOperation;
        this.holdMillis = holdMillis;
        this.release = release;
    }

    private final ExecutorService delivery = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "held-delivery");
        t.setDaemon(true);
        return t;
    });
    private volatile ConsumerCallback consumer;
    private long operations;
    private volatile BiConsumer<Long, Runnable> quietPoints;

    /**
     * Hands each inline operation's quiet point to {@code watch}, with the operation's index (from 0), for it to run
     * (and look at the worker around it); without a watch the operation runs it itself, after its delivery.
     */
    public void watchQuietPoints(BiConsumer<Long, Runnable> watch) {
        this.quietPoints = watch;
    }

    @Override
    public String getTopicNamePrefix() {
        return "held";
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
        return CompletableFuture.completedFuture(new Producer());
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscription, ConsumerCallback callback) {
        consumer = callback;
        return CompletableFuture.completedFuture(() -> {});
    }

    private void deliver(int length, long operation) {
        long publishMicros = micros();
        delivery.execute(() -> {
            if (operation == holdOperation) {
                try {
                    release.await(holdMillis, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            ((PreciseConsumerCallback) consumer).messageReceivedMicros(length, publishMicros);
        });
    }

    private static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    @Override
    public void close() {
        delivery.shutdownNow();
    }

    private final class Producer implements BenchmarkProducer, OperationProducer {

        @Override
        public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload) {
            deliver(payload.length, -1);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<OperationTimings> runOperation(Optional<String> key, byte[] payload) {
            long start = System.nanoTime();
            deliver(payload.length, operations++);
            return CompletableFuture.completedFuture(new OperationTimings.Builder(start)
                    .build(System.nanoTime(), 1, OperationTimings.Outcome.COMMITTED));
        }

        /** As the Kafka driver: the write goes out first, then the caller's bookkeeping, then the operation ends. */
        @Override
        public FinishedOperation runOperationInline(
                Optional<String> key, byte[] payload, boolean consumed, Runnable quietPoint) {
            long start = System.nanoTime();
            long operation = operations++;
            deliver(payload.length, operation);
            BiConsumer<Long, Runnable> watch = quietPoints;
            if (watch != null) {
                watch.accept(operation, quietPoint);
            } else {
                quietPoint.run();
            }
            return FinishedOperation.of(new OperationTimings.Builder(start)
                    .build(System.nanoTime(), 1, OperationTimings.Outcome.COMMITTED));
        }

        @Override
        public void close() {}
    }
}

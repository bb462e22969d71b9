package io.ombtx.runner.testdriver;

import io.ombtx.driver.api.CallbackProducer;
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
 * {@link #withCallbacks} makes one whose producers take omb-tx's {@link CallbackProducer} send too, logged in {@link
 * #callbackSends}.
 */
public final class SendLogDriver implements BenchmarkDriver {

    /** One send: {@code System.nanoTime()} as it was called, and the calling thread's name. */
    /** One send: when, on which thread, by which producer (in the order they were made, from 0). */
    public record Send(long nanos, String thread, int producer) {}

    /** One call-back send: its key, whether the runner said the message is consumed, its payload's size. */
    public record CallbackSend(String key, boolean consumed, int bytes) {}

    public final ConcurrentLinkedQueue<Send> sends = new ConcurrentLinkedQueue<>();
    public final ConcurrentLinkedQueue<CallbackSend> callbackSends = new ConcurrentLinkedQueue<>();
    private final boolean callbacks;

    public SendLogDriver() {
        this(false);
    }

    private SendLogDriver(boolean callbacks) {
        this.callbacks = callbacks;
    }

    /** A driver whose producers are {@link CallbackProducer}s as well. */
    public static SendLogDriver withCallbacks() {
        return new SendLogDriver(true);
    }

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
        int index = producersMade.getAndIncrement();
        return CompletableFuture.completedFuture(callbacks ? new Both(index) : new Logged(index));
    }

    private final java.util.concurrent.atomic.AtomicInteger producersMade =
            new java.util.concurrent.atomic.AtomicInteger();

    private class Logged implements BenchmarkProducer {
        private final int index;

        Logged(int index) {
            this.index = index;
        }

        @Override
        public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload) {
            sends.add(new Send(System.nanoTime(), Thread.currentThread().getName(), index));
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void close() {}
    }

    private final class Both extends Logged implements CallbackProducer {
        Both(int index) {
            super(index);
        }

        @Override
        public void send(
                String key,
                byte[] payload,
                boolean consumed,
                long intendedNanos,
                long sendNanos,
                SendCallback callback) {
            callbackSends.add(new CallbackSend(key, consumed, payload.length));
            callback.completed(null, payload.length, intendedNanos, sendNanos);
        }
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscription, ConsumerCallback callback) {
        return CompletableFuture.completedFuture(() -> {});
    }

    @Override
    public void close() {}
}

package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ombtx.driver.api.CallbackProducer;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.testdriver.SendLogDriver;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.io.File;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.bookkeeper.stats.StatsLogger;
import org.junit.jupiter.api.Test;

/**
 * A prefilled source is sent as unconsumed for end-to-end latency (a prefilled record's would be the time since the
 * prefill): through a driver's call-back send with {@code consumed} false, so the driver leaves out what it adds only
 * for that; a producer of OMB's SPI alone gets OMB's {@code sendAsync}.
 */
class PrefillTest {

    /** A driver whose producers take the call-back send too, logging each send's {@code consumed} and key. */
    static final class CallbackDriver implements BenchmarkDriver {
        record Sent(String key, boolean consumed, int bytes) {}

        final ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Boolean> sentAsync = new ConcurrentLinkedQueue<>();

        @Override
        public void initialize(File configurationFile, StatsLogger statsLogger) {}

        @Override
        public String getTopicNamePrefix() {
            return "prefill";
        }

        @Override
        public CompletableFuture<Void> createTopic(String topic, int partitions) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
            final class Both implements BenchmarkProducer, CallbackProducer {
                @Override
                public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload) {
                    sentAsync.add(true);
                    return CompletableFuture.completedFuture(null);
                }

                @Override
                public void send(
                        String key,
                        byte[] payload,
                        boolean consumed,
                        long intendedNanos,
                        long sendNanos,
                        SendCallback callback) {
                    sent.add(new Sent(key, consumed, payload.length));
                    callback.completed(null, payload.length, intendedNanos, sendNanos);
                }

                @Override
                public void close() {}
            }
            return CompletableFuture.completedFuture(new Both());
        }

        @Override
        public CompletableFuture<BenchmarkConsumer> createConsumer(
                String topic, String subscription, ConsumerCallback callback) {
            return CompletableFuture.completedFuture(() -> {});
        }

        @Override
        public void close() {}
    }

    @Test
    void aCallBackProducerIsPrefilledUnconsumedAndUnkeyed() throws Exception {
        CallbackDriver driver = new CallbackDriver();
        try (LocalWorker worker = new LocalWorker(driverClass -> driver)) {
            worker.initializeDriver("driverClass: " + CallbackDriver.class.getName() + "\n", OperationSpec.publish());
            worker.createProducers(worker.createTopics(1, 1));
            worker.prefill(250, new byte[6]);
        }
        List<CallbackDriver.Sent> sent = List.copyOf(driver.sent);
        assertEquals(250, sent.size(), "every prefilled record sent once");
        assertEquals(
                List.of(new CallbackDriver.Sent(null, false, 6)),
                sent.stream().distinct().toList());
        assertEquals(0, driver.sentAsync.size(), "none through OMB's sendAsync");
    }

    @Test
    void anOmbOnlyProducerIsPrefilledThroughSendAsync() throws Exception {
        SendLogDriver driver = new SendLogDriver();
        try (LocalWorker worker = new LocalWorker(driverClass -> driver)) {
            worker.initializeDriver("driverClass: " + SendLogDriver.class.getName() + "\n", OperationSpec.publish());
            worker.createProducers(worker.createTopics(1, 1));
            worker.prefill(40, new byte[6]);
        }
        assertEquals(40, driver.sends.size());
    }
}

package io.ombtx.runner.testdriver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.bookkeeper.stats.StatsLogger;

/**
 * {@link SpiOnlyKafkaDriver} (the real embedded broker) with a consumer application that is slower than the
 * producer: each message costs it {@code consumerDelayMicros} of processing, and after {@code consumerHangsAfter}
 * messages (when above 0) it hangs until the consumer is closed, as a consumer stuck on a downstream call would.
 */
public final class SlowConsumerKafkaDriver implements BenchmarkDriver {

    private final SpiOnlyKafkaDriver kafka = new SpiOnlyKafkaDriver();
    private long delayMicros;
    private long hangsAfter;

    @Override
    public void initialize(File configurationFile, StatsLogger statsLogger) throws IOException {
        JsonNode yaml = new ObjectMapper(new YAMLFactory()).readTree(configurationFile);
        delayMicros = yaml.path("consumerDelayMicros").asLong(0);
        hangsAfter = yaml.path("consumerHangsAfter").asLong(0);
        kafka.initialize(configurationFile, statsLogger);
    }

    @Override
    public String getTopicNamePrefix() {
        return "slow-consumer";
    }

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions) {
        return kafka.createTopic(topic, partitions);
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
        return kafka.createProducer(topic);
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscription, ConsumerCallback callback) {
        CountDownLatch closed = new CountDownLatch(1);
        AtomicLong seen = new AtomicLong();
        ConsumerCallback slow = new ConsumerCallback() {
            @Override
            public void messageReceived(byte[] payload, long publishTimestamp) {
                process();
                callback.messageReceived(payload, publishTimestamp);
            }

            @Override
            public void messageReceived(ByteBuffer payload, long publishTimestamp) {
                process();
                callback.messageReceived(payload, publishTimestamp);
            }

            private void process() {
                if (hangsAfter > 0 && seen.incrementAndGet() > hangsAfter) {
                    try {
                        closed.await(5, TimeUnit.MINUTES);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (delayMicros > 0) {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(delayMicros));
                }
            }
        };
        return kafka.createConsumer(topic, subscription, slow).thenApply(consumer -> () -> {
            closed.countDown();
            consumer.close();
        });
    }

    @Override
    public void close() throws Exception {
        kafka.close();
    }
}

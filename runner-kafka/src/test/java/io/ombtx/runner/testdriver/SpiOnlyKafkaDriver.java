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
import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.bookkeeper.stats.StatsLogger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A driver that implements nothing but the OMB SPI, as a third-party OMB driver would: the runner must run it
 * with OMB's plain publish workloads. It talks to the real (embedded) broker.
 */
public final class SpiOnlyKafkaDriver implements BenchmarkDriver {

    private Properties common;
    private Admin admin;

    @Override
    public void initialize(File configurationFile, StatsLogger statsLogger) throws IOException {
        JsonNode yaml = new ObjectMapper(new YAMLFactory()).readTree(configurationFile);
        common = new Properties();
        common.load(new StringReader(yaml.path("commonConfig").asText("")));
        admin = Admin.create(common);
    }

    @Override
    public String getTopicNamePrefix() {
        return "spi-only";
    }

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions) {
        return admin.createTopics(Set.of(new NewTopic(topic, partitions, (short) 1)))
                .all()
                .toCompletionStage()
                .toCompletableFuture();
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
        Properties props = new Properties();
        props.putAll(common);
        KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        return CompletableFuture.completedFuture(new BenchmarkProducer() {
            @Override
            public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload) {
                CompletableFuture<Void> acked = new CompletableFuture<>();
                producer.send(new ProducerRecord<>(topic, key.orElse(null), payload), (metadata, error) -> {
                    if (error != null) {
                        acked.completeExceptionally(error);
                    } else {
                        acked.complete(null);
                    }
                });
                return acked;
            }

            @Override
            public void close() {
                producer.close(Duration.ofSeconds(5));
            }
        });
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscription, ConsumerCallback callback) {
        Properties props = new Properties();
        props.putAll(common);
        props.setProperty("group.id", subscription);
        props.setProperty("auto.offset.reset", "earliest");
        KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
        Thread poller = new Thread(
                () -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                                callback.messageReceived(record.value(), record.timestamp());
                            }
                        }
                    } catch (org.apache.kafka.common.errors.InterruptException
                            | org.apache.kafka.common.errors.WakeupException done) {
                        // closing
                    } finally {
                        consumer.close(Duration.ofSeconds(5));
                    }
                },
                "spi-only-consumer");
        poller.setDaemon(true);
        poller.start();
        return CompletableFuture.completedFuture(() -> {
            consumer.wakeup();
            poller.join(10_000);
        });
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}

package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.bookkeeper.stats.NullStatsLogger;
import org.apache.bookkeeper.stats.StatsLogger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Driver YAMLs written for a test broker, and a read_committed reader to check what is visible. */
final class TestDrivers {

    private TestDrivers() {}

    /**
     * A driver YAML for the broker at {@code bootstrap}. Tests use retry.backoff.ms=0 so back-to-back transactions
     * do not wait out the default back-off (only to keep the suite short; it changes no behaviour under test).
     */
    static Path yaml(Path dir, String bootstrap, String transactionsBlock) {
        String text = String.join(
                "\n",
                "name: kafka-tx-test",
                "driverClass: " + KafkaTxBenchmarkDriver.class.getName(),
                "replicationFactor: 1",
                "commonConfig: |",
                "  bootstrap.servers=" + bootstrap,
                "producerConfig: |",
                "  acks=all",
                "  linger.ms=0",
                "  retry.backoff.ms=0",
                "consumerConfig: |",
                "  auto.offset.reset=earliest",
                "  enable.auto.commit=false",
                transactionsBlock == null ? "" : transactionsBlock,
                "");
        try {
            Path file = dir.resolve("driver-" + UUID.randomUUID() + ".yaml");
            Files.writeString(file, text);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static KafkaTxBenchmarkDriver driver(Path yaml) throws Exception {
        return driver(yaml, NullStatsLogger.INSTANCE);
    }

    static KafkaTxBenchmarkDriver driver(Path yaml, StatsLogger stats) throws Exception {
        KafkaTxBenchmarkDriver driver = new KafkaTxBenchmarkDriver();
        driver.initialize(yaml.toFile(), stats);
        return driver;
    }

    /** Every phase but the whole ({@code TRANSACTION}), summed. */
    static long sumOfPhases(OperationTimings timings) {
        return timings.phaseNanos().entrySet().stream()
                .filter(e -> e.getKey() != Phase.TRANSACTION)
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    static String topic(String name) {
        return name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Every record of {@code topic} visible to a read_committed consumer, read until nothing more arrives. */
    static List<ConsumerRecord<String, byte[]>> readCommitted(String bootstrap, String topic, int expectedAtLeast) {
        return read(bootstrap, topic, expectedAtLeast, "read_committed");
    }

    /**
     * Waits until {@code expected} records of {@code topic} are in the broker's log, committed or not (a
     * read_uncommitted consumer sees a transaction's records as soon as they are written), and returns them: a test
     * that checks something is not done yet waits for this instead of sleeping.
     */
    static List<ConsumerRecord<String, byte[]>> awaitWritten(String bootstrap, String topic, int expected) {
        return read(bootstrap, topic, expected, "read_uncommitted");
    }

    private static List<ConsumerRecord<String, byte[]>> read(
            String bootstrap, String topic, int expectedAtLeast, String isolationLevel) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            int emptyPolls = 0;
            // Keep reading a little after the expected count, so a duplicate would be seen too.
            while (System.nanoTime() < deadline && (records.size() < expectedAtLeast || emptyPolls < 3)) {
                var batch = consumer.poll(Duration.ofMillis(200));
                batch.forEach(records::add);
                emptyPolls = batch.isEmpty() ? emptyPolls + 1 : 0;
            }
        }
        return records;
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.junit.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The committed offsets the live check judges on, on a real broker: after a read that gave up with its request in
 * flight, kafka-clients answers the next read with that old request's answer, from before a transaction whose output
 * the reader has since seen, so a check trusting it would call a committed output uncommitted.
 * {@link CommittedOffsetsReader} drops that answer, and its next read is current.
 */
@Tag("integration")
class CommittedOffsetsReaderTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final EmbeddedKafkaExtension kafka = new EmbeddedKafkaExtension();

    @Test
    void anAnswerToARequestFromBeforeTheOutputWasSeenIsDropped() throws Exception {
        String source = "committed-reader-source";
        String target = "committed-reader-target";
        String group = "committed-reader-group";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(source, 1, (short) 1), new NewTopic(target, 1, (short) 1)))
                    .all()
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        TopicPartition sourcePartition = new TopicPartition(source, 0);
        TopicPartition targetPartition = new TopicPartition(target, 0);
        Set<TopicPartition> sources = Set.of(sourcePartition);
        try (KafkaConsumer<byte[], byte[]> plain = checkerConsumer(group);
                KafkaConsumer<byte[], byte[]> guarded = checkerConsumer(group);
                KafkaProducer<byte[], byte[]> producer = transactionalProducer()) {
            CommittedOffsetsReader reader = new CommittedOffsetsReader(guarded);
            for (KafkaConsumer<byte[], byte[]> consumer : List.of(plain, guarded)) {
                // As the live check: its positions from the beginning, not from the group's offsets (a read of those
                // for other partitions would replace the request in flight).
                consumer.assign(List.of(targetPartition));
                consumer.seekToBeginning(List.of(targetPartition));
            }
            // Both find the group's coordinator: nothing committed yet.
            assertNull(plain.committed(sources, WAIT).get(sourcePartition));
            assertEquals(Map.of(), reader.read(sources, WAIT));

            // A read that gives up at once, its request sent; the answer (nothing committed) arrives while polling.
            assertThrows(TimeoutException.class, () -> plain.committed(sources, Duration.ZERO));
            assertNull(reader.read(sources, Duration.ZERO));
            plain.poll(Duration.ofMillis(500));
            guarded.poll(Duration.ofMillis(500));

            // A transaction: one output and the source offset after it, committed together.
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(target, 0, "0:0".getBytes(), new byte[1]));
            producer.sendOffsetsToTransaction(
                    Map.of(sourcePartition, new OffsetAndMetadata(1)), new ConsumerGroupMetadata(group));
            producer.commitTransaction();
            awaitOneRecord(plain);
            awaitOneRecord(guarded);

            // kafka-clients hands the next read the old answer: the output is visible, its offset "not committed".
            assertNull(
                    plain.committed(sources, WAIT).get(sourcePartition),
                    "kafka-clients no longer reuses a given-up committed-offsets request; CommittedOffsetsReader's"
                            + " guard may be unneeded on this release");
            // The reader drops it, and its next read sends a request of its own.
            assertNull(reader.read(sources, WAIT));
            assertEquals(Map.of(0, 1L), reader.read(sources, WAIT));
            assertEquals(1L, plain.committed(sources, WAIT).get(sourcePartition).offset());
        }
    }

    private static void awaitOneRecord(KafkaConsumer<byte[], byte[]> consumer) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int seen = 0;
        while (seen == 0 && System.nanoTime() < deadline) {
            seen = consumer.poll(Duration.ofMillis(200)).count();
        }
        assertTrue(seen == 1, "the committed output was read: " + seen);
    }

    /** As the live check's: in the processors' group only to read its offsets, read_committed, never committing. */
    private static KafkaConsumer<byte[], byte[]> checkerConsumer(String group) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return new KafkaConsumer<>(props);
    }

    private static KafkaProducer<byte[], byte[]> transactionalProducer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "committed-reader-tx");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaProducer<>(props);
    }
}

package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.config.Fault;
import io.ombtx.runner.config.FaultAction;
import io.ombtx.runner.config.FaultTarget;
import io.ombtx.runner.fault.FaultCluster.Resolved;
import io.ombtx.runner.fault.FaultCluster.RunNames;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The transaction coordinator of a run on Kafka 2.8, which answers no ListTransactions (KIP-664, Kafka 3.0): found in
 * the transaction log, and it is the broker Kafka's own rule names, the leader of the log partition the transactional
 * id hashes to. Three brokers, so the answer is not the only broker there is.
 */
@Tag("integration")
class TransactionLogTest {

    private static final String RUN = "q7runid";
    private static final String GROUP = "sub-000-" + RUN;
    private static final String TOPIC = "omb-tx-" + RUN + "-0";
    private static final String STREAM_ID = "omb-tx-0a1b2c3d-stream-" + GROUP + "-0";
    private static final String SECOND_STREAM_ID = "omb-tx-0a1b2c3d-stream-" + GROUP + "-1";
    private static final String WRITER_ID = "omb-tx-0a1b2c3d-0";
    private static final String OTHER_RUN_ID = "omb-tx-99999999-stream-sub-000-otherrun-0";

    @Test
    void aKafka28RunsCoordinatorIsFoundInTheTransactionLog() throws Exception {
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                        .version("2.8.2")
                        .brokers(3)
                        .start();
                Admin admin = Admin.create(settings(cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 3), new NewTopic(TOPIC + "-out", 3, (short) 3)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
            commitOne(cluster.bootstrapServers(), SECOND_STREAM_ID, TOPIC + "-out");
            commitOne(cluster.bootstrapServers(), STREAM_ID, TOPIC + "-out");
            commitOne(cluster.bootstrapServers(), OTHER_RUN_ID, TOPIC + "-out");
            commitOne(cluster.bootstrapServers(), WRITER_ID, TOPIC);

            // The broker says it does not know the request: the reason for reading the log.
            ExecutionException unsupported = assertThrows(
                    ExecutionException.class,
                    () -> admin.describeTransactions(List.of(STREAM_ID)).all().get(30, TimeUnit.SECONDS));
            assertTrue(unsupported.getCause() instanceof UnsupportedVersionException, unsupported.toString());

            Properties settings = settings(cluster.bootstrapServers());
            RunNames streaming = new RunNames(List.of(TOPIC), List.of(GROUP), true);
            Map<String, Integer> streamIds = TransactionLog.runIds(settings, streaming);
            assertEquals(List.of(STREAM_ID, SECOND_STREAM_ID), List.copyOf(streamIds.keySet()), streamIds.toString());
            int logPartitions =
                    partitions(admin, TransactionLog.TOPIC).partitions().size();
            assertEquals(kafkaPartitionFor(STREAM_ID, logPartitions), streamIds.get(STREAM_ID));

            FaultTargets targets = new FaultTargets(admin, settings, streaming);
            Resolved coordinator = targets.resolve(coordinatorFault(), targets.brokers());
            int expected = leaderOf(admin, kafkaPartitionFor(STREAM_ID, logPartitions));
            assertEquals(expected, coordinator.nodeId(), coordinator.via());
            assertTrue(coordinator.via().contains(STREAM_ID), coordinator.via());

            // A run of plain transactional writes: its ids are those whose transactions held its first topic.
            RunNames writes = new RunNames(List.of(TOPIC), List.of(), false);
            Map<String, Integer> writerIds = TransactionLog.runIds(settings, writes);
            assertEquals(List.of(WRITER_ID), List.copyOf(writerIds.keySet()), writerIds.toString());
            Resolved writer = new FaultTargets(admin, settings, writes).resolve(coordinatorFault(), targets.brokers());
            assertEquals(leaderOf(admin, kafkaPartitionFor(WRITER_ID, logPartitions)), writer.nodeId(), writer.via());
        }
    }

    @Test
    void recordsInAnotherFormatArePassedOver() {
        assertNull(TransactionLog.transactionalId(null));
        assertNull(TransactionLog.transactionalId(new byte[] {0, 1, 0, 9, 'a'})); // key version 1
        assertNull(TransactionLog.transactionalId(new byte[] {0, 0, 0, 9, 'a'})); // shorter than its length
        assertEquals("a", TransactionLog.transactionalId(new byte[] {0, 0, 0, 1, 'a'}));
        assertFalse(TransactionLog.holds(null, TOPIC)); // a tombstone: the id expired
        assertFalse(TransactionLog.holds(new byte[] {0, 1, 0}, TOPIC)); // value version 1 (Kafka 3.5's)
        assertFalse(TransactionLog.holds(new byte[] {0, 0, 0, 0}, TOPIC)); // cut short
    }

    private static Fault coordinatorFault() {
        return new Fault(
                0,
                FaultAction.KILL,
                FaultTarget.TRANSACTION_COORDINATOR,
                null,
                null,
                Duration.ofSeconds(1),
                null,
                null,
                null);
    }

    /** Kafka's own rule for a transactional id's log partition: its hash, made non-negative, modulo the count. */
    private static int kafkaPartitionFor(String transactionalId, int partitions) {
        int hash = transactionalId.hashCode();
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % partitions;
    }

    private static int leaderOf(Admin admin, int partition) throws Exception {
        return partitions(admin, TransactionLog.TOPIC)
                .partitions()
                .get(partition)
                .leader()
                .id();
    }

    private static TopicDescription partitions(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(topic);
    }

    private static void commitOne(String bootstrap, String transactionalId, String topic) {
        Properties props = settings(bootstrap);
        props.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {1}));
            producer.commitTransaction();
        }
    }

    private static Properties settings(String bootstrap) {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return props;
    }
}

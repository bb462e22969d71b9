package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.cluster.CoordinatorLog;
import io.ombtx.runner.result.RunResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The transaction coordinators' load read from Kafka's transaction log: transactions committed and aborted by two
 * transactional ids between two marks are counted exactly, in the log partitions Kafka's own rule hashes the ids to,
 * led by the one broker. Both transaction versions, as their log values differ (version 0 under transaction version
 * 1, the flexible version 1 under 2).
 */
class TransactionCoordinatorsTest {

    private static final String TOPIC = "coordinators-load";
    private static final List<String> IDS = List.of("omb-tx-coordinators-a", "omb-tx-coordinators-b");

    @Tag("integration")
    @ParameterizedTest(name = "transaction version {0}")
    @ValueSource(ints = {1, 2})
    void theTransactionsEndedBetweenTwoMarksAreCountedByLogPartitionAndBroker(int transactionVersion) throws Exception {
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                        .version("4.1.1")
                        .transactionVersion(transactionVersion)
                        .brokers(1)
                        .start();
                Admin admin = Admin.create(settings(cluster.bootstrapServers()));
                CoordinatorLog log = new TransactionCoordinators(settings(cluster.bootstrapServers()))) {
            // No transaction yet: the cluster has no log, which ends at 0 everywhere.
            assertEquals(Map.of(), log.mark().endOffsets());
            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get(60, TimeUnit.SECONDS);
            Properties a = transactional(cluster.bootstrapServers(), IDS.get(0));
            Properties b = transactional(cluster.bootstrapServers(), IDS.get(1));
            try (KafkaProducer<byte[], byte[]> first = new KafkaProducer<>(a);
                    KafkaProducer<byte[], byte[]> second = new KafkaProducer<>(b)) {
                first.initTransactions();
                second.initTransactions();
                transactions(first, 1, true); // before the first mark: not read
                CoordinatorLog.Mark from = log.mark();
                transactions(first, 1, true); // after the mark, before the window: read, not counted
                Thread.sleep(5); // the log's time stamps are in milliseconds
                Instant since = Instant.now();
                RunResult.Coordinators none = log.between(from, from, since, Instant.now());
                assertEquals(0, none.committed() + none.aborted());
                assertEquals(0, none.busiestShare());

                transactions(first, 7, true);
                transactions(second, 4, true);
                transactions(second, 3, false);
                Instant until = Instant.now();
                Thread.sleep(5);
                // Ended after the window: in the log between the marks, not counted.
                transactions(first, 2, true);
                // A commit or abort returns once the coordinator has written that it ends: nothing to wait for.
                CoordinatorLog.Mark to = log.mark();

                RunResult.Coordinators load = log.between(from, to, since, until);
                int partitions = load.partitions();
                assertEquals(
                        admin.describeTopics(List.of(TransactionLog.TOPIC))
                                .allTopicNames()
                                .get(30, TimeUnit.SECONDS)
                                .get(TransactionLog.TOPIC)
                                .partitions()
                                .size(),
                        partitions);
                assertEquals("__transaction_state", load.log());
                assertEquals(11, load.committed(), load.toString());
                assertEquals(3, load.aborted(), load.toString());
                assertEquals(2, load.transactionalIds(), load.toString());
                Set<Integer> expected = IDS.stream()
                        .map(id -> kafkaPartitionFor(id, partitions))
                        .collect(Collectors.toCollection(TreeSet::new));
                assertEquals(
                        expected,
                        load.byPartition().stream()
                                .map(RunResult.Coordinators.PartitionLoad::partition)
                                .collect(Collectors.toCollection(TreeSet::new)));
                assertEquals(expected.size(), load.partitionsUsed());
                int broker = admin.describeCluster()
                        .nodes()
                        .get(30, TimeUnit.SECONDS)
                        .iterator()
                        .next()
                        .id();
                assertTrue(load.byPartition().stream().allMatch(p -> p.leader() == broker), load.toString());
                assertEquals(
                        List.of(new RunResult.Coordinators.BrokerLoad(broker, partitions, 11, 3)), load.byBroker());
                // a: 7 commits, b: 4 commits and 3 aborts; both in one partition when their hashes meet there.
                assertEquals(expected.size() == 1 ? 1.0 : 7.0 / 14, load.busiestShare(), 1e-9);
            }
        }
    }

    @Test
    void aLogValuesStatusIsReadInBothFormatsAndNothingElse() {
        byte[] v0 = value(0, 2);
        byte[] v1 = value(1, 3);
        assertEquals(TransactionLog.PREPARE_COMMIT, TransactionLog.status(v0));
        assertEquals(TransactionLog.PREPARE_ABORT, TransactionLog.status(v1));
        assertEquals(-1, TransactionLog.status(value(2, 4))); // a version this reader does not know
        assertEquals(-1, TransactionLog.status(null)); // a tombstone: the id expired
        assertEquals(-1, TransactionLog.status(new byte[] {0, 0, 1})); // cut short
    }

    @Test
    void aStatesTimeIsReadPastTheTransactionsPartitionsInBothFormats() {
        java.nio.ByteBuffer v0 = java.nio.ByteBuffer.allocate(64);
        v0.putShort((short) 0).putLong(1000L).putShort((short) 3).putInt(60_000).put((byte) 4);
        v0.putInt(1).putShort((short) 1).put((byte) 't').putInt(2).putInt(0).putInt(1); // topic "t": [0, 1]
        v0.putLong(1_700_000_000_111L).putLong(1_700_000_000_099L);
        assertEquals(1_700_000_000_111L, TransactionLog.updateMillis(v0.array()));

        java.nio.ByteBuffer v1 = java.nio.ByteBuffer.allocate(64);
        v1.putShort((short) 1).putLong(1000L).putShort((short) 3).putInt(60_000).put((byte) 5);
        v1.put((byte) 2)
                .put((byte) 2)
                .put((byte) 't')
                .put((byte) 3)
                .putInt(0)
                .putInt(1)
                .put((byte) 0);
        v1.putLong(1_700_000_000_111L).putLong(1_700_000_000_099L);
        v1.put((byte) 1).put((byte) 0).put((byte) 8).putLong(999L); // a tagged field: PreviousProducerId
        assertEquals(1_700_000_000_111L, TransactionLog.updateMillis(v1.array()));

        java.nio.ByteBuffer empty = java.nio.ByteBuffer.allocate(40); // no partitions: a null compact array
        empty.putShort((short) 1)
                .putLong(1000L)
                .putShort((short) 3)
                .putInt(60_000)
                .put((byte) 4);
        empty.put((byte) 0).putLong(5L).putLong(7L).put((byte) 0);
        assertEquals(5L, TransactionLog.updateMillis(empty.array()));
        assertEquals(-1, TransactionLog.updateMillis(java.util.Arrays.copyOf(v0.array(), 30))); // cut short
        assertEquals(-1, TransactionLog.updateMillis(value(2, 4)));
    }

    @Test
    void theBusiestPartitionsShareAndEveryLeadingBrokerAreTallied() {
        TransactionCoordinators.Ended three = new TransactionCoordinators.Ended();
        three.committed = 2;
        three.aborted = 1;
        three.ids.add("x");
        TransactionCoordinators.Ended one = new TransactionCoordinators.Ended();
        one.committed = 1;
        one.ids.add("y");
        RunResult.Coordinators c = TransactionCoordinators.tally(3, Map.of(0, 1, 1, 2, 2, 2), Map.of(2, three, 0, one));
        assertEquals(3, c.committed());
        assertEquals(1, c.aborted());
        assertEquals(2, c.transactionalIds());
        assertEquals(2, c.partitionsUsed());
        assertEquals(0.75, c.busiestShare(), 1e-9);
        assertEquals(
                List.of(
                        new RunResult.Coordinators.PartitionLoad(0, 1, 1, 0, 1),
                        new RunResult.Coordinators.PartitionLoad(2, 2, 2, 1, 1)),
                c.byPartition());
        assertEquals(
                List.of(
                        new RunResult.Coordinators.BrokerLoad(1, 1, 1, 0),
                        new RunResult.Coordinators.BrokerLoad(2, 2, 2, 1)),
                c.byBroker());
        assertEquals(0, TransactionCoordinators.tally(3, Map.of(0, 1), Map.of()).busiestShare());
    }

    /** A log value of {@code version} with {@code status}, laid out as Kafka writes it up to the status. */
    private static byte[] value(int version, int status) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(40);
        b.putShort((short) version)
                .putLong(1000L)
                .putShort((short) 0)
                .putInt(60_000)
                .put((byte) status);
        return b.array();
    }

    private static void transactions(KafkaProducer<byte[], byte[]> producer, int count, boolean commit) {
        for (int i = 0; i < count; i++) {
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(TOPIC, i % 2, null, new byte[] {1}));
            // Sent before it ends: a transaction version 1 client aborts a transaction whose partitions it never
            // added without telling the coordinator, and nothing of it reaches the log.
            producer.flush();
            if (commit) {
                producer.commitTransaction();
            } else {
                producer.abortTransaction();
            }
        }
    }

    /** Kafka's own rule for a transactional id's log partition: its hash, made non-negative, modulo the count. */
    private static int kafkaPartitionFor(String transactionalId, int partitions) {
        int hash = transactionalId.hashCode();
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % partitions;
    }

    private static Properties transactional(String bootstrap, String id) {
        Properties props = settings(bootstrap);
        props.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return props;
    }

    private static Properties settings(String bootstrap) {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return props;
    }
}

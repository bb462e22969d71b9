package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each kind of release the embedded broker runs: 2.8.2 with ZooKeeper (the seeds'), 3.9.1 (KRaft, before KIP-890's
 * transaction versions), 4.1.1 formatted with transaction.version 1 and 2, and the releases that changed the
 * transaction path since the seeds (3.3.2, 3.6.2, 3.7.2, 4.0.2). Each starts one broker, commits one
 * transaction with this build's 4.1 client and reads it back read_committed; the version and the transaction
 * protocol are read back from the broker, not taken from what was asked for. Releases other than the built-in one
 * are fetched from Maven Central on the first run (cached afterwards, see BrokerLibrary).
 */
@Tag("integration")
class KafkaVersionsTest {

    @Test
    void kafka282RunsWithItsOwnZooKeeperAndThePreKip890Protocol() throws Exception {
        try (EmbeddedKafkaCluster cluster =
                EmbeddedKafkaCluster.builder().version("2.8.2").start()) {
            assertTrue(cluster.zooKeeper());
            assertEquals(1, cluster.pids().size());
            long zooKeeper = cluster.zooKeeperPid().orElseThrow();
            assertTrue(ProcessHandle.of(zooKeeper).map(ProcessHandle::isAlive).orElse(false), "ZooKeeper runs");
            assertFalse(
                    cluster.settings().containsKey("group.coordinator.append.linger.ms"),
                    "a setting 2.8 does not define is not set: " + cluster.settings());
            assertRunsTransactions(cluster, "2.8.2", 0, false);
        }
    }

    @Test
    void kafka391RunsInKRaftModeWithoutATransactionVersion() throws Exception {
        try (EmbeddedKafkaCluster cluster =
                EmbeddedKafkaCluster.builder().version("3.9.1").start()) {
            assertFalse(cluster.zooKeeper());
            assertEquals(1, cluster.pids().size());
            assertRunsTransactions(cluster, "3.9.1", 0, null);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EmbeddedKafkaCluster.builder()
                .version("3.9.1")
                .transactionVersion(2)
                .start());
        assertTrue(e.getMessage().contains("Kafka 3.9.1 has no transaction.version feature"), e.getMessage());
    }

    @Test
    void kafka411FormattedWithTransactionVersion1() throws Exception {
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                .version("4.1.1")
                .transactionVersion(1)
                .start()) {
            assertEquals(1, cluster.requestedTransactionVersion());
            assertRunsTransactions(cluster, "4.1.1", 1, true);
        }
    }

    @Test
    void kafka411FormattedWithTransactionVersion2() throws Exception {
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                .version("4.1.1")
                .transactionVersion(2)
                .start()) {
            assertRunsTransactions(cluster, "4.1.1", 2, true);
        }
    }

    /**
     * The releases that mark a change to the transaction path since the seeds (suites/kafka-evolution.yaml): each
     * starts in KRaft mode, runs a transaction with this build's client, and reports partition verification (KIP-890
     * part 1, 3.6 on) through Admin describeConfigs as its own definitions have it. Tagged slow (bin/test slow): the
     * seeds' 2.8.2, 3.9.1 and 4.1.1 above always run.
     */
    @Tag("slow")
    @ParameterizedTest
    @CsvSource({"3.3.2, 0, ", "3.6.2, 0, true", "3.7.2, 0, true", "4.0.2, 2, true"})
    void eachReleaseSinceTheSeedsStartsInKRaftMode(String version, int transactionVersion, String verification)
            throws Exception {
        try (EmbeddedKafkaCluster cluster =
                EmbeddedKafkaCluster.builder().version(version).start()) {
            assertFalse(cluster.zooKeeper());
            assertRunsTransactions(cluster, version, transactionVersion, transactionVersion > 0);
            try (Admin admin = Admin.create(props(cluster, AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG))) {
                String broker = admin.describeCluster()
                        .nodes()
                        .get(30, TimeUnit.SECONDS)
                        .iterator()
                        .next()
                        .idString();
                ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, broker);
                ConfigEntry entry = admin.describeConfigs(Set.of(resource))
                        .all()
                        .get(30, TimeUnit.SECONDS)
                        .get(resource)
                        .get("transaction.partition.verification.enable");
                assertEquals(verification, entry == null ? null : entry.value(), version);
            }
        }
    }

    @Test
    void eachReleaseChecksSettingsByItsOwnDefinitions() throws Exception {
        BrokerConfigDefinitions kafka28 =
                BrokerConfigDefinitions.find(KafkaVersion.parse("2.8.2")).orElseThrow();
        assertEquals("2.8.2", kafka28.kafkaVersion());
        assertTrue(kafka28.knows("zookeeper.connect"));
        assertFalse(kafka28.knows("group.coordinator.append.linger.ms"));
        assertTrue(kafka28.problem("transaction.state.log.min.isr", "zero").isPresent());
        BrokerConfigDefinitions kafka41 =
                BrokerConfigDefinitions.find(KafkaVersion.parse("4.1.1")).orElseThrow();
        assertTrue(kafka41.knows("group.coordinator.append.linger.ms"));
        assertFalse(kafka41.knows("zookeeper.connect"), "Kafka 4 has no ZooKeeper");
    }

    /**
     * The broker reports {@code version} and the {@code transactionVersion} (finalized as reported when
     * {@code finalized} is not null); one transaction of three records commits and is read back read_committed.
     */
    private static void assertRunsTransactions(
            EmbeddedKafkaCluster cluster, String version, int transactionVersion, Boolean finalized) throws Exception {
        assertEquals(version, cluster.runningVersion(), "the version the running broker reports");
        TransactionProtocol protocol = cluster.transactionProtocol();
        assertEquals(transactionVersion, protocol.transactionVersion(), protocol.toString());
        if (finalized != null) {
            assertEquals(finalized, protocol.finalized(), protocol.toString());
        }
        String topic = "tx-" + version.replace('.', '-');
        try (Admin admin = Admin.create(props(cluster, AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG))) {
            admin.createTopics(Set.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Properties p = props(cluster, ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
        p.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "versions-test");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(topic, ("m" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.commitTransaction();
        }
        Properties c = props(cluster, ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        c.setProperty(ConsumerConfig.GROUP_ID_CONFIG, "versions-test");
        c.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (read.size() < 3 && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    read.add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
        }
        assertEquals(List.of("m0", "m1", "m2"), read);
    }

    private static Properties props(EmbeddedKafkaCluster cluster, String bootstrapKey) {
        Properties props = new Properties();
        props.setProperty(bootstrapKey, cluster.bootstrapServers());
        return props;
    }
}

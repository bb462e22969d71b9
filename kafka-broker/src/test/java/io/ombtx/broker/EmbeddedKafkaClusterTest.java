package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
class EmbeddedKafkaClusterTest {

    @Test
    void singleBrokerStartsServesAdminRequestsAndStopsWithItsChildProcess() throws Exception {
        List<Long> pids;
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                .override("group.coordinator.append.linger.ms", "1")
                .start()) {
            pids = cluster.pids();
            assertEquals(1, pids.size());
            try (Admin admin = admin(cluster)) {
                assertEquals(
                        1,
                        admin.describeCluster()
                                .nodes()
                                .get(10, TimeUnit.SECONDS)
                                .size());
                admin.createTopics(Set.of(new NewTopic("t1", 2, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
                assertEquals(2, describeWhenVisible(admin, "t1").partitions().size());
                ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
                var config = admin.describeConfigs(Set.of(broker))
                        .all()
                        .get(10, TimeUnit.SECONDS)
                        .get(broker);
                assertEquals(
                        "1",
                        config.get("group.coordinator.append.linger.ms").value(),
                        "a per-run override reaches the real broker");
            }
            assertEquals("1", cluster.settings().get("group.coordinator.append.linger.ms"));
        }
        for (long pid : pids) {
            assertFalse(
                    ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    "broker process " + pid + " stopped");
        }
    }

    @Test
    void serverPropertiesAreOwnerOnlyWhileRunningAndDeletedOnStop(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("broker-1").resolve("server.properties");
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                .workDir(dir)
                .override("ssl.keystore.password", "hunter2")
                .start()) {
            assertTrue(Files.readString(config).contains("hunter2"), "the broker reads its settings from it");
            assertEquals(
                    PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(config), "owner only");
        }
        assertFalse(Files.exists(config), "deleted on stop, even in a kept folder");
        assertTrue(Files.exists(dir.resolve("broker-1").resolve("server.log")), "the kept folder keeps its logs");
    }

    @Test
    void threeBrokersFormOneClusterThatAcceptsReplicationFactorThree(@TempDir Path kept) throws Exception {
        Path logs = kept.resolve("run.broker-logs");
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                        .brokers(3)
                        .profile(BrokerProfile.MAX_CONSISTENCY)
                        .start();
                Admin admin = admin(cluster)) {
            assertEquals(
                    3, admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size());
            admin.createTopics(Set.of(new NewTopic("rf3", 2, (short) 3).configs(Map.of("min.insync.replicas", "2"))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            var partitions = describeWhenVisible(admin, "rf3").partitions();
            assertTrue(partitions.stream().allMatch(p -> p.replicas().size() == 3));
            assertEquals("1", cluster.settings().get("log.flush.interval.messages"));
            assertEquals("3", cluster.settings().get("transaction.state.log.replication.factor"));
            // A run that is no success keeps its brokers' logs past the cluster's close (which deletes the folder).
            List<Path> copied = cluster.copyLogs(logs);
            assertEquals(
                    List.of("broker-1.log", "broker-2.log", "broker-3.log"),
                    copied.stream().map(p -> p.getFileName().toString()).toList());
        }
        for (int node = 1; node <= 3; node++) {
            String log = Files.readString(logs.resolve("broker-" + node + ".log"));
            // The settings each broker logs as it starts, before it serves: its own log, not another's.
            assertTrue(log.contains("node.id = " + node), "broker " + node + "'s own log");
        }
    }

    @Test
    void brokerVersionIsReadFromTheJars() {
        assertTrue(EmbeddedKafkaCluster.brokerVersion().startsWith("4.1."), EmbeddedKafkaCluster.brokerVersion());
    }

    /**
     * A broker that has not yet applied a creation the controller committed answers UnknownTopicOrPartition: with
     * three brokers the admin client may ask one that lags, and a single combined node's broker side applies the
     * controller's record after CreateTopics has answered. The topic exists, so that answer means "not yet".
     */
    private static org.apache.kafka.clients.admin.TopicDescription describeWhenVisible(Admin admin, String topic)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return admin.describeTopics(Set.of(topic))
                        .allTopicNames()
                        .get(30, TimeUnit.SECONDS)
                        .get(topic);
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                        || System.nanoTime() > deadline) {
                    throw e;
                }
            }
            Thread.sleep(20);
        }
    }

    private static Admin admin(EmbeddedKafkaCluster cluster) {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        return Admin.create(props);
    }

    @Test
    void clusterIdsNeverLookLikeCommandLineOptions() {
        for (int i = 0; i < 10_000; i++) {
            String id = BrokerStorage.randomClusterId();
            assertFalse(id.startsWith("-"), id);
            assertEquals(22, id.length(), id);
        }
    }
}

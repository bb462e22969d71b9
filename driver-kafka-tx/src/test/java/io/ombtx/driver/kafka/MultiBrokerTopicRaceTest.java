package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.junit.EmbeddedKafka;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-broker race of issue 14: on three brokers, a topic created by the driver was visible to one broker and
 * not yet to another, and the next admin step (describing it for a producer) asked the other and failed with
 * UnknownTopicOrPartition. Once {@code createTopic} returns, every broker must know every partition — checked by
 * requests addressed to each broker — and the driver's next steps must work at once. Repeated ten times, on a
 * cluster shared by the repetitions, with topics created in parallel as a STREAM run does.
 */
@EmbeddedKafka(brokers = 3)
class MultiBrokerTopicRaceTest {

    @TempDir
    static Path dir;

    static KafkaTxBenchmarkDriver driver;
    static Admin admin;

    @BeforeAll
    static void connect(EmbeddedKafkaCluster cluster) throws Exception {
        Path yaml = dir.resolve("rf3.yaml");
        Files.writeString(
                yaml,
                String.join(
                        "\n",
                        "name: kafka-tx-rf3",
                        "driverClass: " + KafkaTxBenchmarkDriver.class.getName(),
                        "replicationFactor: 3",
                        "topicConfig: |",
                        "  min.insync.replicas=2",
                        "commonConfig: |",
                        "  bootstrap.servers=" + cluster.bootstrapServers(),
                        "producerConfig: |",
                        "  acks=all",
                        "  linger.ms=0",
                        "  retry.backoff.ms=0",
                        ""));
        driver = TestDrivers.driver(yaml);
        driver.configureOperation(new OperationSpec(OperationKind.WRITE, true, 2, 2, false, true));
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        admin = Admin.create(props);
    }

    @AfterAll
    static void close() throws Exception {
        if (driver != null) {
            driver.close();
        }
        if (admin != null) {
            admin.close();
        }
    }

    @RepeatedTest(10)
    void onceCreatedEveryBrokerKnowsTheTopicAndTheNextStepsWork() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<String> topics = List.of("race-" + run + "-0", "race-" + run + "-0-out", "race-" + run + "-1");
        List<CompletableFuture<Void>> created = new ArrayList<>();
        for (String topic : topics) {
            created.add(driver.createTopic(topic, 2));
        }
        CompletableFuture.allOf(created.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);

        // Straight away, each broker on its own: with replication factor 3 on 3 brokers, each holds every partition.
        List<Integer> brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream()
                .map(Node::id)
                .toList();
        assertEquals(3, brokers.size());
        for (int broker : brokers) {
            Map<String, LogDirDescription> dirs = admin.describeLogDirs(Set.of(broker))
                    .allDescriptions()
                    .get(30, TimeUnit.SECONDS)
                    .get(broker);
            for (String topic : topics) {
                for (int partition = 0; partition < 2; partition++) {
                    TopicPartition tp = new TopicPartition(topic, partition);
                    assertTrue(
                            dirs.values().stream()
                                    .anyMatch(d -> d.replicaInfos().containsKey(tp)),
                            "broker " + broker + " holds no replica of " + tp + " yet, though createTopic returned");
                }
            }
        }

        // The driver's next admin steps, at once: describing each topic for a (transactional) producer, and a write.
        List<BenchmarkProducer> producers = new ArrayList<>();
        try {
            for (String topic : topics) {
                producers.add(driver.createProducer(topic).get(120, TimeUnit.SECONDS));
            }
            OperationTimings timings = ((KafkaTxProducer) producers.get(0))
                    .runOperation(Optional.empty(), new byte[] {1, 2, 3})
                    .get(120, TimeUnit.SECONDS);
            assertEquals(OperationTimings.Outcome.COMMITTED, timings.outcome());
        } finally {
            for (BenchmarkProducer producer : producers) {
                producer.close();
            }
        }
    }
}

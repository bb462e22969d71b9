package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.tansu.EmbeddedTansu;
import io.ombtx.runner.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workload that needs what a real broker lacks is refused once the broker has answered the capability probe and
 * before any load: exit 2, one line naming the file, the key and the API, no stack trace, no result. The brokers are
 * external to the run (the driver names them), where the planner cannot know their release: Kafka 2.8.2 (no
 * ConsumerGroupHeartbeat, EndTxn up to v3) and Tansu 0.6.0 (no ConsumerGroupHeartbeat).
 */
@Tag("integration")
class CapabilityRefusalIntegrationTest {

    private static EmbeddedKafkaCluster kafka282;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        kafka282 = EmbeddedKafkaCluster.builder().version("2.8.2").start();
    }

    @AfterAll
    static void stop() {
        if (kafka282 != null) {
            kafka282.close();
        }
    }

    /** What a run of {@code workload} on the cluster at {@code servers} exits with, printed and wrote. */
    private record Refused(int code, String out, String err, long results) {}

    private Refused run(String servers, String workload) throws Exception {
        Path driver = Files.writeString(
                dir.resolve("external.yaml"),
                "name: spi-only\n"
                        + "driverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n"
                        + "commonConfig: |\n  bootstrap.servers=" + servers + "\n");
        Path file = Files.writeString(dir.resolve("needs.yaml"), workload);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path results = dir.resolve("results");
        int code = Main.run(
                new String[] {"-d", driver.toString(), "-o", results.toString(), file.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        long written;
        try (var files = Files.list(results)) {
            written = files.count();
        }
        return new Refused(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), written);
    }

    /**
     * A run of {@code workload} on the cluster at {@code servers}, refused with exit 2 and one line, {@code key} of the
     * workload's file and {@code problem}, no stack trace, before the topics, with no result.
     */
    private Refused refused(String servers, String workload, String key, String problem) throws Exception {
        Refused r = run(servers, workload);
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(
                "error: " + dir.resolve("needs.yaml") + ": key '" + key + "': " + problem + "\n",
                r.err(),
                "one line, no stack trace");
        assertEquals(0, r.results(), "no result for a run that never started");
        assertFalse(r.out().contains("Created 1 topic"), "refused before the topics: " + r.out());
        return r;
    }

    /** A run with consumers on the consumer group protocol, on the cluster at {@code servers} of {@code system}. */
    private Refused consumerGroupProtocol(String servers, String system) throws Exception {
        return refused(
                servers,
                "name: kip848\ngroupProtocol: consumer\nsubscriptionsPerTopic: 1\nmessageSize: 10\n"
                        + "producerRate: 100\ntestDurationSeconds: 5\n",
                "groupProtocol",
                "group.protocol=consumer needs ConsumerGroupHeartbeat (KIP-848: the consumer group protocol), and the"
                        + " cluster at " + servers + " (" + system + ") does not serve ConsumerGroupHeartbeat at all"
                        + " (ApiVersions, probed before the load): use group.protocol=classic, or a broker that serves"
                        + " it (Kafka 4.0 and later)");
    }

    @Test
    void theConsumerGroupProtocolOnKafka282IsRefusedNamingConsumerGroupHeartbeat() throws Exception {
        Refused r = consumerGroupProtocol(kafka282.bootstrapServers(), "kafka");
        assertTrue(
                r.out()
                        .contains(
                                "Broker capabilities: InitProducerId 0-4, AddPartitionsToTxn 0-3, AddOffsetsToTxn 0-3,"
                                        + " TxnOffsetCommit 0-3 (KIP-447), EndTxn 0-3 (no KIP-890 part 2: v5 needed),"
                                        + " DescribeTransactions none, ListTransactions none, ConsumerGroupHeartbeat none (no KIP-848);"
                                        + " idempotent producer allowed, transactional producer allowed"),
                r.out());
    }

    @Test
    void transactionVersion2OnKafka282IsRefusedNamingEndTxnV5() throws Exception {
        String servers = kafka282.bootstrapServers();
        refused(
                servers,
                "name: kip890\ntransactionVersion: 2\noperation: {kind: WRITE, transactional: true}\n"
                        + "messageSize: 10\nwarmupOperations: 1\nmeasureOperations: 1\n",
                "transactionVersion",
                "transaction version 2 needs EndTxn v5 (KIP-890 part 2: transaction version 2), and the cluster at "
                        + servers + " (kafka) serves EndTxn 0-3 only (ApiVersions, probed before the load): ask for"
                        + " transaction version 1, or use a broker with KIP-890 part 2 (Kafka 4.0 and later)");
    }

    @Test
    void theConsumerGroupProtocolOnTansuIsRefusedNamingConsumerGroupHeartbeat() throws Exception {
        try (EmbeddedTansu tansu = EmbeddedTansu.start(line -> {})) {
            consumerGroupProtocol(tansu.bootstrapServers(), "tansu");
        }
    }
}

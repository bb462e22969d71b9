package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.Main;
import io.ombtx.runner.OmbTxHome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seeds' broker end to end: bin/benchmark's code path runs the shipped tx-writes scenario (quick) with this
 * build's 4.1 client on an embedded Kafka 2.8.2 with ZooKeeper (fetched from Maven Central on first use), and the
 * result says what the broker reported: its version, ZooKeeper, and the pre-KIP-890 transaction protocol.
 */
@Tag("integration")
class SeedBrokerRunTest {

    @TempDir
    Path dir;

    @Test
    void txWritesRunsOnKafka282WithZooKeeperAndTheResultSaysSo() throws Exception {
        Path home = OmbTxHome.locate();
        Path result = dir.resolve("tx-writes-2.8.2.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(
                new String[] {
                    "-d",
                    home.resolve("driver-kafka-tx/kafka-tx.yaml").toString(),
                    "--profile",
                    "quick",
                    "--broker-version",
                    "2.8.2",
                    "-o",
                    result.toString(),
                    home.resolve("workloads/tx-writes.yaml").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        assertTrue(log.contains("Kafka 2.8.2 running (ZooKeeper)"), log);
        JsonNode r = new ObjectMapper().readTree(result.toFile());
        assertEquals("complete", r.get("status").asText());
        JsonNode broker = r.get("broker");
        assertEquals("2.8.2", broker.get("version").asText(), broker.toString());
        assertEquals("2.8.2", r.get("versions").get("broker").asText());
        assertEquals("zookeeper", broker.get("coordination").asText());
        assertEquals(0, broker.get("transactionVersion").asInt(), broker.toString());
        assertTrue(broker.get("transactionProtocol").asText().startsWith("pre-KIP-890"), broker.toString());
        assertTrue(
                r.get("counts").get("committed").asLong() > 0, r.get("counts").toString());
    }
}

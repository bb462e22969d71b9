package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.Main;
import io.ombtx.runner.OmbTxHome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped tx-writes (quick) on the embedded Tansu, through bin/benchmark's code path with
 * {@code --broker-system tansu}: the real Tansu 0.6.0 binary (installed on first use) started by the runner, every
 * transaction committed, the result naming Tansu as the broker, and nothing left behind: no Tansu process, no
 * temporary folder.
 */
@Tag("integration")
class TansuRunTest {

    @TempDir
    Path dir;

    @Test
    void txWritesQuickCommitsEveryTransactionOnTansu() throws Exception {
        Path home = OmbTxHome.locate();
        Set<Path> foldersBefore = tansuFolders();
        Path result = dir.resolve("tx-writes-tansu.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(
                new String[] {
                    "-d",
                    home.resolve("driver-kafka-tx/kafka-tx.yaml").toString(),
                    "--broker-system",
                    "tansu",
                    "--profile",
                    "quick",
                    "-o",
                    result.toString(),
                    home.resolve("workloads/tx-writes.yaml").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String console = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, console);
        assertTrue(console.contains("Starting embedded Tansu 0.6.0: 1 broker"), console);
        assertTrue(console.contains("Tansu 0.6.0 running at 127.0.0.1:"), console);
        assertTrue(
                console.contains("is tansu, told from the wire: ApiVersions is Tansu 0.6.0's, API for API and version"
                        + " for version (cluster id tansu_cluster)"),
                console);

        JsonNode r = new ObjectMapper().readTree(result.toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        JsonNode counts = r.get("counts");
        assertEquals(300, counts.get("committed").asLong(), counts.toString());
        assertEquals(0, counts.get("aborted").asLong(), counts.toString());
        assertEquals(0, counts.get("failed").asLong(), counts.toString());
        JsonNode broker = r.get("broker");
        assertEquals("tansu", broker.get("system").asText(), broker.toString());
        assertEquals("0.6.0", broker.get("version").asText(), broker.toString());
        assertEquals("tansu_cluster", broker.get("clusterId").asText(), broker.toString());
        assertTrue(broker.get("embedded").asBoolean(), broker.toString());
        assertEquals(1, broker.get("brokers").asInt(), broker.toString());
        assertEquals(
                "memory://tansu/", broker.get("settings").get("storage-engine").asText(), broker.toString());
        JsonNode identity = broker.get("identity");
        assertEquals("tansu", identity.get("system").asText(), identity.toString());
        assertEquals(
                "ApiVersions is Tansu 0.6.0's, API for API and version for version",
                identity.get("rule").asText());
        assertEquals(36, identity.get("apiVersions").size(), identity.toString());
        assertEquals("0-4", identity.get("apiVersions").get("26").asText(), identity.toString()); // EndTxn
        // What the capability probe read, before the load: the same ApiVersions answer, both producers allowed.
        assertTrue(
                console.contains("Broker capabilities: InitProducerId 0-5, AddPartitionsToTxn 0-5, AddOffsetsToTxn 0-4,"
                        + " TxnOffsetCommit 0-4 (KIP-447), EndTxn 0-4 (no KIP-890 part 2: v5 needed),"
                        + " DescribeTransactions none, ListTransactions none, ConsumerGroupHeartbeat none (no KIP-848);"
                        + " idempotent producer allowed, transactional producer allowed"),
                console);
        JsonNode capabilities = broker.get("capabilities");
        assertEquals("0-4", capabilities.get("apis").get("EndTxn").asText(), capabilities.toString());
        assertFalse(capabilities.get("transactionV2").asBoolean(), capabilities.toString());
        assertEquals("allowed", capabilities.get("transactionalProducer").asText(), capabilities.toString());

        assertFalse(
                ProcessHandle.current()
                        .descendants()
                        .anyMatch(p -> p.info().command().orElse("").endsWith("/tansu")),
                "no Tansu process left");
        Set<Path> left = tansuFolders();
        left.removeAll(foldersBefore);
        assertEquals(Set.of(), left, "no Tansu folder left");
    }

    private static Set<Path> tansuFolders() throws IOException {
        Set<Path> found = new HashSet<>();
        try (DirectoryStream<Path> s =
                Files.newDirectoryStream(Path.of(System.getProperty("java.io.tmpdir")), "omb-tx-tansu-*")) {
            s.forEach(found::add);
        }
        return found;
    }
}

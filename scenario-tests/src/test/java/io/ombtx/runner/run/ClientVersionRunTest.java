package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.Main;
import io.ombtx.runner.OmbTxHome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --client-version}: the drivers run on another kafka-clients release in a worker JVM of its own, a
 * transaction is committed and read back ({@code tx-fetch}: write in a transaction, then poll read_committed until it
 * is seen), and the result records the client and broker versions as they report themselves.
 */
@Tag("integration")
class ClientVersionRunTest {

    @TempDir
    Path dir;

    private String[] dryRun(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {
            Integer.toString(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }

    @Test
    void aSettingTheChosenClientLacksIsBadInputBeforeAnythingStarts() throws Exception {
        Path home = OmbTxHome.locate();
        Path driver = dir.resolve("backoff-max.yaml");
        Files.writeString(
                driver,
                Files.readString(home.resolve("driver-kafka-tx/kafka-tx.yaml"))
                        .replace("producerConfig: |\n", "producerConfig: |\n  retry.backoff.max.ms=500\n"));
        String workload = home.resolve("workloads/tx-writes.yaml").toString();
        String[] accepted = dryRun("-d", driver.toString(), "--dry-run", "--profile", "quick", workload);
        assertEquals("0", accepted[0], accepted[2]);
        String[] refused = dryRun(
                "-d", driver.toString(), "--dry-run", "--profile", "quick", "--client-version", "2.8.2", workload);
        assertEquals("2", refused[0], refused[1] + refused[2]);
        assertTrue(refused[2].startsWith("error: " + driver), refused[2]);
        assertTrue(refused[2].contains("producerConfig.retry.backoff.max.ms"), refused[2]);
        assertTrue(refused[2].contains("kafka-clients 2.8.2"), refused[2]);
        assertTrue(!refused[2].contains("\tat "), "no stack trace: " + refused[2]);

        String[] tooOld = dryRun("-d", driver.toString(), "--dry-run", "--client-version", "2.0.0", workload);
        assertEquals("2", tooOld[0]);
        assertTrue(tooOld[2].contains("2.0.0"), tooOld[2]);

        String[] distributed = dryRun(
                "-d",
                home.resolve("driver-kafka-tx/kafka-tx.yaml").toString(),
                "--dry-run",
                "--client-version",
                "2.8.2",
                "-w",
                "http://127.0.0.1:1",
                workload);
        assertEquals("2", distributed[0], distributed[2]);
        assertTrue(distributed[2].contains("distributed workers"), distributed[2]);
    }

    @ParameterizedTest(name = "client {0} on broker {1}")
    @CsvSource({"2.8.2, 2.8.2", "3.9.1, 4.1.1"})
    void aTransactionIsCommittedAndReadBackOnTheChosenClient(String client, String broker) throws Exception {
        Path home = OmbTxHome.locate();
        Path result = dir.resolve("tx-fetch.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(
                new String[] {
                    "-d",
                    home.resolve("driver-kafka-tx/kafka-tx.yaml").toString(),
                    "--profile",
                    "quick",
                    "--client-version",
                    client,
                    "--broker-version",
                    broker,
                    "-o",
                    result.toString(),
                    home.resolve("workloads/tx-fetch.yaml").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String console = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, console);
        assertTrue(console.contains("Local worker on kafka-clients " + client), console);
        JsonNode json = new ObjectMapper().readTree(result.toFile());
        assertEquals("complete", json.path("status").asText(), console);
        assertEquals(client, json.path("versions").path("kafkaClients").asText());
        assertEquals(broker, json.path("versions").path("broker").asText());
        assertEquals(
                client, json.path("environment").path("kafkaClientsVersion").asText());
        long measured = json.path("runMode").path("measure").path("operations").asLong();
        assertTrue(measured > 0, json.path("runMode").toString());
        assertEquals(measured, json.path("counts").path("committed").asLong());
        assertEquals(0, json.path("counts").path("failed").asLong());
        // Every committed message was read back with read_committed before its operation ended.
        assertEquals(measured, json.path("counts").path("messagesReceived").asLong());
    }
}

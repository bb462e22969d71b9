package io.ombtx.driver.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * driver-aeron as bin/benchmark runs it: the shipped driver YAMLs, no broker, the result's counts and latencies, and
 * the workloads it cannot run refused with exit code 2 before anything starts.
 */
class AeronThroughTheRunnerTest {

    @TempDir
    Path dir;

    private Main.Captured run(String... args) {
        return Main.capture(args);
    }

    private Path workload(String yaml) throws Exception {
        return Files.writeString(dir.resolve("w.yaml"), yaml);
    }

    @Test
    void aTransactionalWorkloadExitsTwoBeforeAnythingStarts() throws Exception {
        Path w = workload("name: tx\nmessageSize: 100\nwarmupOperations: 0\nmeasureOperations: 10\n"
                + "operation: {kind: WRITE, transactional: true}\n");
        Path results = dir.resolve("results");
        Main.Captured o = run("-d", "aeron-ipc.yaml", "-o", results.toString(), w.toString());
        assertEquals(2, o.code(), o.err());
        assertEquals(
                "error: " + w + ": key 'operation.transactional': driver aeron-ipc (aeron-ipc.yaml) cannot run"
                        + " it: Aeron has no transactions, so driver-aeron cannot run a transactional workload: run it with"
                        + " driver-kafka-tx or driver-redpanda-tx, or give driver-aeron a plain PUBLISH workload such as"
                        + " workloads/rps-sweep.yaml",
                o.err().trim());
        assertFalse(o.err().contains("Exception"), o.err());
        assertFalse(Files.exists(results), "nothing ran, nothing was written");
        assertTrue(o.out().isEmpty(), "nothing started: " + o.out());
    }

    @Test
    void theShippedTransactionalWorkloadsAreRefusedInADryRun() {
        Main.Captured o = run("-d", "aeron-udp.yaml", "--dry-run", "../workloads/tx-streaming.yaml");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().startsWith("error: ../workloads/tx-streaming.yaml: key 'operation.transactional'"), o.err());
    }

    @Test
    void aMistakeInTheAeronYamlExitsTwoNamingTheKey() throws Exception {
        Path w = workload("name: plain\nmessageSize: 78\ntestDurationMinutes: 1\n");
        Path driver = Files.writeString(
                dir.resolve("my-aeron.yaml"),
                "name: a\n"
                        + "driverClass: io.ombtx.driver.aeron.AeronBenchmarkDriver\nmediaDriver: {mtuLenght: 8k}\n");
        Main.Captured o = run("-d", driver.toString(), "--dry-run", w.toString());
        assertEquals(2, o.code(), o.err());
        assertEquals(
                "error: " + driver + ": key 'mediaDriver.mtuLenght': unknown key (did you mean 'mtuLength'?)",
                o.err().trim());
        String[][] cases = {
            {"mediaDriver: {termBufferLength: 100k}\n", "'mediaDriver.termBufferLength': must be a power of two"},
            {"transport: tcp\n", "'transport': expected one of IPC | UDP"},
            {"subscriber: {idleStrategy: nap}\n", "'subscriber.idleStrategy': expected one of NOOP"},
            {"udpEndpoint: 127.0.0.1:40456\n", "'udpEndpoint': applies to transport: udp only"},
        };
        for (String[] c : cases) {
            Files.writeString(driver, "name: a\ndriverClass: io.ombtx.driver.aeron.AeronBenchmarkDriver\n" + c[0]);
            Main.Captured bad = run("-d", driver.toString(), "--dry-run", w.toString());
            assertEquals(2, bad.code(), c[0] + " → " + bad.err());
            assertTrue(bad.err().contains(c[1]), c[0] + " → " + bad.err());
        }
    }

    @Test
    void aPlainPublishRunOnIpcRecordsEveryMessageAndItsEndToEndLatencyWithNoBroker() throws Exception {
        Path w = workload("name: aeron-run\ntopics: 1\npartitionsPerTopic: 1\nmessageSize: 78\nproducersPerTopic: 1\n"
                + "subscriptionsPerTopic: 1\nconsumerPerSubscription: 1\nloop: open\nproducerRate: 2000\n"
                + "warmupMessages: 500\nmeasureMessages: 2000\n"
                // the RPS sweep's Kafka settings: accepted, not used
                + "driverOverrides:\n  producerConfig: |\n    acks=all\n");
        Path results = dir.resolve("results");
        Main.Captured o = run("-d", "aeron-ipc.yaml", "-o", results.toString(), "-q", w.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        List<Path> files;
        try (Stream<Path> list = Files.list(results)) {
            files = list.toList();
        }
        assertEquals(1, files.size(), files.toString());
        JsonNode result = new ObjectMapper().readTree(files.get(0).toFile());
        assertEquals("complete", result.path("status").asText());
        assertEquals(0, result.path("broker").path("brokers").asInt());
        assertFalse(result.path("broker").path("embedded").asBoolean());
        JsonNode counts = result.path("counts");
        assertEquals(2000, counts.path("messagesSent").asLong());
        assertEquals(2000, counts.path("messagesReceived").asLong());
        assertEquals(0, counts.path("publishErrors").asLong());
        assertTrue(
                result.path("histograms").has("endToEndLatencyMicros"),
                result.path("histograms").toString());
        assertTrue(result.path("aggregatedEndToEndLatency50pct").asDouble() > 0, "end-to-end p50 recorded");
        JsonNode aeron = result.path("environment").path("aeron");
        assertEquals("aeron:ipc", aeron.path("channel").asText());
        // warm-up, measured, and the one message per producer the runner sends to probe producers (OMB's step)
        assertEquals(2501, aeron.path("offers").path("sendsAccepted").asLong());
        assertEquals(0, aeron.path("offers").path("sendsFailed").asLong());
    }
}

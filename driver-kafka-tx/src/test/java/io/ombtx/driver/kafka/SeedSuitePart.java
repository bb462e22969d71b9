package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.SuiteMain;
import io.ombtx.runner.stats.Histograms;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One part of the shipped Kafka suite (suites/kafka-seeds.yaml) run in its quick profile: the suite's driver and the
 * workloads named, in the suite's order. The library's scenarios are split over a few test classes so that the test
 * JVMs run them side by side; {@link #PARTS} lists every part, and {@code ScenarioLibraryPartsTest} checks that they
 * cover the suite.
 */
record SeedSuitePart(Map<String, JsonNode> byWorkload, String log) {

    static final Path SUITE = OmbTxHome.locate().resolve("suites/kafka-seeds.yaml");

    static final List<String> WRITES_AND_STREAMING = List.of(
            "workloads/base-writes.yaml",
            "workloads/tx-writes.yaml",
            "workloads/tx-writes-ack-first.yaml",
            "workloads/base-streaming.yaml",
            "workloads/tx-streaming.yaml",
            "workloads/base-streaming-ack-first.yaml",
            "workloads/tx-streaming-ack-first.yaml");
    static final List<String> ABORTS_OFFSETS_FETCH_BULK = List.of(
            "workloads/tx-streaming-aborts.yaml",
            "workloads/tx-send-offsets.yaml",
            "workloads/tx-fetch.yaml",
            "workloads/bulk-tx.yaml",
            "workloads/bulk-acks-all.yaml");
    static final List<String> ACKS_AND_RATES = List.of(
            "workloads/acks-sla-yolo.yaml",
            "workloads/acks-sla-throughput.yaml",
            "workloads/acks-sla-durable.yaml",
            "workloads/rps-sweep.yaml");
    static final List<List<String>> PARTS = List.of(WRITES_AND_STREAMING, ABORTS_OFFSETS_FETCH_BULK, ACKS_AND_RATES);

    /** The suite's workloads, in its order (its one run). */
    static List<String> suiteWorkloads() throws IOException {
        JsonNode suite = new YAMLMapper().readTree(SUITE.toFile());
        assertEquals(1, suite.get("runs").size(), "the Kafka suite has one driver");
        List<String> workloads = new ArrayList<>();
        suite.at("/runs/0/workloads").forEach(w -> workloads.add(w.asText()));
        return workloads;
    }

    /**
     * Runs the suite's workloads named in {@code part} (a suite file of their own in {@code folder}, its results
     * there too), with a line on the build's console as each starts; the run must exit 0.
     */
    static SeedSuitePart run(String test, List<String> part, Path folder) throws Exception {
        YAMLMapper yaml = new YAMLMapper();
        ObjectNode suite = (ObjectNode) yaml.readTree(SUITE.toFile());
        List<String> all = suiteWorkloads();
        assertTrue(all.containsAll(part), part + " are in " + SUITE);
        suite.put("name", suite.get("name").asText() + "-" + test);
        var workloads = ((ObjectNode) suite.at("/runs/0")).putArray("workloads");
        all.stream().filter(part::contains).forEach(workloads::add);
        Path file = folder.resolve("suite.yaml");
        yaml.writeValue(file.toFile(), suite);

        // Minutes without a word from the build otherwise: a line on its console as each scenario starts.
        ScenarioProgress out = new ScenarioProgress(test);
        out.announce("runs " + part.size() + " workloads of suites/kafka-seeds.yaml in its quick profile on the"
                + " embedded broker; a line as each starts");
        // Runs in a row with the same brokers share one cluster (--reuse-brokers): a fresh cluster per run is
        // tested where it matters (LocalRunIntegrationTest, ReuseBrokersRunTest), and this saves a start per run.
        int code = SuiteMain.run(
                new String[] {
                    "--profile",
                    "quick",
                    "--reuse-brokers",
                    "-o",
                    folder.toString(),
                    "--report-interval",
                    "2",
                    file.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        out.finished(code);
        String log = out.text();
        assertEquals(0, code, log);
        Map<String, JsonNode> byWorkload = new TreeMap<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path result : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                JsonNode r = new ObjectMapper().readTree(result.toFile());
                byWorkload.put(r.get("workload").asText(), r);
            }
        }
        return new SeedSuitePart(byWorkload, log);
    }

    /** The result of {@code workload}, which must have completed. */
    JsonNode result(String workload) {
        JsonNode r = byWorkload.get(workload);
        assertTrue(r != null, "a result for " + workload + " among " + byWorkload.keySet());
        assertEquals("complete", r.get("status").asText(), workload);
        return r;
    }

    /** Every workload of the part has a result (a sweep's under its name and value). */
    void assertEveryWorkloadRan(List<String> part) {
        for (String path : part) {
            String name = Path.of(path).getFileName().toString().replace(".yaml", "");
            assertTrue(
                    byWorkload.keySet().stream().anyMatch(w -> w.equals(name) || w.startsWith(name + "-")),
                    name + " ran: " + byWorkload.keySet());
        }
    }

    /**
     * A count-based run with consumers ends only once every message sent was received (its drain completed), and
     * every message received has its end-to-end latency; runs without consumers do not drain. {@code expected}: how
     * many of the part's runs drain.
     */
    void assertCountBasedRunsDrained(int expected, String which) {
        int drained = 0;
        for (JsonNode r : byWorkload.values()) {
            String workload = r.get("workload").asText();
            String kind = r.at("/scenario/kind").asText();
            JsonNode drain = r.get("drain");
            if (kind.equals("STREAM")
                    || kind.equals("SEND_OFFSETS")
                    || r.at("/counts/messagesReceived").asLong() == 0) {
                assertTrue(drain == null, workload + " does not drain: " + drain);
                continue;
            }
            drained++;
            assertTrue(
                    drain != null
                            && drain.get("completed").asBoolean()
                            && drain.get("notReceived").asLong() == 0,
                    workload + ": " + drain);
            long received = r.at("/counts/messagesReceived").asLong();
            assertEquals(r.at("/counts/messagesSent").asLong(), received, workload + " (one subscription)");
            assertEquals(
                    received,
                    Histograms.decode(r.at("/histograms/endToEndLatencyMicros").asText())
                            .getTotalCount(),
                    workload + ": every message received has its end-to-end latency");
        }
        assertEquals(expected, drained, which);
    }

    /** Every result records the broker's release, KRaft and the transaction protocol it read back. */
    void assertBrokerReadBack() {
        for (JsonNode r : byWorkload.values()) {
            JsonNode broker = r.get("broker");
            String workload = r.get("workload").asText();
            assertEquals("4.1.1", broker.get("version").asText(), workload);
            assertEquals("kraft", broker.get("coordination").asText(), workload);
            assertEquals(2, broker.get("transactionVersion").asInt(), "4.1's default: " + broker);
            assertTrue(broker.get("transactionProtocol").asText().contains("KIP-890 part 2"), broker.toString());
            assertTrue(!broker.has("requestedTransactionVersion"), "the broker's default was left: " + broker);
        }
    }
}

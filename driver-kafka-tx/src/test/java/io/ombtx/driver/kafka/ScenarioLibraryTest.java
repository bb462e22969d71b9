package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.SuiteMain;
import io.ombtx.runner.stats.Histograms;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every workload in workloads/ runs, through the shipped Kafka suite in its quick profile on the embedded broker,
 * and its result carries the figures SCENARIOS.md lists for it. One suite run; one assertion group per scenario.
 */
@Tag("integration")
class ScenarioLibraryTest {

    @TempDir
    static Path results;

    static final Map<String, JsonNode> BY_WORKLOAD = new HashMap<>();
    static String log;

    @BeforeAll
    static void runTheQuickSuite() throws Exception {
        Path suite = io.ombtx.runner.OmbTxHome.locate().resolve("suites/kafka-seeds.yaml");
        // Some minutes without a word from the build otherwise: a line on its console as each scenario starts.
        ScenarioProgress out = new ScenarioProgress("ScenarioLibraryTest");
        out.announce("runs suites/kafka-seeds.yaml in its quick profile, every scenario of the library on the"
                + " embedded broker; a line as each starts");
        int code = SuiteMain.run(
                new String[] {"--profile", "quick", "-o", results.toString(), "--report-interval", "2", suite.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        out.finished(code);
        log = out.text();
        assertEquals(0, code, log);
        try (Stream<Path> files = Files.list(results)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                JsonNode r = new ObjectMapper().readTree(file.toFile());
                BY_WORKLOAD.put(r.get("workload").asText(), r);
            }
        }
    }

    private static JsonNode result(String workload) {
        JsonNode r = BY_WORKLOAD.get(workload);
        assertTrue(r != null, "a result for " + workload + " among " + BY_WORKLOAD.keySet());
        assertEquals("complete", r.get("status").asText(), workload);
        return r;
    }

    /** Seed 001/000 tables: min, median, p99, max and the total for N iterations. */
    private static void assertIterationFigures(JsonNode r, long operations) {
        JsonNode ops = r.get("operationLatency");
        assertEquals(operations, ops.get("count").asLong(), r.get("workload").asText());
        double min = ops.get("min").asDouble();
        double p50 = ops.get("p50").asDouble();
        double p99 = ops.get("p99").asDouble();
        double max = ops.get("max").asDouble();
        assertTrue(0 < min && min <= p50 && p50 <= p99 && p99 <= max, ops.toString());
        assertEquals(
                ops.get("avg").asDouble() * operations,
                ops.get("totalMillis").asDouble(),
                0.01 * ops.get("totalMillis").asDouble());
    }

    /** The phases of a transaction add up to the whole (means, since means add and percentiles do not). */
    private static void assertPhasesSumToTheWhole(JsonNode r, String... phases) {
        JsonNode p = r.get("transactionPhases");
        double sum = 0;
        for (String phase : phases) {
            assertTrue(p.has(phase), phase + " in " + p);
            sum += p.get(phase).get("avg").asDouble();
        }
        double whole = p.get("transaction").get("avg").asDouble();
        assertEquals(1.0, sum / whole, 0.05, "phases " + sum + " ms vs transaction " + whole + " ms");
    }

    @Test
    void everyWorkloadInTheLibraryProducedAResult() throws Exception {
        // The seed workloads; those in workloads/faults/ (three brokers, a broker killed) are checked by
        // FaultInjectionTest.
        try (Stream<Path> files = Files.list(io.ombtx.runner.OmbTxHome.locate().resolve("workloads"))) {
            for (Path workload : files.filter(Files::isRegularFile).toList()) {
                String name = workload.getFileName().toString().replace(".yaml", "");
                assertTrue(
                        BY_WORKLOAD.keySet().stream().anyMatch(w -> w.equals(name) || w.startsWith(name + "-")),
                        name + " ran: " + BY_WORKLOAD.keySet());
            }
        }
    }

    @Test
    void countBasedRunsWithConsumersEndOnlyOnceEveryMessageSentWasReceived() {
        int drained = 0;
        for (JsonNode r : BY_WORKLOAD.values()) {
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
        assertTrue(drained >= 2, "the library has count-based workloads with consumers (tx-fetch, rps-sweep)");
    }

    @Test
    void everyResultRecordsTheBrokerVersionAndTransactionProtocolReadBack() {
        for (JsonNode r : BY_WORKLOAD.values()) {
            JsonNode broker = r.get("broker");
            String workload = r.get("workload").asText();
            assertEquals("4.1.1", broker.get("version").asText(), workload);
            assertEquals("kraft", broker.get("coordination").asText(), workload);
            assertEquals(2, broker.get("transactionVersion").asInt(), "4.1's default: " + broker);
            assertTrue(broker.get("transactionProtocol").asText().contains("KIP-890 part 2"), broker.toString());
            assertTrue(!broker.has("requestedTransactionVersion"), "the broker's default was left: " + broker);
        }
    }

    @Test
    void writesReportIterationsAndTransactionPhases() {
        JsonNode base = result("base-writes");
        assertIterationFigures(base, 300);
        assertEquals(600, base.at("/counts/messagesSent").asLong(), "two messages per iteration");
        JsonNode tx = result("tx-writes");
        assertIterationFigures(tx, 300);
        assertEquals(300, tx.at("/counts/committed").asLong());
        assertPhasesSumToTheWhole(tx, "begin", "send", "resolve", "commit");
        assertEquals("closed", tx.at("/runMode/loop").asText());
        assertOrder(tx, "after-commit", "begin", "send", "commit", "resolve");
        assertOrder(result("tx-writes-ack-first"), "before-commit", "begin", "send", "resolve", "commit");
    }

    /** The result names the workload's order and the phase sequence the driver actually ran. */
    private static void assertOrder(JsonNode r, String awaitAcks, String... sequence) {
        assertEquals(
                awaitAcks,
                r.at("/scenario/awaitAcks").asText(),
                r.get("workload").asText());
        List<String> ran = new java.util.ArrayList<>();
        r.at("/scenario/phaseSequence").forEach(phase -> ran.add(phase.asText()));
        assertEquals(List.of(sequence), ran, r.get("workload").asText());
    }

    @Test
    void streamingReportsTheWritePathAndTransactionalStreamingIsExactlyOnce() {
        JsonNode base = result("base-streaming");
        assertIterationFigures(base, 300);
        assertTrue(base.at("/transactionPhases/commit/p50").asDouble() > 0, "commitSync is timed");
        JsonNode tx = result("tx-streaming");
        assertIterationFigures(tx, 300);
        assertPhasesSumToTheWhole(tx, "begin", "send", "resolve", "sendOffsets", "commit");
        assertTrue(
                tx.at("/exactlyOnce/passed").asBoolean(), tx.get("exactlyOnce").toString());
        assertEquals(400, tx.at("/exactlyOnce/checked").asLong(), "warm-up and measured records are all checked");
        assertEquals(0, tx.at("/exactlyOnce/duplicated").asLong());
        assertEquals(0, tx.at("/exactlyOnce/missing").asLong());
        assertOrder(tx, "after-commit", "begin", "send", "sendOffsets", "commit", "resolve");
        assertOrder(base, "after-commit", "send", "commit", "resolve");
        JsonNode ackFirst = result("tx-streaming-ack-first");
        assertOrder(ackFirst, "before-send-offsets", "begin", "send", "resolve", "sendOffsets", "commit");
        assertTrue(
                ackFirst.at("/exactlyOnce/passed").asBoolean(),
                ackFirst.get("exactlyOnce").toString());
        assertOrder(result("base-streaming-ack-first"), "before-commit", "send", "resolve", "commit");
    }

    /**
     * tx-streaming-aborts: the seed's draws decide which of the one processor's transactions abort, so the measured
     * operations (the 101st to the 400th) abort exactly those the replayed seed picks; none of their records is seen.
     */
    @Test
    void randomAbortsAreCountedApartAndNoAbortedRecordIsVisible() {
        JsonNode r = result("tx-streaming-aborts");
        AbortChoice replay = AbortChoice.of(0.3, 31, 0);
        long aborted = 0;
        for (int operation = 0; operation < 400; operation++) {
            boolean abort = replay.next();
            aborted += operation >= 100 && abort ? 1 : 0;
        }
        JsonNode counts = r.get("counts");
        assertEquals(300, counts.get("operations").asLong());
        assertEquals(aborted, counts.get("abortedOnPurpose").asLong(), counts.toString());
        assertEquals(300 - aborted, counts.get("committed").asLong(), "committed + abortedOnPurpose = operations");
        assertEquals(0, counts.get("failed").asLong());
        assertEquals(300 - aborted, counts.get("messagesProcessed").asLong(), "an aborted batch is not processed");
        assertEquals(0.3, r.at("/scenario/abortRatio").asDouble());
        assertEquals(31, r.at("/scenario/abortSeed").asLong());
        assertTrue(r.at("/transactionPhases/abort/count").asLong() >= aborted, "aborts timed as abort");
        JsonNode eo = r.get("exactlyOnce");
        assertTrue(eo.get("passed").asBoolean(), eo.toString());
        assertEquals(0, eo.get("abortedSeen").asLong());
        assertEquals(0, eo.get("duplicated").asLong());
        assertEquals(0, eo.get("missing").asLong());
    }

    @Test
    void sendOffsetsOnlyTransactionsCommitWithoutRecords() {
        JsonNode r = result("tx-send-offsets");
        assertIterationFigures(r, 200);
        assertEquals(200, r.at("/counts/committed").asLong());
        assertEquals(0, r.at("/counts/messagesSent").asLong());
        assertPhasesSumToTheWhole(r, "begin", "sendOffsets", "commit");
    }

    @Test
    void fetchMeasuresWriteToVisibleLatency() {
        JsonNode r = result("tx-fetch");
        assertIterationFigures(r, 200);
        long seen = Histograms.decode(r.at("/histograms/endToEndLatencyMicros").asText())
                .getTotalCount();
        assertEquals(200, seen, "each measured transaction was seen by the read_committed consumer");
        assertTrue(
                r.get("aggregatedEndToEndLatency50pct").asDouble()
                        >= r.at("/operationLatency/min").asDouble(),
                "visible no earlier than committed");
    }

    @Test
    void bulkInsertReportsThroughputAndTotalTime() {
        for (String name : new String[] {"bulk-tx", "bulk-acks-all"}) {
            JsonNode r = result(name);
            assertEquals(20_000, r.at("/counts/messagesSent").asLong(), name);
            assertTrue(r.at("/summary/messagesPerSecond").asDouble() > 0, name);
            assertTrue(r.at("/summary/durationSeconds").asDouble() > 0, name);
        }
        assertEquals(20, result("bulk-tx").at("/counts/committed").asLong());
        assertTrue(result("bulk-acks-all")
                .at("/driverConfig/producerConfig")
                .asText()
                .contains("acks=all"));
    }

    @Test
    void acksProfilesRunOnThreeBrokersWithTheirSettings() {
        String[][] profiles = {{"yolo", "2", "1", "1"}, {"throughput", "3", "1", "1"}, {"durable", "3", "2", "all"}};
        for (String[] p : profiles) {
            JsonNode r = result("acks-sla-" + p[0]);
            assertEquals(3, r.at("/broker/brokers").asInt());
            assertEquals(
                    Integer.parseInt(p[1]),
                    r.at("/driverConfig/replicationFactor").asInt(),
                    p[0]);
            assertTrue(r.at("/driverConfig/topicConfig").asText().contains("min.insync.replicas=" + p[2]), p[0]);
            assertTrue(r.at("/driverConfig/producerConfig").asText().contains("acks=" + p[3]), p[0]);
            assertEquals(20_000, r.at("/counts/messagesSent").asLong(), p[0]);
            double seconds = r.at("/summary/durationSeconds").asDouble();
            assertEquals(
                    seconds * 1000 / 20_000, r.at("/summary/millisPerMessage").asDouble(), 1e-9);
            assertEquals(20_000 / seconds, r.at("/summary/messagesPerSecond").asDouble(), 1e-6 * 20_000 / seconds);
        }
    }

    @Test
    void theRpsSweepReportsEndToEndPercentilesPerRate() {
        for (int rate : new int[] {1000, 25000}) { // the quick profile: seed 004's lowest rate and its knee
            JsonNode r = result("rps-sweep-" + rate);
            assertEquals("rps-sweep", r.at("/sweep/name").asText());
            assertEquals(rate, r.at("/sweep/value").asInt());
            assertEquals(rate, r.at("/runMode/targetRate").asInt());
            assertEquals(5000, r.at("/counts/messagesSent").asLong());
            JsonNode q = r.get("aggregatedEndToEndLatencyQuantiles");
            double previous = 0;
            for (String p : new String[] {"25.0", "50.0", "90.0", "99.0", "99.9"}) {
                assertTrue(q.has(p), p);
                assertTrue(q.get(p).asDouble() >= previous && q.get(p).asDouble() > 0, p + " in " + q);
                previous = q.get(p).asDouble();
            }
        }
    }
}

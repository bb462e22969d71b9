package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's write and streaming scenarios (the first part of suites/kafka-seeds.yaml, quick profile, on the
 * embedded broker): each result carries the figures SCENARIOS.md lists for it. One suite run; an assertion group per
 * scenario. The other parts: {@link ScenarioLibraryOffsetsFetchBulkTest}, {@link ScenarioLibraryAcksRatesTest}.
 */
@Tag("integration")
class ScenarioLibraryTest {

    @TempDir
    static Path results;

    static SeedSuitePart PART;

    @BeforeAll
    static void runThePart() throws Exception {
        PART = SeedSuitePart.run("ScenarioLibraryTest", SeedSuitePart.WRITES_AND_STREAMING, results);
    }

    @Test
    void everyWorkloadOfThePartRanAndRecordsItsBrokerAndDrain() {
        PART.assertEveryWorkloadRan(SeedSuitePart.WRITES_AND_STREAMING);
        PART.assertBrokerReadBack();
        PART.assertCountBasedRunsDrained(0, "no write or streaming run drains");
    }

    /** Seed 001/000 tables: min, median, p99, max and the total for N iterations. */
    static void assertIterationFigures(JsonNode r, long operations) {
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
    static void assertPhasesSumToTheWhole(JsonNode r, String... phases) {
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
    void writesReportIterationsAndTransactionPhases() {
        JsonNode base = PART.result("base-writes");
        assertIterationFigures(base, 300);
        assertEquals(600, base.at("/counts/messagesSent").asLong(), "two messages per iteration");
        JsonNode tx = PART.result("tx-writes");
        assertIterationFigures(tx, 300);
        assertEquals(300, tx.at("/counts/committed").asLong());
        assertPhasesSumToTheWhole(tx, "begin", "send", "resolve", "commit");
        assertEquals("closed", tx.at("/runMode/loop").asText());
        assertOrder(tx, "after-commit", "begin", "send", "commit", "resolve");
        assertOrder(PART.result("tx-writes-ack-first"), "before-commit", "begin", "send", "resolve", "commit");
    }

    /** The result names the workload's order and the phase sequence the driver actually ran. */
    static void assertOrder(JsonNode r, String awaitAcks, String... sequence) {
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
        JsonNode base = PART.result("base-streaming");
        assertIterationFigures(base, 300);
        assertTrue(base.at("/transactionPhases/commit/p50").asDouble() > 0, "commitSync is timed");
        JsonNode tx = PART.result("tx-streaming");
        assertIterationFigures(tx, 300);
        assertPhasesSumToTheWhole(tx, "begin", "send", "resolve", "sendOffsets", "commit");
        assertTrue(
                tx.at("/exactlyOnce/passed").asBoolean(), tx.get("exactlyOnce").toString());
        assertEquals(400, tx.at("/exactlyOnce/checked").asLong(), "warm-up and measured records are all checked");
        assertEquals(0, tx.at("/exactlyOnce/duplicated").asLong());
        assertEquals(0, tx.at("/exactlyOnce/missing").asLong());
        assertOrder(tx, "after-commit", "begin", "send", "sendOffsets", "commit", "resolve");
        assertOrder(base, "after-commit", "send", "commit", "resolve");
        JsonNode ackFirst = PART.result("tx-streaming-ack-first");
        assertOrder(ackFirst, "before-send-offsets", "begin", "send", "resolve", "sendOffsets", "commit");
        assertTrue(
                ackFirst.at("/exactlyOnce/passed").asBoolean(),
                ackFirst.get("exactlyOnce").toString());
        assertOrder(PART.result("base-streaming-ack-first"), "before-commit", "send", "resolve", "commit");
    }
}

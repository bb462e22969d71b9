package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.runner.stats.Histograms;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's scenarios with random aborts, send-offsets-only transactions, write-to-visible and bulk inserts (the
 * second part of suites/kafka-seeds.yaml, quick profile, on the embedded broker).
 */
@Tag("integration")
class ScenarioLibraryOffsetsFetchBulkTest {

    @TempDir
    static Path results;

    static SeedSuitePart PART;

    @BeforeAll
    static void runThePart() throws Exception {
        PART = SeedSuitePart.run(
                "ScenarioLibraryOffsetsFetchBulkTest", SeedSuitePart.ABORTS_OFFSETS_FETCH_BULK, results);
    }

    @Test
    void everyWorkloadOfThePartRanAndRecordsItsBrokerAndDrain() {
        PART.assertEveryWorkloadRan(SeedSuitePart.ABORTS_OFFSETS_FETCH_BULK);
        PART.assertBrokerReadBack();
        PART.assertCountBasedRunsDrained(1, "tx-fetch is count-based with a consumer");
    }

    /**
     * tx-streaming-aborts: the seed's draws decide which of the one processor's transactions abort, so the measured
     * operations (the 101st to the 400th) abort exactly those the replayed seed picks; none of their records is seen.
     */
    @Test
    void randomAbortsAreCountedApartAndNoAbortedRecordIsVisible() {
        JsonNode r = PART.result("tx-streaming-aborts");
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
        JsonNode r = PART.result("tx-send-offsets");
        ScenarioLibraryTest.assertIterationFigures(r, 200);
        assertEquals(200, r.at("/counts/committed").asLong());
        assertEquals(0, r.at("/counts/messagesSent").asLong());
        ScenarioLibraryTest.assertPhasesSumToTheWhole(r, "begin", "sendOffsets", "commit");
    }

    @Test
    void fetchMeasuresWriteToVisibleLatency() {
        JsonNode r = PART.result("tx-fetch");
        ScenarioLibraryTest.assertIterationFigures(r, 200);
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
            JsonNode r = PART.result(name);
            assertEquals(20_000, r.at("/counts/messagesSent").asLong(), name);
            assertTrue(r.at("/summary/messagesPerSecond").asDouble() > 0, name);
            assertTrue(r.at("/summary/durationSeconds").asDouble() > 0, name);
        }
        assertEquals(20, PART.result("bulk-tx").at("/counts/committed").asLong());
        assertTrue(PART.result("bulk-acks-all")
                .at("/driverConfig/producerConfig")
                .asText()
                .contains("acks=all"));
    }
}

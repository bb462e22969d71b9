package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transactions paced by the rate limiter (open loop) through the runner, on the embedded broker. */
@Tag("integration")
class OpenLoopTransactionsTest {

    @TempDir
    Path dir;

    @Test
    void transactionsRunAtTheTargetRateAndLatencyIsAlsoTakenFromTheIntendedStart() throws Exception {
        Path workload = Files.writeString(
                dir.resolve("open-tx.yaml"),
                """
                name: open-tx
                partitionsPerTopic: 2
                messageSize: 50
                subscriptionsPerTopic: 0
                loop: open
                producerRate: 40
                operation: {kind: WRITE, transactional: true, messagesPerOperation: 2, partitionsPerOperation: 2}
                warmupOperations: 20
                measureOperations: 100
                """);
        Path driver = io.ombtx.runner.OmbTxHome.locate().resolve("driver-kafka-tx/kafka-tx.yaml");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path result = dir.resolve("open-tx.json");
        int code = Main.run(
                new String[] {
                    "-d", driver.toString(), "-o", result.toString(), "--report-interval", "1", workload.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        assertEquals(0, code, out.toString(StandardCharsets.UTF_8));
        JsonNode r = new ObjectMapper().readTree(result.toFile());
        assertEquals("open", r.at("/runMode/loop").asText());
        assertEquals(40, r.at("/runMode/targetRate").asInt());
        assertEquals(100, r.at("/counts/committed").asLong());
        assertEquals(200, r.at("/counts/messagesSent").asLong());
        // 40 msg/s in transactions of 2 is 20 transactions a second: the schedule spreads 100 over 4.95 s, and open
        // loop never runs ahead of it. Only a late start of the measurement (a slow warm-up's last operation) can
        // shorten that, by the operations then sent back to back; no upper bound: a busy machine may lag behind.
        double seconds = r.at("/summary/durationSeconds").asDouble();
        assertTrue(seconds > 3.5, "duration " + seconds + " s: faster than the schedule allows");
        assertEquals(100 / seconds, r.at("/summary/operationsPerSecond").asDouble(), 0.01);
        // Latency from the intended start can only be longer than from the actual start.
        assertTrue(r.at("/intendedPublishLatency/p50").asDouble()
                >= r.get("aggregatedPublishLatency50pct").asDouble());
        assertEquals(100, r.at("/transactionPhases/commit/count").asLong());
        // The coordinators' log over the measured phase: commits of the run's one producer (20 warmed up, 100
        // measured, the phase seen to begin at the poll after its first measured operation), every one in the log
        // partition its id hashes to, on the one broker.
        JsonNode c = r.get("coordinators");
        long ended = c.get("committed").asLong();
        assertTrue(ended > 0 && ended <= 120, c.toString());
        assertEquals(0, c.get("aborted").asLong());
        assertEquals(1, c.get("transactionalIds").asInt());
        assertEquals(1, c.get("partitionsUsed").asInt());
        assertEquals(1.0, c.get("busiestShare").asDouble());
        assertTrue(out.toString(StandardCharsets.UTF_8)
                .contains("Coordinators: " + ended + " transaction(s) ended in the measured phase"));
    }

    /**
     * A transactional PUBLISH of twenty producers at a target rate: the transactions are the operations, counted
     * committed, each holding at most the workload's messages, and every measured message is in a measured transaction
     * (a transaction is reported after its messages, so one that ended across the warm-up's end counts whole, its
     * earlier messages not: at most one such transaction per producer).
     */
    @Test
    void aTransactionalPublishIsCutIntoTransactionsThatAreCountedAndItsRateIsJudged() throws Exception {
        Path workload = Files.writeString(
                dir.resolve("tx-publish.yaml"),
                """
                name: tx-publish
                partitionsPerTopic: 4
                messageSize: 100
                producersPerTopic: 20
                subscriptionsPerTopic: 1
                producerRate: 2000
                operation: {kind: PUBLISH, transactional: true, messagesPerTransaction: 25, commitIntervalMs: 50}
                warmupDurationSeconds: 2
                testDurationSeconds: 4
                """);
        Path driver = io.ombtx.runner.OmbTxHome.locate().resolve("driver-kafka-tx/kafka-tx.yaml");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path result = dir.resolve("tx-publish.json");
        int code = Main.run(
                new String[] {"-d", driver.toString(), "-o", result.toString(), workload.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String console = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, console);
        JsonNode r = new ObjectMapper().readTree(result.toFile());
        long committed = r.at("/counts/committed").asLong();
        assertTrue(committed > 0, console);
        assertEquals(0, r.at("/counts/failed").asLong());
        assertEquals(committed, r.at("/counts/operations").asLong(), "the transactions are the operations");
        JsonNode cut = r.get("transactions");
        assertEquals(50, cut.get("commitIntervalMs").asLong());
        assertEquals(25, cut.get("maxMessagesPerTransaction").asInt());
        assertEquals(committed, cut.get("committed").asLong());
        JsonNode held = cut.get("messagesPerTransaction");
        assertEquals(committed, held.get("count").asLong());
        assertTrue(held.get("max").asLong() <= 25, held.toString());
        long inTransactions =
                Math.round(held.get("mean").asDouble() * held.get("count").asLong());
        long sent = r.at("/counts/messagesSent").asLong();
        assertTrue(inTransactions >= sent && inTransactions <= sent + 20 * 25, inTransactions + " vs " + sent);
        assertTrue(r.at("/histograms/messagesPerTransaction").isTextual(), "the histogram, under its own name");
        assertEquals(committed, r.at("/transactionPhases/commit/count").asLong());
        assertEquals(2000, r.at("/rate/target").asDouble(), 0);
        assertTrue(r.at("/rate/held").isBoolean());
        assertTrue(console.contains("Transactions: " + String.format("%,d", committed) + " committed"), console);
        assertTrue(console.contains("Rate held: ") || console.contains("Rate NOT held: "), console);
    }
}

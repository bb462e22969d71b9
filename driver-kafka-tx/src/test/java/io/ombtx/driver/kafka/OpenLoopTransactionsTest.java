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
    }
}

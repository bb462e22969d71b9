package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.Main;
import io.ombtx.runner.result.ResultSchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code producerRate: 0} on the embedded broker: the search converges, then the run holds the rate it found. */
@Tag("integration")
class MaxRateSearchIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void theSearchCompletesAndTheRunIsMeasuredAtTheRateItFound() throws Exception {
        Path workload = Files.writeString(
                dir.resolve("max-rate.yaml"),
                """
                name: max-rate
                messageSize: 100
                subscriptionsPerTopic: 1
                producerRate: 0
                warmupDurationSeconds: 0
                testDurationSeconds: 3
                """);
        Path driver = Files.writeString(
                dir.resolve("driver.yaml"),
                "name: spi-only\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path result = dir.resolve("max-rate.json");
        int code = Main.run(
                new String[] {
                    "-d", driver.toString(), "-o", result.toString(), "--report-interval", "1", workload.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        assertTrue(log.contains("Max-rate search done"), log);
        ResultSchema.assertValid(result);
        JsonNode mode = new ObjectMapper().readTree(result.toFile()).get("runMode");
        assertTrue(mode.get("findMaximumRate").asBoolean());
        JsonNode search = mode.get("maxRateSearch");
        assertTrue(search.get("completed").asBoolean(), search.toString());
        assertTrue(search.get("criterion").asText().contains("95%"), search.toString());
        JsonNode steps = search.get("steps");
        assertEquals("ramp", steps.get(0).get("stage").asText());
        assertEquals(10_000, steps.get(0).get("targetRate").asDouble());
        JsonNode last = steps.get(steps.size() - 1);
        assertEquals("confirm", last.get("stage").asText());
        assertTrue(last.get("sustained").asBoolean());
        double found = search.get("foundRate").asDouble();
        assertEquals(last.get("targetRate").asDouble(), found);
        assertTrue(
                steps.get(0).has("receivedRate"), "with a subscription the consumers' pace is part of the criterion");
        assertTrue(search.get("criterion").asText().contains("did not grow"), search.toString());
        for (JsonNode step : steps) {
            // Every window sampled what is in flight and the backlog, and read the publish delay of what it saw
            // acknowledged. The delay is recorded as a send completes, so a window in which nothing was acknowledged
            // (seen on a CI machine busy with other builds) has none, and that probe did not hold.
            assertTrue(
                    step.get("inFlightGrowth").isNumber()
                            && step.get("backlogGrowth").isNumber(),
                    step + "\n" + log);
            if (step.get("ackedRate").asDouble() > 0) {
                assertTrue(step.path("publishDelayP99Millis").asDouble(-1) >= 0, step + "\n" + log);
            } else {
                assertTrue(
                        step.path("publishDelayP99Millis").isMissingNode()
                                || step.get("publishDelayP99Millis").isNull(),
                        step + "\n" + log);
                assertTrue(!step.get("sustained").asBoolean(), step + "\n" + log);
            }
        }
        assertTrue(last.get("seconds").asDouble() >= 4.5, "the confirmation window is 5 s: " + last);
        assertTrue(
                last.get("inFlightGrowth").asDouble()
                                <= 0.02 * found / last.get("seconds").asDouble()
                        && last.get("publishDelayP99Millis").asDouble() <= 50,
                "the rate found was seen to hold: " + last);
        // The measured phase is paced at the rate found: it can fall short of it, never exceed it (open loop).
        JsonNode r = new ObjectMapper().readTree(result.toFile());
        double measuredRate = r.at("/counts/messagesSent").asLong()
                / r.at("/summary/durationSeconds").asDouble();
        assertTrue(measuredRate > 0 && measuredRate <= found * 1.05, measuredRate + " msg/s measured, found " + found);
        // And it holds it: the pacer catches up after a stall, so the run falls short only if the system's capacity
        // is below the rate found for much of its 3 s. 0.8, not the bench's 0.98: the rate found is the capacity of
        // the moment, and on a CI machine shared with other builds a neighbour's burst can take a tenth of it.
        assertTrue(measuredRate >= 0.8 * found, measuredRate + " msg/s measured, found " + found);
    }
}

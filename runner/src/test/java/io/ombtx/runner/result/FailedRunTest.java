package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.config.YamlFiles;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.AsRecorded;
import io.ombtx.runner.run.RunCoordinator;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run whose every measured operation failed is "failed", not "complete"; one with some successes stays complete. */
class FailedRunTest {

    @TempDir
    Path dir;

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private static Workload workload(boolean transactional) {
        String yaml = "name: big\nmessageSize: 1000\nloop: closed\noperation: {kind: WRITE, transactional: "
                + transactional + ", messagesPerOperation: 1}\nwarmupOperations: 0\nmeasureOperations: 30\n";
        return WorkloadLoader.expand("w.yaml", Path.of("."), (ObjectNode) YamlFiles.parse("w.yaml", yaml), null)
                .get(0);
    }

    private static RunResult build(Workload w, String partialReason, StatsSnapshot measured) {
        RunResult.Broker broker = RunResult.Broker.external(1, "localhost:9092");
        ResultBuilder.RunFacts facts = ResultBuilder.RunFacts.builder()
                .workload(AsRecorded.workload(w))
                .driverName("kafka-tx")
                .startTime(START)
                .endTime(START.plusSeconds(3))
                .partialReason(partialReason)
                .runMode(AsRecorded.runMode(w, 1))
                .versions(RunResult.Versions.of(broker))
                .broker(broker)
                .driverConfig(Map.of())
                .environment(Map.of())
                .exactlyOnce(null)
                .build();
        RunResult result = ResultBuilder.build(facts, measured, List.of(new Period(3, 3, measured, 0)));
        ResultSchema.assertValid(result, "a failed run's result");
        return result;
    }

    /** 30 operations that each ended FAILED, with their (failed) latencies recorded. */
    private static StatsSnapshot allFailed() {
        StatsSnapshot s = new StatsSnapshot();
        for (int i = 0; i < 30; i++) {
            s.histogram(Latency.OPERATION_LATENCY).recordValue(5_000);
        }
        return s.put(Counter.OPERATIONS, 30)
                .put(Counter.FAILED, 30)
                .put(Counter.PUBLISH_ERRORS, 30)
                .put(Counter.MEASURED_SPAN_NANOS, 3_000_000_000L);
    }

    @Test
    void everyOperationFailedIsAFailedRunWithAReason() throws Exception {
        RunResult r = build(workload(true), null, allFailed());
        assertEquals(RunResult.Status.FAILED, r.status());
        assertTrue(r.failureReason().contains("every measured operation failed"), r.failureReason());
        assertTrue(r.failureReason().contains("30 failed"), r.failureReason());
        assertNull(r.partialReason());

        Path file = ResultWriter.write(dir.resolve("r.json"), r);
        JsonNode json = ResultWriter.json().readTree(Files.readString(file));
        assertEquals("failed", json.get("status").asText());
        assertEquals(r.failureReason(), json.get("failureReason").asText());
        RunResult back = ResultReader.read(file);
        assertEquals(RunResult.Status.FAILED, back.status());
        assertFalse(new RunCoordinator.Outcome(file, back).complete(), "bin/benchmark exits 1");
    }

    @Test
    void failedOutranksPartial() {
        RunResult r = build(workload(false), "interrupted by SIGINT", allFailed());
        assertEquals(RunResult.Status.FAILED, r.status());
        assertEquals("interrupted by SIGINT", r.partialReason());
    }

    @Test
    void someFailuresButSuccessesStayComplete() throws Exception {
        StatsSnapshot committedOnce = allFailed().put(Counter.OPERATIONS, 31).put(Counter.COMMITTED, 1);
        RunResult tx = build(workload(true), null, committedOnce);
        assertEquals(RunResult.Status.COMPLETE, tx.status());
        assertNull(tx.failureReason());
        assertEquals(30, tx.counts().failed());
        assertTrue(new RunCoordinator.Outcome(dir, tx).complete());

        StatsSnapshot acknowledged = allFailed().put(Counter.MESSAGES_SENT, 1);
        assertEquals(
                RunResult.Status.COMPLETE,
                build(workload(false), null, acknowledged).status());
        assertFalse(JsonHas.field(build(workload(false), null, acknowledged), "failureReason"));
    }

    @Test
    void nothingAttemptedIsNotAFailure() {
        assertEquals(
                RunResult.Status.COMPLETE,
                build(workload(true), null, new StatsSnapshot()).status());
    }

    @Test
    void statusReadsFailed() {
        assertEquals(RunResult.Status.FAILED, RunResult.Status.ofKey("failed"));
    }

    private static final class JsonHas {
        static boolean field(RunResult r, String name) {
            return ResultWriter.json().valueToTree(r).has(name);
        }
    }
}

package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.ombtx.driver.api.Phase;
import io.ombtx.driver.api.config.YamlFiles;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.AsRecorded;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.stats.WorkerStats;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Transactions aborted on purpose ({@code operation.abortRatio}) in the result: counted apart from failures
 * ({@code counts.abortedOnPurpose}), the ratio and seed in {@code scenario}, and the checker's {@code abortedSeen}
 * in {@code exactlyOnce}, failing the verdict when not 0. A run without aborts writes none of these fields.
 */
class AbortsOnPurposeResultTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final String STREAM = "name: w\nmessageSize: 10\nloop: closed\nwarmupOperations: 0\n"
            + "measureOperations: 10\noperation: {kind: STREAM, transactional: true, prefillMessages: 10, verifyExactlyOnce: true";

    private static JsonNode build(String operationTail, StatsSnapshot measured, ExactlyOnceReport report)
            throws Exception {
        String yaml = STREAM + operationTail + "}\n";
        Workload w = WorkloadLoader.expand("w.yaml", Path.of("."), (ObjectNode) YamlFiles.parse("w.yaml", yaml), null)
                .get(0);
        RunResult.Broker broker = RunResult.Broker.external(1, "localhost:9092");
        ResultBuilder.RunFacts facts = ResultBuilder.RunFacts.builder()
                .workload(AsRecorded.workload(w))
                .driverName("kafka-tx")
                .startTime(START)
                .endTime(START.plusSeconds(1))
                .partialReason(null)
                .runMode(AsRecorded.runMode(w, 1))
                .versions(RunResult.Versions.of(broker))
                .broker(broker)
                .driverConfig(Map.of())
                .environment(Map.of())
                .exactlyOnce(report)
                .build();
        RunResult r = ResultBuilder.build(facts, measured, List.of(new Period(1, 1, measured, 0)));
        ResultSchema.assertValid(r, "a result with aborts on purpose");
        return ResultWriter.json().readTree(ResultWriter.json().writeValueAsString(r));
    }

    /** What a worker counts for 7 committed transactions and 3 aborted on purpose, one after a failed attempt. */
    private static StatsSnapshot sevenCommittedThreeAborted() {
        WorkerStats stats = new WorkerStats();
        Map<Phase, Long> phases = Map.of(Phase.BEGIN, 1_000L, Phase.TRANSACTION, 5_000L);
        for (int i = 0; i < 7; i++) {
            stats.recordOperation(new OperationTimings(phases, 1, Outcome.COMMITTED, 0, 0), 0, 5_000);
        }
        for (int i = 0; i < 3; i++) {
            stats.recordOperation(new OperationTimings(phases, 1, Outcome.ABORTED, i == 0 ? 1 : 0, 0), 0, 5_000);
        }
        return stats.drainInterval();
    }

    @Test
    void abortsOnPurposeAreCountedApartFromFailuresWithTheirRatioAndSeed() throws Exception {
        StatsSnapshot measured = sevenCommittedThreeAborted();
        assertEquals(3, measured.counter(Counter.ABORTED_ON_PURPOSE));
        assertEquals(1, measured.counter(Counter.ABORTED), "only the failed attempt is a failure's abort");

        JsonNode json = build(", abortRatio: 0.3, abortSeed: 7", measured, new ExactlyOnceReport(7, 0, 0, 0, 0));

        JsonNode counts = json.get("counts");
        assertEquals(10, counts.get("operations").asLong());
        assertEquals(7, counts.get("committed").asLong());
        assertEquals(3, counts.get("abortedOnPurpose").asLong());
        assertEquals(1, counts.get("aborted").asLong());
        assertEquals(0, counts.get("failed").asLong());
        assertEquals(0.3, json.at("/scenario/abortRatio").asDouble());
        assertEquals(7, json.at("/scenario/abortSeed").asLong());
        assertEquals(0, json.at("/exactlyOnce/abortedSeen").asLong());
        assertTrue(json.at("/exactlyOnce/passed").asBoolean());
    }

    @Test
    void anAbortedRecordSeenFailsTheVerdict() throws Exception {
        JsonNode json = build(", abortRatio: 0.3", sevenCommittedThreeAborted(), new ExactlyOnceReport(7, 0, 0, 0, 2));
        assertEquals(2, json.at("/exactlyOnce/abortedSeen").asLong());
        assertFalse(json.at("/exactlyOnce/passed").asBoolean());
    }

    @Test
    void aRunWithoutAbortsWritesNoneOfTheirFields() throws Exception {
        StatsSnapshot measured = new StatsSnapshot().put(Counter.OPERATIONS, 10).put(Counter.COMMITTED, 10);
        JsonNode json = build("", measured, new ExactlyOnceReport(10, 0, 0, 0));
        assertFalse(json.get("counts").has("abortedOnPurpose"));
        assertFalse(json.get("scenario").has("abortRatio"));
        assertFalse(json.get("scenario").has("abortSeed"));
        assertFalse(json.get("exactlyOnce").has("abortedSeen"));
        assertTrue(json.at("/exactlyOnce/passed").asBoolean());
    }
}

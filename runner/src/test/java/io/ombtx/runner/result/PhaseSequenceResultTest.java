package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.Phase;
import io.ombtx.driver.api.config.YamlFiles;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.AsRecorded;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The measured operations' phase sequences, merged over workers, become the result's {@code scenario.phaseSequence}
 * (the one most ran, as phase names) and {@code environment.phaseSequences} (every sequence with its count).
 */
class PhaseSequenceResultTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private static RunResult build(StatsSnapshot measured, Map<String, Object> environment) {
        String yaml =
                "name: w\nmessageSize: 10\nloop: closed\noperation: {kind: WRITE, transactional: true, sendOffsets: true}\n"
                        + "warmupOperations: 0\nmeasureOperations: 13\n";
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
                .environment(environment)
                .exactlyOnce(null)
                .build();
        RunResult result = ResultBuilder.build(facts, measured, List.of(new Period(1, 1, measured, 0)));
        ResultSchema.assertValid(result, "a result with phase sequences");
        return result;
    }

    @Test
    void theSequenceMostWorkersOperationsRanIsTheScenariosAndEveryCountIsInTheEnvironment() throws Exception {
        List<Phase> afterCommit = List.of(Phase.BEGIN, Phase.SEND, Phase.SEND_OFFSETS, Phase.COMMIT, Phase.RESOLVE);
        List<Phase> retried = List.of(
                Phase.BEGIN, Phase.SEND, Phase.ABORT, Phase.BEGIN, Phase.SEND, Phase.SEND_OFFSETS, Phase.COMMIT);
        StatsSnapshot first = new StatsSnapshot().put(Counter.OPERATIONS, 6).put(Counter.COMMITTED, 6);
        first.phaseSequences().count(afterCommit, 5).count(retried, 1);
        StatsSnapshot second = new StatsSnapshot().put(Counter.OPERATIONS, 7).put(Counter.COMMITTED, 7);
        second.phaseSequences().count(afterCommit, 7);
        Map<String, Object> reported = Map.of("clusterId", "c1");

        RunResult r = build(first.add(second), reported);

        assertEquals(
                List.of("begin", "send", "sendOffsets", "commit", "resolve"),
                r.scenario().phaseSequence());
        JsonNode json = ResultWriter.json().readTree(ResultWriter.json().writeValueAsString(r));
        assertEquals(
                "{\"clusterId\":\"c1\",\"phaseSequences\":{\"begin,send,abort,begin,send,sendOffsets,commit\":1,"
                        + "\"begin,send,sendOffsets,commit,resolve\":12}}",
                json.get("environment").toString());
        assertEquals(
                "[\"begin\",\"send\",\"sendOffsets\",\"commit\",\"resolve\"]",
                json.at("/scenario/phaseSequence").toString());
    }

    @Test
    void aDriverThatReportsNoSequenceLeavesBothOut() throws Exception {
        StatsSnapshot measured = new StatsSnapshot().put(Counter.OPERATIONS, 13).put(Counter.COMMITTED, 13);
        Map<String, Object> reported = Map.of("clusterId", "c1");
        RunResult r = build(measured, reported);
        assertNull(r.scenario().phaseSequence());
        assertEquals(reported, r.environment());
        JsonNode json = ResultWriter.json().readTree(ResultWriter.json().writeValueAsString(r));
        assertFalse(json.get("scenario").has("phaseSequence"));
    }
}

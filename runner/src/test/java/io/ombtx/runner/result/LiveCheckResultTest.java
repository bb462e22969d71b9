package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.LiveCheckReport.Kind;
import io.ombtx.driver.api.LiveCheckReport.Violation;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.YamlFiles;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.AsRecorded;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.WorkerProtocol;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code operation.liveCheck}: its report in {@code exactlyOnce.live} (counts, its own verdict, the violations with
 * their offsets and when they were seen), on the worker protocol as in the result, and the workload key's checks.
 */
class LiveCheckResultTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final String STREAM = "name: w\nmessageSize: 10\nloop: closed\nwarmupOperations: 0\n"
            + "measureOperations: 10\noperation: {kind: STREAM, transactional: true, prefillMessages: 10";

    private static Workload workload(String operationTail) {
        String yaml = STREAM + operationTail + "}\n";
        return WorkloadLoader.expand("w.yaml", Path.of("."), (ObjectNode) YamlFiles.parse("w.yaml", yaml), null)
                .get(0);
    }

    private static RunResult build(Workload w, ExactlyOnceReport report, LiveCheckReport live) {
        RunResult.Broker broker = RunResult.Broker.external(1, "localhost:9092");
        ResultBuilder.RunFacts facts = ResultBuilder.RunFacts.builder()
                .workload(AsRecorded.workload(w))
                .driverName("kafka-tx")
                .startTime(START)
                .endTime(START.plusSeconds(1))
                .runMode(AsRecorded.runMode(w, 1))
                .versions(RunResult.Versions.of(broker))
                .broker(broker)
                .driverConfig(Map.of())
                .environment(Map.of())
                .exactlyOnce(report)
                .liveCheck(live)
                .build();
        StatsSnapshot measured = new StatsSnapshot().put(Counter.OPERATIONS, 10).put(Counter.COMMITTED, 10);
        RunResult result = ResultBuilder.build(facts, measured, List.of(new Period(1, 1, measured, 0)));
        ResultSchema.assertValid(result, "a result with a live check");
        return result;
    }

    private static final LiveCheckReport BROKEN = new LiveCheckReport(
            12,
            1,
            0,
            1,
            0,
            0,
            true,
            List.of(
                    new Violation(
                            Kind.DUPLICATE,
                            "w-out",
                            0,
                            11,
                            0,
                            5,
                            START.toEpochMilli() + 2_500,
                            "source record 0:5 was already in the output"),
                    new Violation(Kind.UNKNOWN_SOURCE, "w-out", 0, 3, -1, -1, START.toEpochMilli() - 1_250, "x")));

    @Test
    void theLiveReportIsWrittenBesideTheVerdictWithItsOffsetsAndTimes() throws Exception {
        Workload w = workload(", verifyExactlyOnce: true, liveCheck: true");
        assertTrue(w.liveCheck());
        RunResult r = build(w, new ExactlyOnceReport(10, 0, 0, 0), BROKEN);
        String written = ResultWriter.json().writeValueAsString(r);
        JsonNode eo = ResultWriter.json().readTree(written).get("exactlyOnce");

        assertTrue(eo.get("passed").asBoolean(), "the check after the run keeps its own verdict");
        JsonNode live = eo.get("live");
        assertEquals(
                List.of(
                        "outputsRead",
                        "duplicates",
                        "abortedSeen",
                        "uncommitted",
                        "outOfOrder",
                        "unknownSource",
                        "readToEnd",
                        "passed",
                        "violations"),
                fieldNames(live));
        assertEquals(12, live.get("outputsRead").asLong());
        assertFalse(live.get("passed").asBoolean());
        JsonNode first = live.at("/violations/0");
        assertEquals("duplicate", first.get("kind").asText());
        assertEquals("w-out", first.get("topic").asText());
        assertEquals(11, first.get("offset").asLong());
        assertEquals(5, first.get("sourceOffset").asLong());
        assertEquals(2.5, first.get("seenAtSeconds").asDouble(), "seconds from the start of the measurement");
        JsonNode second = live.at("/violations/1");
        assertEquals("unknownSource", second.get("kind").asText());
        assertFalse(second.has("sourcePartition") || second.has("sourceOffset"), "it names no source record");
        assertEquals(-1.25, second.get("seenAtSeconds").asDouble(), "seen before the measurement began");

        assertEquals(r, ResultWriter.json().readValue(written, RunResult.class), "reads back into an equal result");
    }

    @Test
    void aRunWithoutTheLiveCheckWritesNoLiveField() throws Exception {
        RunResult r = build(workload(", verifyExactlyOnce: true"), new ExactlyOnceReport(10, 0, 0, 0), null);
        JsonNode eo = ResultWriter.json()
                .readTree(ResultWriter.json().writeValueAsString(r))
                .get("exactlyOnce");
        assertFalse(eo.has("live"));
    }

    @Test
    void theReportCrossesTheWorkerProtocolUnchanged() throws Exception {
        String wire = WorkerProtocol.JSON.writeValueAsString(BROKEN);
        assertTrue(wire.contains("\"kind\":\"duplicate\""), wire);
        assertEquals(BROKEN, WorkerProtocol.JSON.readValue(wire, LiveCheckReport.class));
    }

    @Test
    void theLiveCheckNeedsAStreamCheckedAfterTheRunToo() {
        ConfigException alone = assertThrows(ConfigException.class, () -> workload(", liveCheck: true"));
        assertTrue(alone.getMessage().contains("operation.liveCheck"), alone.getMessage());
        assertTrue(alone.getMessage().contains("verifyExactlyOnce: true"), alone.getMessage());
        ConfigException notStream = assertThrows(
                ConfigException.class,
                () -> WorkloadLoader.expand(
                        "w.yaml",
                        Path.of("."),
                        (ObjectNode) YamlFiles.parse(
                                "w.yaml",
                                "name: w\nmessageSize: 10\nproducerRate: 10\nmeasureOperations: 5\noperation: {kind: WRITE, transactional:"
                                        + " true, liveCheck: true}\n"),
                        null));
        assertTrue(notStream.getMessage().contains("STREAM"), notStream.getMessage());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}

package io.ombtx.runner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.config.YamlFiles;
import io.ombtx.runner.config.FaultAction;
import io.ombtx.runner.config.FaultRecovery;
import io.ombtx.runner.config.FaultTarget;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.result.ResultWriter;
import io.ombtx.runner.result.RunResult;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The input crosses into the result by the names both spell alike: every workload enum the result records has a
 * result enum of exactly the same names in files, so the result's own types write what the workload's wrote.
 */
class AsRecordedTest {

    private static <E extends Enum<E>> List<String> keys(E[] values, Function<E, String> key) {
        return Arrays.stream(values).map(key).sorted().toList();
    }

    @Test
    void theResultsEnumsSpellEveryNameOfTheWorkloadsAndNoOther() throws Exception {
        assertEquals(keys(LoopMode.values(), LoopMode::key), keys(RunResult.Loop.values(), RunResult.Loop::key));
        assertEquals(
                keys(FaultAction.values(), FaultAction::key),
                keys(RunResult.FaultEvent.Action.values(), RunResult.FaultEvent.Action::key));
        assertEquals(
                keys(FaultTarget.values(), FaultTarget::key),
                keys(RunResult.FaultEvent.Target.values(), RunResult.FaultEvent.Target::key));
        assertEquals(
                keys(FaultRecovery.values(), FaultRecovery::key),
                keys(RunResult.FaultEvent.Recovery.values(), RunResult.FaultEvent.Recovery::key));
        for (LoopMode loop : LoopMode.values()) {
            assertEquals(
                    ResultWriter.json().writeValueAsString(loop),
                    ResultWriter.json().writeValueAsString(AsRecorded.loop(loop)),
                    "written alike");
        }
        for (FaultTarget target : FaultTarget.values()) {
            assertEquals(
                    target.isClient(),
                    RunResult.FaultEvent.Target.ofKey(target.key()).isClient(),
                    target.key());
        }
    }

    private static Workload workload(String yaml) {
        return WorkloadLoader.expand("w.yaml", Path.of("."), (ObjectNode) YamlFiles.parse("w.yaml", yaml), null)
                .get(0);
    }

    @Test
    void aCountBasedClosedLoopIsRecordedInOperationsAndMessages() {
        Workload w = workload(
                """
                name: w
                topics: 1
                partitionsPerTopic: 1
                messageSize: 10
                subscriptionsPerTopic: 0
                loop: closed
                operation:
                  kind: WRITE
                  transactional: true
                  messagesPerOperation: 3
                warmupOperations: 5
                measureOperations: 20
                """);
        RunResult.RunMode mode = AsRecorded.runMode(w, 2);
        assertEquals(RunResult.Loop.CLOSED, mode.loop());
        assertNull(mode.targetRate());
        assertFalse(mode.findMaximumRate());
        assertEquals(RunResult.RunLength.operations(5, 15), mode.warmup());
        assertEquals(RunResult.RunLength.operations(20, 60), mode.measure());
        assertEquals(10, mode.ombPeriodSeconds(), "2-s periods merged into OMB's 10-s ones");
        assertEquals(mode, AsRecorded.runMode(Measurement.of(w), 2), "the plan's measurement records the same");
        assertEquals("w", AsRecorded.workload(w).name());
        assertEquals(3, AsRecorded.scenario(w).messagesPerOperation());
    }

    @Test
    void anOpenLoopWithoutARateSearchesForIt() {
        Workload w = workload(
                """
                name: w
                topics: 1
                partitionsPerTopic: 1
                messageSize: 10
                subscriptionsPerTopic: 1
                loop: open
                producerRate: 0
                warmupDurationMinutes: 1
                testDurationMinutes: 2
                """);
        RunResult.RunMode mode = AsRecorded.runMode(w, 10);
        assertEquals(RunResult.Loop.OPEN, mode.loop());
        assertTrue(mode.findMaximumRate());
        assertNull(mode.targetRate());
        assertEquals(RunResult.RunLength.seconds(60), mode.warmup());
        assertEquals(RunResult.RunLength.seconds(120), mode.measure());
    }
}

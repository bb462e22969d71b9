package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The phase sequences a driver reports become the result's scenario.phaseSequence. */
class PhaseSequencesTest {

    @Test
    void theSequenceMostOperationsRanIsTheScenarios() {
        Map<String, Object> environment = Map.of(
                "phaseSequences",
                Map.of(
                        "begin,send,sendOffsets,commit,resolve",
                        398L,
                        "begin,send,sendOffsets,abort,begin,send,sendOffsets,commit,resolve",
                        2));
        assertEquals(
                List.of("begin", "send", "sendOffsets", "commit", "resolve"), PhaseSequences.dominant(environment));
    }

    @Test
    void aDriverThatReportsNoneGivesNone() {
        assertNull(PhaseSequences.dominant(Map.of("clusterId", "x")));
        assertNull(PhaseSequences.dominant(Map.of("phaseSequences", "not a map")));
        assertNull(PhaseSequences.dominant(null));
    }

    @Test
    void workersSequencesAddUpAndTheFirstWorkersFactsStay() {
        Map<String, Object> producer = Map.of("clusterId", "c", "phaseSequences", Map.of());
        Map<String, Object> consumer = Map.of("clusterId", "c", "phaseSequences", Map.of("send,commit,resolve", 5));
        Map<String, Object> other =
                Map.of("phaseSequences", Map.of("send,commit,resolve", 7, "send,resolve,commit", 1));
        Map<String, Object> merged = PhaseSequences.merged(producer, List.of(producer, consumer, other));
        assertEquals("c", merged.get("clusterId"));
        assertEquals(Map.of("send,commit,resolve", 12L, "send,resolve,commit", 1L), merged.get("phaseSequences"));
        assertSame(producer, PhaseSequences.merged(producer, List.of(producer)), "nothing to add");
    }
}

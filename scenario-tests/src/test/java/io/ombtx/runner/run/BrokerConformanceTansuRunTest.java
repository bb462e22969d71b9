package io.ombtx.runner.run;

import static io.ombtx.runner.run.BrokerConformanceRunTest.byGuarantee;
import static io.ombtx.runner.run.BrokerConformanceRunTest.driver;
import static io.ombtx.runner.run.BrokerConformanceRunTest.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.result.RunResult.Conformance.Verdict;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The aborted-records row of suites/broker-conformance.yaml on the embedded Tansu 0.6.0: its verdict must be what its
 * counts say, with the exit status that a broken guarantee gives (3), not a failed run's (1).
 */
@Tag("integration")
class BrokerConformanceTansuRunTest {

    @TempDir
    Path results;

    @Test
    void tansuAbortedRecordsRowSaysWhatTansuDoes() throws Exception {
        Main.Captured run = Main.capture(
                "-d",
                driver(),
                "--broker-system",
                "tansu",
                "--profile",
                "quick",
                "-o",
                results.toString(),
                workload("aborted-invisible"));
        RunResult r = byGuarantee(results).get("aborted-invisible");
        assertNotNull(r, run.out() + run.err());
        assertEquals(RunResult.Broker.SystemKind.TANSU, r.broker().system());
        assertEquals("0.6.0", r.broker().version());
        assertEquals(RunResult.Status.COMPLETE, r.status(), r.partialReason());
        RunResult.Conformance c = r.conformance();
        Map<String, Long> counts = c.counts();
        RunResult.ExactlyOnce eo = r.exactlyOnce();
        // The row's counts are the checks' own.
        assertEquals(eo.checked(), counts.get("checked"), c.toString());
        assertEquals(eo.abortedSeen(), counts.get("abortedSeen"), c.toString());
        assertEquals(eo.live().abortedSeen(), counts.get("abortedSeenLive"), c.toString());
        assertEquals(r.counts().abortedOnPurpose(), counts.get("abortedOnPurpose"), c.toString());
        assertTrue(counts.get("abortedOnPurpose") > 0 && counts.get("checked") > 0, c.toString());
        long seen = counts.get("abortedSeen") + counts.get("abortedSeenLive");
        // The verdict is what the counts say, and the exit status a broken guarantee's, not a failed run's.
        assertEquals(seen > 0 ? Verdict.FAIL : Verdict.PASS, c.verdict(), c.toString());
        assertEquals(seen > 0 ? Main.GUARANTEE_BROKEN : Main.OK, run.code(), run.out() + run.err());
        if (seen > 0) {
            assertTrue(c.firstViolation() != null && c.firstViolation().contains("aborted on purpose"), c.toString());
            assertTrue(
                    run.out().contains("Conformance of tansu 0.6.0: aborted-invisible")
                            && run.out().contains("FAIL"),
                    run.out());
        }
        // What Tansu 0.6.0 does (docs/conformance.md): read_committed consumers are handed records of aborted
        // transactions. A later release that fixes it changes this line, and the pinned version with it.
        assertEquals(Verdict.FAIL, c.verdict(), "Tansu 0.6.0 showed no aborted record this time: " + c);
    }
}

package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.result.RunResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick profile of suites/eos-matrix.yaml runs on 3 embedded brokers (Kafka 4.1.1 on both transaction versions,
 * and 2.8.2 on its own client in a worker JVM of its own), and every run holds exactly-once under its broker bounce:
 * complete, the fault injected and recovered from, 0 duplicated, 0 missing, 0 aborted records seen, and the live
 * check, which read the whole output during the run, saw no violation. The 4.1.1 tv2 cell always runs; the other two
 * are tagged slow (bin/test slow).
 */
@Tag("integration")
class EosMatrixQuickRunTest {

    @TempDir
    Path results;

    /** The default release point, Kafka 4.1.1 at transaction version 2: a coordinator killed, with random aborts. */
    @Test
    void theDefaultReleasePointHoldsExactlyOnceLiveAndAfterwards() throws Exception {
        assertEveryRunHolds(QuickSuite.runEntries("suites/eos-matrix.yaml", results, List.of("quick-4.1.1-tv2")), 1);
    }

    /** The quick profile's other cells: 4.1.1 at transaction version 1 and the seeds' 2.8.2 on its own client. */
    @Tag("slow")
    @Test
    void theOtherQuickReleasePointsHoldExactlyOnceLiveAndAfterwards() throws Exception {
        assertEveryRunHolds(
                QuickSuite.runEntries("suites/eos-matrix.yaml", results, List.of("quick-4.1.1-tv1", "quick-2.8.2")), 2);
    }

    private static void assertEveryRunHolds(QuickSuite suite, int expected) {
        String log = suite.log();
        List<RunResult> runs = suite.runs();
        assertEquals(expected, runs.size(), log);
        for (RunResult r : runs) {
            String run = r.workload() + " on Kafka " + r.broker().version() + ": ";
            assertEquals(RunResult.Status.COMPLETE, r.status(), run + r.partialReason());
            assertEquals(1, r.faults().size(), run);
            RunResult.FaultEvent fault = r.faults().get(0);
            assertTrue(fault.succeeded() && fault.recoveredEpochMillis() != null, run + fault);

            RunResult.ExactlyOnce eo = r.exactlyOnce();
            assertTrue(eo != null && eo.checked() > 0, run + eo);
            assertEquals(0, eo.duplicated(), run + eo);
            assertEquals(0, eo.missing(), run + eo);
            assertEquals(0, eo.unexpected(), run + eo);
            assertEquals(0, eo.abortedSeen() == null ? 0 : eo.abortedSeen(), run + eo);
            assertTrue(eo.passed(), run + eo);

            RunResult.LiveCheck live = eo.live();
            assertTrue(live != null && live.readToEnd(), run + live);
            assertTrue(live.outputsRead() >= eo.checked(), run + "the live check read the whole output: " + live);
            assertEquals(List.of(), live.violations(), run);
            assertEquals(
                    0, live.duplicates() + live.abortedSeen() + live.uncommitted() + live.outOfOrder(), run + live);
            assertTrue(live.passed(), run + live);

            if (r.workload().endsWith("-aborts")) {
                Long aborted = r.counts().abortedOnPurpose();
                assertTrue(aborted != null && aborted > 0, run + "aborted on purpose: " + r.counts());
            }
        }
        assertTrue(log.contains("Live check: "), log);
    }
}

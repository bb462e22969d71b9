package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.SuiteMain;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick profile of suites/eos-matrix.yaml runs on 3 embedded brokers (Kafka 4.1.1 on both transaction versions,
 * and 2.8.2 on its own client in a worker JVM of its own), and every run holds exactly-once under its broker bounce:
 * complete, the fault injected and recovered from, 0 duplicated, 0 missing, 0 aborted records seen, and the live
 * check, which read the whole output during the run, saw no violation.
 */
@Tag("integration")
class EosMatrixQuickRunTest {

    @TempDir
    Path results;

    @Test
    void everyQuickRunHoldsExactlyOnceLiveAndAfterwards() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = SuiteMain.run(
                new String[] {
                    "--profile",
                    "quick",
                    "-o",
                    results.toString(),
                    OmbTxHome.locate().resolve("suites/eos-matrix.yaml").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        List<RunResult> runs = new ArrayList<>();
        try (Stream<Path> files = Files.list(results)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                runs.add(ResultReader.read(file));
            }
        }
        assertEquals(3, runs.size(), log);
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

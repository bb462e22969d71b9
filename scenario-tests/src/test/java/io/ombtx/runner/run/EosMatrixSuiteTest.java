package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.SuiteMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * suites/eos-matrix.yaml plans (dry run, no broker): the quick subset for CI, and the full matrix of 14 cells (hard and
 * clean bounces of the coordinator and of a leader, with and without random aborts; the processor killed, with and
 * without random aborts, stopped, paused as a zombie; group mode with and without random aborts) on 4 release points,
 * every run checked live and after the run.
 */
class EosMatrixSuiteTest {

    private record DryRun(int code, String out, String err) {
        int count(String regex) {
            Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(out);
            int n = 0;
            while (m.find()) {
                n++;
            }
            return n;
        }
    }

    static DryRun dryRun(String profile) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SuiteMain.run(
                new String[] {
                    "--dry-run",
                    "--profile",
                    profile,
                    OmbTxHome.locate().resolve("suites/eos-matrix.yaml").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new DryRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theQuickProfilePlansOneCellOnEachOfThreeReleasePoints() {
        DryRun o = dryRun("quick");
        assertEquals(0, o.code(), o.err());
        assertEquals(3, o.count("^ +\\d+\\. "), "runs planned:\n" + o.out());
        assertEquals(3, o.count("exactly-once check \\(live and after the run\\)"), o.out());
        assertEquals(1, o.count("^ +kafka +4\\.1\\.1 \\(KRaft, transaction\\.version 2\\)"), o.out());
        assertEquals(1, o.count("^ +kafka +4\\.1\\.1 \\(KRaft, transaction\\.version 1\\)"), o.out());
        assertEquals(1, o.count("^ +kafka +2\\.8\\.2 "), o.out());
        assertTrue(o.out().contains("tx-streaming-broker-coordinator-kill-aborts"), o.out());
        assertEquals(1, o.count("^ +\\d+\\. tx-streaming-broker-leader-kill "), o.out());
        assertEquals(1, o.count("^ +\\d+\\. tx-streaming-broker-leader-stop-aborts "), o.out());
    }

    @Test
    void theFullProfilePlansEveryCellOnEveryReleasePoint() {
        DryRun o = dryRun("full");
        assertEquals(0, o.code(), o.err());
        assertEquals(56, o.count("^ +\\d+\\. "), "8 broker and 6 client cells × 4 release points:\n" + o.out());
        assertEquals(56, o.count("exactly-once check \\(live and after the run\\)"), o.out());
        String[] clientCells = {"client-kill", "client-kill-aborts", "client-bounce", "zombie", "group", "group-aborts"
        };
        for (String cell : clientCells) {
            assertEquals(4, o.count("^ +\\d+\\. tx-streaming-" + cell + " "), cell);
        }
        for (String cell : new String[] {"coordinator-kill", "coordinator-stop", "leader-kill", "leader-stop"}) {
            assertEquals(4, o.count("^ +\\d+\\. tx-streaming-broker-" + cell + " "), cell);
            assertEquals(4, o.count("^ +\\d+\\. tx-streaming-broker-" + cell + "-aborts "), cell + " with aborts");
        }
    }
}

package io.ombtx.driver.kafka;

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

/** suites/seed-findings.yaml plans cleanly (dry run: no broker), in both profiles, with what a report needs. */
class SeedFindingsSuiteTest {

    private record Outcome(int code, String out, String err) {}

    private static Outcome dryRun(String profile) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SuiteMain.run(
                new String[] {
                    "--dry-run",
                    "--profile",
                    profile,
                    OmbTxHome.locate().resolve("suites/seed-findings.yaml").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void theQuickProfilePlansEveryComparisonOnceOnEachBrokerRelease() {
        Outcome o = dryRun("quick");
        assertEquals(0, o.code(), o.err());
        assertEquals("", o.err());
        assertEquals(36, count(o.out(), "^ +\\d+\\. "), "runs planned:\n" + o.out());
        assertEquals(18, count(o.out(), "^ +kafka +2\\.8\\.2 "), "half on the seeds' release");
        assertEquals(18, count(o.out(), "^ +kafka +4\\.1\\.1 \\(KRaft, transaction\\.version 2\\)"), "half on 4.1");
        assertEquals(36, count(o.out(), "^ +repetition +1 of 1, group \\S+, comparison \\S+"), "each names its group");
        for (String comparison : new String[] {
            "writes", "streaming", "streaming-ack-first", "backoff", "seed-001", "bulk", "acks-sla", "rps-knee"
        }) {
            for (String release : new String[] {"2.8", "4.1"}) {
                assertTrue(
                        o.out().contains("comparison " + comparison + "-" + release + " "),
                        comparison + "-" + release + " planned");
            }
        }
        // Both orders of streaming, transactional and naive, are planned and announced.
        assertTrue(
                o.out().contains("order       awaitAcks after-commit: begin, send, sendOffsets, commit, resolve"),
                o.out());
        assertTrue(
                o.out()
                        .contains(
                                "order       awaitAcks before-send-offsets: begin, send, resolve, sendOffsets, commit"),
                o.out());
        assertTrue(o.out().contains("order       awaitAcks before-commit: send, resolve, commit"), o.out());
        assertTrue(o.out().contains("order       awaitAcks after-commit: send, commit, resolve"), o.out());
    }

    @Test
    void theFullProfileRepeatsEachComparisonFiveTimesInterleaved() {
        Outcome o = dryRun("full");
        assertEquals(0, o.code(), o.err());
        int once = count(o.out(), "^ +repetition +1 of 5, .*interleaved");
        assertTrue(once >= 36, "every comparison's runs: " + once);
        assertEquals(once, count(o.out(), "^ +repetition +5 of 5, .*interleaved"));
        assertEquals(5 * once, count(o.out(), "^ +\\d+\\. "), "every run five times");
    }
}

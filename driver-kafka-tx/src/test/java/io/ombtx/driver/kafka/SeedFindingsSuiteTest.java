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
    void theQuickProfilePlansEveryComparisonOnItsSeedsSetUpAndOnKafka41() {
        Outcome o = dryRun("quick");
        assertEquals(0, o.code(), o.err());
        assertEquals("", o.err());
        assertEquals(56, count(o.out(), "^ +\\d+\\. "), "runs planned:\n" + o.out());
        assertEquals(28, count(o.out(), "^ +kafka +4\\.1\\.1 \\(KRaft, transaction\\.version 2\\)"), "half on 4.1");
        assertEquals(56, count(o.out(), "^ +repetition +1 of 1, group \\S+, comparison \\S+"), "each names its group");
        // The seeds' own releases, each with its own client in a worker JVM of its own.
        for (String release : new String[] {"2.7.2", "2.8.0", "2.8.2"}) {
            assertEquals(
                    count(o.out(), "^ +kafka +" + Pattern.quote(release) + " \\(ZooKeeper"),
                    count(o.out(), "^ +client +kafka-clients " + Pattern.quote(release) + " in a worker JVM"),
                    release + ": every run on the seed's broker runs the seed's client");
        }
        assertEquals(28, count(o.out(), "^ +client +kafka-clients 2\\."), "half on the seeds' clients");
        // The set-ups: seed 001's single node at max consistency, seed 003's tuned 3 nodes, seed 000's RF 3.
        assertTrue(o.out().contains("comparison seed-001-single-node "), o.out());
        assertEquals(
                8, count(o.out(), "^ +broker +embedded Kafka, 1 broker\\(s\\), profile max-consistency$"), o.out());
        assertTrue(o.out().contains("driver-kafka-tx/kafka-tx-tuned.yaml ("), o.out());
        assertTrue(
                o.out().contains("(driver-kafka-tx/kafka-tx-rf3.yaml")
                        || o.out().contains("kafka-tx-rf3"),
                o.out());
        for (String comparison : new String[] {
            "writes-000",
            "streaming-000",
            "streaming-ack-first-000",
            "seed-001-3-nodes",
            "acks-sla-002",
            "streaming-003-tuned",
            "backoff-003-default",
            "bulk-003",
            "rps-knee-004",
            "writes-4.1",
            "streaming-tuned-4.1",
            "backoff-default-4.1",
            "rps-knee-4.1"
        }) {
            assertTrue(o.out().contains("comparison " + comparison + " "), comparison + " planned");
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
        assertTrue(once >= 56, "every comparison's runs: " + once);
        assertEquals(once, count(o.out(), "^ +repetition +5 of 5, .*interleaved"));
        assertEquals(5 * once, count(o.out(), "^ +\\d+\\. "), "every run five times");
    }
}

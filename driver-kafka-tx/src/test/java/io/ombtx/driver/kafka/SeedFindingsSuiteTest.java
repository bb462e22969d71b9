package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** suites/seed-findings.yaml plans cleanly (dry run: no broker), in both profiles, with what a report needs. */
class SeedFindingsSuiteTest {

    private static SuiteDryRun dryRun(String profile) {
        return SuiteDryRun.of("suites/seed-findings.yaml", profile);
    }

    @Test
    void theQuickProfilePlansEveryComparisonOnItsSeedsSetUpAndOnKafka41() {
        SuiteDryRun o = dryRun("quick");
        assertEquals(0, o.code(), o.err());
        assertEquals("", o.err());
        assertEquals(56, o.count("^ +\\d+\\. "), "runs planned:\n" + o.out());
        assertEquals(28, o.count("^ +kafka +4\\.1\\.1 \\(KRaft, transaction\\.version 2\\)"), "half on 4.1");
        assertEquals(56, o.count("^ +repetition +1 of 1, group \\S+, comparison \\S+"), "each names its group");
        // The seeds' own releases, each with its own client in a worker JVM of its own.
        for (String release : new String[] {"2.7.2", "2.8.0", "2.8.2"}) {
            assertEquals(
                    o.count("^ +kafka +" + Pattern.quote(release) + " \\(ZooKeeper"),
                    o.count("^ +client +kafka-clients " + Pattern.quote(release) + " in a worker JVM"),
                    release + ": every run on the seed's broker runs the seed's client");
        }
        assertEquals(28, o.count("^ +client +kafka-clients 2\\."), "half on the seeds' clients");
        // The set-ups: seed 001's single node at max consistency, seed 003's tuned 3 nodes, seed 000's RF 3.
        assertTrue(o.out().contains("comparison seed-001-single-node "), o.out());
        assertEquals(8, o.count("^ +broker +embedded Kafka, 1 broker\\(s\\), profile max-consistency$"), o.out());
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
        SuiteDryRun o = dryRun("full");
        assertEquals(0, o.code(), o.err());
        int once = o.count("^ +repetition +1 of 5, .*interleaved");
        assertTrue(once >= 56, "every comparison's runs: " + once);
        assertEquals(once, o.count("^ +repetition +5 of 5, .*interleaved"));
        assertEquals(5 * once, o.count("^ +\\d+\\. "), "every run five times");
    }

    @Test
    void theVerdictProfileRunsFiveInterleavedRepetitionsOnClustersKeptBetweenRuns() {
        SuiteDryRun o = dryRun("verdict");
        assertEquals(0, o.code(), o.err());
        // 56 runs as in quick, and the knee's sweep at 10K and 50K msg/s too (2 rates more on each release).
        assertEquals(60, o.count("^ +repetition +1 of 5, .*interleaved"), o.out());
        assertEquals(5 * 60, o.count("^ +\\d+\\. "), "every run five times");
        // The workloads' own verdict counts: the transactional closed loops 20 + 100 operations.
        assertEquals(
                5 * 34,
                o.count("^ +load +.*; warm-up 20 op\\(s\\), measure 100 op\\(s\\);"),
                "tx-writes, tx-streaming, tx-streaming-ack-first, tx-send-offsets, tx-fetch:\n" + o.out());
        // One start per set-up in a row: 2.7.2 3 brokers, 2.8.2 1 and 3 at max consistency, 2.7.2 again (002),
        // 2.8.0 3 at max consistency, 2.8.0 1, then the same six on 4.1.1 — not one per run.
        assertTrue(o.out().contains("Brokers: --reuse-brokers: 12 embedded cluster start(s) for 300 run(s)"), o.out());
    }
}

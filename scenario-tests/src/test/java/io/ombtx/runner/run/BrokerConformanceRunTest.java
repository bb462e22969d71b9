package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.config.Guarantee;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.result.RunResult.Conformance.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * suites/broker-conformance.yaml on a real broker: the seven guarantees' quick workloads on the embedded Kafka 4.1.1,
 * each a pass with the counts that show it was put to the test. The row on Tansu is {@link
 * BrokerConformanceTansuRunTest}, a class of its own so that the two run side by side.
 */
@Tag("integration")
class BrokerConformanceRunTest {

    /** The guarantees' ids, in the order docs/conformance.md numbers them. */
    private static final String[] GUARANTEES =
            Arrays.stream(Guarantee.values()).map(Guarantee::id).toArray(String[]::new);

    @TempDir
    Path results;

    @Test
    void kafkaKeepsEveryGuarantee() throws Exception {
        List<String> args = new ArrayList<>(
                List.of("-d", driver(), "--profile", "quick", "--reuse-brokers", "-o", results.toString()));
        for (String g : GUARANTEES) {
            args.add(workload(g));
        }
        Main.Captured run = Main.capture(args.toArray(String[]::new));
        assertEquals(Main.OK, run.code(), run.out() + run.err());
        Map<String, RunResult> byGuarantee = byGuarantee(results);
        assertEquals(List.of(GUARANTEES), List.copyOf(byGuarantee.keySet()), run.out());
        for (RunResult r : byGuarantee.values()) {
            RunResult.Conformance c = r.conformance();
            assertEquals(RunResult.Broker.SystemKind.KAFKA, r.broker().system(), c.guarantee());
            assertEquals("4.1.1", r.broker().version(), c.guarantee());
            assertEquals(Verdict.PASS, c.verdict(), c.toString());
            assertNull(c.firstViolation(), c.toString());
        }
        Map<String, Long> aborted = counts(byGuarantee, "aborted-invisible");
        assertTrue(aborted.get("abortedOnPurpose") > 0, aborted.toString());
        assertEquals(0L, aborted.get("abortedSeen"), aborted.toString());
        assertEquals(0L, aborted.get("abortedSeenLive"), aborted.toString());
        assertTrue(aborted.get("checked") > 0, aborted.toString());

        Map<String, Long> atomic = counts(byGuarantee, "offsets-atomic");
        assertEquals(
                0L, atomic.get("uncommitted") + atomic.get("missing") + atomic.get("unexpected"), atomic.toString());
        assertTrue(atomic.get("outputsRead") >= atomic.get("checked"), atomic.toString());

        Map<String, Long> kill = counts(byGuarantee, "no-duplicates-after-kill");
        assertEquals(1L, kill.get("kills"), kill.toString());
        assertEquals(10L, kill.get("reprocessedRecords"), "the kill cut a transaction of 10 records: " + kill);
        assertEquals(0L, kill.get("duplicated") + kill.get("duplicatesLive") + kill.get("missing"), kill.toString());

        Map<String, Long> zombie = counts(byGuarantee, "zombie-fenced");
        assertEquals(1L, zombie.get("zombies"), zombie.toString());
        assertEquals(1L, zombie.get("fencings"), zombie.toString());
        assertEquals(0L, zombie.get("zombieCommits"), zombie.toString());

        Map<String, Long> lso = counts(byGuarantee, "open-transaction-holds-lso");
        assertEquals(5L, lso.get("deliveredBefore"), lso.toString());
        assertEquals(0L, lso.get("visibleWhileOpen"), lso.toString());
        assertEquals(lso.get("openFirstOffset"), lso.get("lastStableOffset"), lso.toString());
        assertEquals(lso.get("openFirstOffset"), lso.get("readerPosition"), lso.toString());
        // 5 committed, the commit marker, 5 open: the open transaction starts at offset 6; 5 more and a marker after.
        assertEquals(6L, lso.get("openFirstOffset"), lso.toString());
        assertEquals(17L, lso.get("highWatermark"), lso.toString());
        assertEquals(10L, lso.get("releasedAfterEnd"), lso.toString());

        Map<String, Long> timeout = counts(byGuarantee, "timeout-aborts");
        long abortedAfter = timeout.get("abortedAfterMillis");
        // Kafka aborts it at its first look for timed-out transactions after the timeout: every 10 s by default.
        assertTrue(abortedAfter >= 2_000 && abortedAfter <= 13_000, timeout.toString());
        assertEquals(0L, timeout.get("visibleWhileOpen") + timeout.get("visibleAfterAbort"), timeout.toString());
        assertEquals(5L, timeout.get("committedAfterVisible"), timeout.toString());
        assertEquals(1L, timeout.get("commitRefused"), timeout.toString());
        assertEquals(0L, timeout.get("visibleAfterLateCommit"), timeout.toString());

        Map<String, Long> order = counts(byGuarantee, "partition-order");
        assertEquals(0L, order.get("outOfOrder"), order.toString());
        assertTrue(order.get("outputsRead") >= order.get("checked") && order.get("checked") > 0, order.toString());
    }

    private static Map<String, Long> counts(Map<String, RunResult> runs, String guarantee) {
        return runs.get(guarantee).conformance().counts();
    }

    /** The results in {@code folder} by the guarantee each judged, in the order of {@link #GUARANTEES}. */
    static Map<String, RunResult> byGuarantee(Path folder) throws Exception {
        Map<String, RunResult> found = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                RunResult r = ResultReader.read(file);
                assertNotNull(r.conformance(), file.toString());
                found.put(r.conformance().guarantee(), r);
            }
        }
        Map<String, RunResult> ordered = new LinkedHashMap<>();
        for (String g : GUARANTEES) {
            if (found.containsKey(g)) {
                ordered.put(g, found.get(g));
            }
        }
        return ordered;
    }

    static String driver() {
        return OmbTxHome.locate().resolve("driver-kafka-tx/kafka-tx.yaml").toString();
    }

    static String workload(String guarantee) {
        return OmbTxHome.locate()
                .resolve("workloads/conformance/" + guarantee + ".yaml")
                .toString();
    }
}

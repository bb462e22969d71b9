package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.result.RunResult;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick profile of suites/tx-capacity.yaml runs on one embedded broker: every sweep point, transactional and
 * plain, by producers and by offered rate, with its rate verdict; the transactional ones count their transactions,
 * and the plain ones have none. The churn point opens a new producer and transactional id for every transaction.
 */
@Tag("integration")
class TxCapacityQuickRunTest {

    @TempDir
    Path results;

    @Test
    void everyQuickPointHasItsRateVerdictAndTheTransactionalOnesTheirTransactions() throws Exception {
        QuickSuite suite = QuickSuite.run("suites/tx-capacity.yaml", results);
        String log = suite.log();
        Map<String, RunResult> runs = new HashMap<>();
        for (RunResult r : suite.runs()) {
            runs.put(
                    r.sweep().name() + " " + r.sweep().parameter() + "="
                            + r.sweep().value(),
                    r);
        }
        assertEquals(11, runs.size(), runs.keySet() + "\n" + log);
        for (String producers : new String[] {"1", "10", "100"}) {
            assertTrue(
                    runs.containsKey("tx-producers producersPerTopic=" + producers),
                    runs.keySet().toString());
            assertTrue(
                    runs.containsKey("base-producers producersPerTopic=" + producers),
                    runs.keySet().toString());
        }
        for (String rate : new String[] {"1000", "10000"}) {
            assertTrue(
                    runs.containsKey("tx-rate producerRate=" + rate),
                    runs.keySet().toString());
            assertTrue(
                    runs.containsKey("base-rate producerRate=" + rate),
                    runs.keySet().toString());
        }
        RunResult churn = runs.get("tx-churn producersPerTopic=10");
        assertNotNull(churn, runs.keySet().toString());
        assertEquals(1, churn.scenario().transactionsPerProducer());
        // Every producer's first transaction is in the warm-up, so each measured one began on a new producer.
        assertEquals(
                churn.counts().committed() + churn.counts().failed(),
                churn.transactionPhases().get(io.ombtx.driver.api.Phase.INIT).count(),
                "one init per measured transaction\n" + log);
        assertNotNull(churn.coordinators(), log);
        assertTrue(
                churn.coordinators().transactionalIds() > 10 * 5,
                "the coordinators saw the ids come and go: " + churn.coordinators());
        runs.forEach((point, r) -> {
            assertEquals(RunResult.Status.COMPLETE, r.status(), point + ": " + r.partialReason());
            RunResult.RateVerdict rate = r.rate();
            assertNotNull(rate, point);
            assertEquals(r.runMode().targetRate(), rate.target(), 0, point);
            assertTrue(rate.achieved() > 0, point);
            if (r.scenario().transactional()) {
                assertNotNull(r.transactions(), point);
                assertTrue(r.counts().committed() > 0, point);
                assertEquals(
                        r.counts().committed(),
                        r.transactions().messagesPerTransaction().count(),
                        point);
                assertEquals(100, r.transactions().commitIntervalMs(), point);
            } else {
                assertNull(r.transactions(), point);
                assertEquals(0, r.counts().committed(), point);
            }
        });
    }
}

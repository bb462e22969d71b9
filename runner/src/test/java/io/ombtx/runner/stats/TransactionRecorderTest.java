package io.ombtx.runner.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class TransactionRecorderTest {

    private static OperationTimings committed(int messages) {
        return new OperationTimings(
                Map.of(Phase.BEGIN, 1_000L, Phase.COMMIT, 5_000_000L, Phase.TRANSACTION, 100_000_000L),
                messages,
                OperationTimings.Outcome.COMMITTED,
                0,
                0,
                List.of(Phase.BEGIN, Phase.COMMIT));
    }

    /**
     * Four threads record transactions while another drains (as periods and the warm-up's reset do): every drain
     * holds as many transaction sizes as commits, operations and commit phases — a transaction is drained whole.
     */
    @Test
    void everyDrainHoldsWholeTransactionsWhileTheyAreRecorded() throws Exception {
        WorkerStats stats = new WorkerStats();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int messages = t + 1;
            Thread writer = new Thread(() -> {
                while (!stop.get()) {
                    stats.recordTransaction(committed(messages));
                }
            });
            writer.start();
            writers.add(writer);
        }
        long total = 0;
        for (int drain = 0; drain < 200; drain++) {
            StatsSnapshot s = drain % 50 == 0 ? resetAndDrain(stats) : stats.drainInterval();
            long commits = s.counter(Counter.COMMITTED);
            assertEquals(commits, s.histogram(Latency.MESSAGES_PER_TRANSACTION).getTotalCount(), "drain " + drain);
            assertEquals(commits, s.counter(Counter.OPERATIONS));
            assertEquals(commits, s.histogram(Phase.COMMIT).getTotalCount());
            assertEquals(commits, s.histogram(Latency.OPERATION_LATENCY).getTotalCount());
            assertEquals(commits, s.phaseSequences().operations(List.of(Phase.BEGIN, Phase.COMMIT)));
            total += commits;
        }
        stop.set(true);
        for (Thread writer : writers) {
            writer.join();
        }
        StatsSnapshot last = stats.drainInterval();
        assertEquals(
                last.counter(Counter.COMMITTED),
                last.histogram(Latency.MESSAGES_PER_TRANSACTION).getTotalCount());
        assertEquals(0, stats.drainInterval().counter(Counter.COMMITTED), "nothing drained twice");
        assertEquals(true, total + last.counter(Counter.COMMITTED) > 0);
    }

    /** The warm-up's end: what was recorded is dropped; then the next drain. */
    private static StatsSnapshot resetAndDrain(WorkerStats stats) {
        stats.reset();
        return stats.drainInterval();
    }

    /**
     * The messages the measurement sent: a message acknowledged after the warm-up's reset but sent before it is the
     * warm-up's; one sent after it is the measurement's, on either publish path.
     */
    @Test
    void messagesSentBeforeTheResetAreNotTheMeasurementsEvenWhenAcknowledgedAfterIt() {
        WorkerStats stats = new WorkerStats();
        long beforeReset = System.nanoTime();
        stats.recordAckedPublish(100, beforeReset, beforeReset, beforeReset + 5, false);
        assertEquals(1, stats.drainInterval().counter(Counter.MESSAGES_SENT_MEASURED), "no reset yet: all measured");
        stats.reset();
        long afterReset = System.nanoTime();
        stats.recordAckedPublish(100, beforeReset, beforeReset, afterReset, false); // sent in the warm-up
        stats.recordPublish(3, 300, beforeReset, beforeReset, afterReset);
        stats.recordAckedPublish(100, afterReset, afterReset, afterReset + 5, true);
        stats.recordPublish(2, 200, afterReset, afterReset, afterReset + 5);
        StatsSnapshot s = stats.drainInterval();
        assertEquals(7, s.counter(Counter.MESSAGES_SENT), "acknowledged in the measurement");
        assertEquals(3, s.counter(Counter.MESSAGES_SENT_MEASURED), "sent in it");
    }
}

package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.config.KeyDistributorType;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.testdriver.HeldDeliveryDriver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A closed loop's bookkeeping of an operation is done at the next operation's quiet point (after its write went out,
 * before it ends), not between the two, and the last operation's when the loop ends: each operation is counted and
 * recorded once, none lost at the end.
 */
class QuietPointTest {

    private static final long WARMUP = 3;
    private static final long MEASURE = 12;

    @Test
    void eachOperationIsCountedAtTheNextOnesQuietPointAndTheLastWhenTheLoopEnds() throws Exception {
        HeldDeliveryDriver driver = new HeldDeliveryDriver();
        List<long[]> seen = new ArrayList<>(); // per operation: acknowledged messages before and after its quiet point
        StatsSnapshot measured = new StatsSnapshot();
        try (LocalWorker worker = new LocalWorker(driverClass -> driver)) {
            driver.watchQuietPoints((operation, quietPoint) -> {
                long before = worker.progress().messagesSent();
                quietPoint.run();
                long after = worker.progress().messagesSent();
                quietPoint.run(); // a second run does nothing
                seen.add(new long[] {operation, before, after, worker.progress().messagesSent()});
            });
            worker.initializeDriver(
                    "driverClass: " + HeldDeliveryDriver.class.getName() + "\n",
                    new OperationSpec(OperationKind.WRITE, true, 1, 1, false, true));
            List<String> topics = worker.createTopics(1, 1);
            worker.createProducers(topics);
            worker.startLoad(new LoadSpec(
                    LoopMode.CLOSED, 0, List.of(new byte[6]), KeyDistributorType.NO_KEY, WARMUP, MEASURE, 1, false));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (worker.progress().measuredOperationsDone() < MEASURE) {
                assertTrue(System.nanoTime() < deadline, "progress: " + worker.progress());
                Thread.sleep(1);
            }
            worker.run(Worker.Command.STOP_ALL);
            measured.add(worker.periodStats());
            assertEquals(WARMUP + MEASURE, worker.progress().messagesSent(), "every operation counted once");
        }
        assertEquals(WARMUP + MEASURE, seen.size());
        for (long[] s : seen) {
            long operation = s[0];
            assertEquals(
                    Math.max(0, operation - 1),
                    s[1],
                    "before operation " + operation + "'s quiet point: every one but the last before it counted");
            assertEquals(operation, s[2], "after it, the one before it too");
            assertEquals(s[2], s[3], "running it again counted nothing");
        }
        assertEquals(MEASURE, measured.counter(Counter.OPERATIONS), "every measured operation recorded once");
        assertEquals(MEASURE, measured.histogram(Latency.OPERATION_LATENCY).getTotalCount());
    }
}

package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.config.KeyDistributorType;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.testdriver.HeldDeliveryDriver;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A count-based waitForConsume run ends the way MeasurementLoop ends it: once the measured operations are done,
 * STOP_ALL, then the last statistics. The consumer's delivery of the last measured operation is held back, as a
 * busy machine may do; its end-to-end latency must still be in the figures.
 */
class WaitForConsumeTailTest {

    private static final long WARMUP = 5;
    private static final long MEASURE = 20;

    @Test
    void theLastMeasuredOperationIsSeenByTheConsumerBeforeTheLastDrain() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        HeldDeliveryDriver driver = new HeldDeliveryDriver(WARMUP + MEASURE - 1, 1_000, release);
        StatsSnapshot measured = new StatsSnapshot();
        try (LocalWorker worker = new LocalWorker(driverClass -> driver)) {
            worker.initializeDriver(
                    "driverClass: " + HeldDeliveryDriver.class.getName() + "\n",
                    new OperationSpec(OperationKind.WRITE, true, 1, 1, false, true));
            List<String> topics = worker.createTopics(1, 1);
            worker.createProducers(topics);
            worker.createConsumers(List.of(new Worker.TopicSubscription(topics.get(0), "sub")));
            worker.run(Worker.Command.PROBE_PRODUCERS);
            awaitProgress(worker, p -> p.messagesReceived() >= 1);
            worker.startLoad(new LoadSpec(
                    LoopMode.CLOSED, 0, List.of(new byte[6]), KeyDistributorType.NO_KEY, WARMUP, MEASURE, 1, true));
            awaitProgress(worker, p -> p.measuredOperationsDone() >= MEASURE);
            measured.add(worker.periodStats());
            worker.run(Worker.Command.STOP_ALL);
            measured.add(worker.periodStats());
            release.countDown();
        }
        assertEquals(
                MEASURE,
                measured.histogram(Latency.END_TO_END).getTotalCount(),
                "every measured operation's end-to-end latency");
    }

    private static void awaitProgress(Worker worker, java.util.function.Predicate<Worker.Progress> done)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.test(worker.progress())) {
            assertTrue(System.nanoTime() < deadline, "progress: " + worker.progress());
            Thread.sleep(1);
        }
    }
}

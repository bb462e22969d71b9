package io.ombtx.runner.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The fast publish path records exactly what the per-histogram path records, from any number of threads. */
class PublishRecorderTest {

    @Test
    void theFastPathRecordsWhatRecordPublishAndRecordOperationRecord() {
        WorkerStats slow = new WorkerStats();
        WorkerStats fast = new WorkerStats();
        Random random = new Random(42);
        long start = 1_000_000_000L;
        for (int i = 0; i < 10_000; i++) {
            long intended = start + i * 20_000L;
            long send = intended + random.nextInt(300_000);
            long ack = send + 200_000 + random.nextInt(50_000_000);
            boolean asOperation = i % 3 != 0;
            slow.recordPublish(1, 100, send, intended, ack);
            if (asOperation) {
                slow.recordOperation(
                        new OperationTimings.Builder(send).build(ack, 1, OperationTimings.Outcome.ACKNOWLEDGED),
                        send,
                        ack);
            }
            fast.recordAckedPublish(100, send, intended, ack, asOperation);
        }
        StatsSnapshot expected = slow.drainInterval();
        StatsSnapshot actual = fast.drainInterval();
        for (Latency latency : Latency.values()) {
            assertEquals(expected.histogram(latency), actual.histogram(latency), latency.key());
        }
        assertEquals(expected.histogram(Phase.TRANSACTION), actual.histogram(Phase.TRANSACTION));
        for (Counter counter : Counter.values()) {
            assertEquals(expected.counter(counter), actual.counter(counter), counter.key());
        }
    }

    @Test
    void writersOnManyThreadsLoseNothingAcrossDrains() throws Exception {
        WorkerStats stats = new WorkerStats();
        int threads = 4;
        int perThread = 200_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread writer = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    stats.recordAckedPublish(10, 0, 0, 1_000_000L + i, true);
                }
            });
            writer.start();
            writers.add(writer);
        }
        go.countDown();
        StatsSnapshot total = new StatsSnapshot();
        while (writers.stream().anyMatch(Thread::isAlive)) {
            total.add(stats.drainInterval()); // drains race the writers on purpose
        }
        total.add(stats.drainInterval());
        long expected = (long) threads * perThread;
        assertEquals(expected, total.counter(Counter.MESSAGES_SENT));
        assertEquals(10 * expected, total.counter(Counter.BYTES_SENT));
        assertEquals(expected, total.counter(Counter.OPERATIONS));
        assertEquals(expected, total.histogram(Latency.PUBLISH_LATENCY).getTotalCount());
        assertEquals(expected, total.histogram(Phase.TRANSACTION).getTotalCount());
    }
}

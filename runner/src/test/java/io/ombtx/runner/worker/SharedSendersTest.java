package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.config.KeyDistributorType;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.testdriver.SendLogDriver;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Many producers' open-loop schedules on a bounded set of shared threads: every operation counted once, no send
 * before its producer's schedule says, and no more threads than the bound.
 */
class SharedSendersTest {

    private static final int PRODUCERS = 50;
    private static final double RATE = 10_000; // 200 msg/s a producer
    private static final long WARMUP = 500;
    private static final long MEASURE = 4_500;

    @Test
    void fiftyProducersShareTheBoundedThreadsAndKeepTheirSchedules() throws Exception {
        SendLogDriver driver = new SendLogDriver();
        StatsSnapshot measured = new StatsSnapshot();
        long before;
        try (LocalWorker worker = new LocalWorker(driverClass -> driver)) {
            worker.initializeDriver("driverClass: " + SendLogDriver.class.getName() + "\n", OperationSpec.publish());
            worker.createProducers(worker.createTopics(PRODUCERS, 1));
            before = System.nanoTime();
            worker.startLoad(new LoadSpec(
                    LoopMode.OPEN, RATE, List.of(new byte[10]), KeyDistributorType.NO_KEY, WARMUP, MEASURE, 1, false));
            // Each schedule stops once it has taken an operation index past the bound: when all have, the count
            // of operations started is the bound plus one per producer, and nothing is sent any more.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (worker.progress().operationsStarted() < WARMUP + MEASURE + PRODUCERS) {
                assertTrue(System.nanoTime() < deadline, "progress: " + worker.progress());
                measured.add(worker.periodStats());
                Thread.sleep(5);
            }
            worker.run(Worker.Command.STOP_ALL);
            measured.add(worker.periodStats());
        }
        List<SendLogDriver.Send> sends = List.copyOf(driver.sends);
        assertEquals(WARMUP + MEASURE, sends.size(), "every operation sent once, none beyond the count");
        assertEquals(MEASURE, measured.histogram(Latency.PUBLISH_DELAY).getTotalCount(), "measured operations");

        int cores = Runtime.getRuntime().availableProcessors();
        int bound = SharedSenders.threads(PRODUCERS, cores);
        assertTrue(bound < PRODUCERS || cores > 12, "the bound is below one thread a producer here: " + bound);
        Set<String> threads = sends.stream().map(SendLogDriver.Send::thread).collect(Collectors.toSet());
        assertTrue(threads.size() <= bound, threads.size() + " threads sent, at most " + bound + " allowed");
        if (bound < PRODUCERS) {
            assertTrue(threads.stream().allMatch(t -> t.startsWith("sender-")), threads.toString());
        }
        // A producer's k-th send is not before its schedule's k-th slot, whichever thread sends it.
        double interval = 1e9 / (RATE / PRODUCERS);
        Map<Integer, List<Long>> byProducer = sends.stream()
                .collect(Collectors.groupingBy(
                        SendLogDriver.Send::producer,
                        Collectors.mapping(SendLogDriver.Send::nanos, Collectors.toList())));
        byProducer.forEach((producer, times) -> {
            long[] sorted = times.stream().mapToLong(Long::longValue).sorted().toArray();
            for (int k = 0; k < sorted.length; k++) {
                assertTrue(
                        sorted[k] - before >= (long) (k * interval) - 1,
                        "producer " + producer + "'s send " + k + " at " + (sorted[k] - before)
                                + " ns, intended no earlier than " + k * interval);
            }
        });
    }

    @Test
    void theBoundIsFourThreadsACoreAndAtLeastEight() {
        assertEquals(1, SharedSenders.threads(1, 2));
        assertEquals(8, SharedSenders.threads(8, 2), "up to eight schedules: a thread each");
        assertEquals(8, SharedSenders.threads(1_000, 2));
        assertEquals(64, SharedSenders.threads(1_000, 16));
        assertEquals(20, SharedSenders.threads(20, 16));
    }
}

package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.config.KeyDistributorType;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.testdriver.SendLogDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A producer's open-loop schedule spread over several sender threads: kept, and counted exactly. */
class SenderThreadsTest {

    private static final double RATE = 20_000;
    private static final long WARMUP = 1_000;
    private static final long MEASURE = 9_000;

    @Test
    void threeThreadsKeepOneProducersScheduleAndCountEveryOperationOnce() throws Exception {
        SendLogDriver driver = new SendLogDriver();
        StatsSnapshot measured = new StatsSnapshot();
        long before;
        try (LocalWorker worker = new LocalWorker(driverClass -> driver)) {
            worker.senderThreadsPerProducer(3);
            worker.initializeDriver("driverClass: " + SendLogDriver.class.getName() + "\n", OperationSpec.publish());
            worker.createProducers(worker.createTopics(1, 1));
            before = System.nanoTime();
            worker.startLoad(new LoadSpec(
                    LoopMode.OPEN, RATE, List.of(new byte[10]), KeyDistributorType.NO_KEY, WARMUP, MEASURE, 1, false));
            assertEquals(3, worker.senderThreadsPerProducer());
            // Each sender thread stops once it has taken an operation index past the bound: when all three have, the
            // count of operations started is the bound plus three, and no thread sends any more.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (worker.progress().operationsStarted() < WARMUP + MEASURE + 3) {
                assertTrue(System.nanoTime() < deadline, "progress: " + worker.progress());
                measured.add(worker.periodStats());
                Thread.sleep(5); // how often the period statistics are taken
            }
            worker.run(Worker.Command.STOP_ALL);
            measured.add(worker.periodStats());
        }
        List<SendLogDriver.Send> sends = List.copyOf(driver.sends);
        assertEquals(WARMUP + MEASURE, sends.size(), "every operation sent once, none beyond the count");
        assertEquals(MEASURE, measured.histogram(Latency.PUBLISH_DELAY).getTotalCount(), "measured operations");
        Set<String> threads = new HashSet<>();
        sends.forEach(s -> threads.add(s.thread()));
        assertEquals(Set.of("producer-0-0", "producer-0-1", "producer-0-2"), threads);
        // Open loop never runs ahead: the k-th send (in time) is not before operation k's intended start,
        // which is at or after 'before' + k / rate whichever thread sends it.
        long[] times =
                sends.stream().mapToLong(SendLogDriver.Send::nanos).sorted().toArray();
        double interval = 1e9 / RATE;
        for (int k = 0; k < times.length; k++) {
            assertTrue(
                    times[k] - before >= (long) (k * interval) - 1,
                    "send " + k + " at " + (times[k] - before) + " ns, intended no earlier than " + k * interval);
        }
        // Each thread owns every third slot of the schedule; a thread held up near the end may leave its last
        // few operations' indices to the others, so its share is about a third, not exactly.
        for (String t : threads) {
            long n = sends.stream().filter(s -> s.thread().equals(t)).count();
            assertTrue(n > (WARMUP + MEASURE) / 4 && n < (WARMUP + MEASURE) * 5 / 12, t + " sent " + n);
        }
    }

    @Test
    void autoSpreadsOnlyOpenLoopPlainPublishesAndLeavesACoreForTheIoThread() {
        OperationSpec publish = OperationSpec.publish();
        assertEquals(1, SenderThreads.resolve(null, LoopMode.OPEN, publish, 1e7, 2), "2 cores: one sender");
        assertEquals(1, SenderThreads.resolve(null, LoopMode.OPEN, publish, 100_000, 16));
        assertEquals(3, SenderThreads.resolve(null, LoopMode.OPEN, publish, 500_000, 16));
        assertEquals(8, SenderThreads.resolve(null, LoopMode.OPEN, publish, 1e7, 16));
        assertEquals(4, SenderThreads.resolve(4, LoopMode.OPEN, publish, 10, 2), "an explicit setting holds");
        assertEquals(1, SenderThreads.resolve(4, LoopMode.CLOSED, publish, 0, 16));
        assertEquals(
                1,
                SenderThreads.resolve(
                        4, LoopMode.OPEN, new OperationSpec(OperationKind.WRITE, true, 1, 1, false, false), 1e6, 16));
    }

    @Test
    void aBadSettingStopsTheBenchmarkBeforeAnythingStarts(@TempDir Path dir) throws Exception {
        Path workload = Files.writeString(
                dir.resolve("w.yaml"), "name: w\nmessageSize: 100\nproducerRate: 1000\n" + "testDurationSeconds: 1\n");
        Path driver = Files.writeString(
                dir.resolve("d.yaml"), "name: log\ndriverClass: " + SendLogDriver.class.getName() + "\n");
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        System.setProperty(SenderThreads.PROPERTY, "lots");
        try {
            int code = io.ombtx.runner.Main.run(
                    new String[] {"-d", driver.toString(), workload.toString()},
                    new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
                    new java.io.PrintStream(err, true));
            assertEquals(io.ombtx.runner.Main.BAD_INPUT, code);
        } finally {
            System.clearProperty(SenderThreads.PROPERTY);
        }
        String message = err.toString();
        assertTrue(
                message.contains("ombtx.senderThreadsPerProducer")
                        && message.contains("'lots'")
                        && message.contains("OMBTX_JAVA_OPTS")
                        && !message.contains("\tat "),
                message);
    }

    @Test
    void theSettingIsANumberOrAuto() {
        assertEquals(null, SenderThreads.parse(null));
        assertEquals(null, SenderThreads.parse("auto"));
        assertEquals(7, SenderThreads.parse(" 7 "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SenderThreads.parse("0"));
        assertTrue(
                e.getMessage().contains(SenderThreads.PROPERTY)
                        && e.getMessage().contains("'0'"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SenderThreads.parse("many"));
    }
}

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
import io.ombtx.runner.testdriver.AheadDriver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A closed loop whose driver runs ahead: each call finishes the operation the driver holds and begins the next, and
 * the runner records the finished one then. Every operation is recorded once, with the driver's own timings, the last
 * one when the loop ends; a failed call fails both operations it touched; a stop drops the one held.
 */
class RunAheadTest {

    private static final long WARMUP = 3;
    private static final long MEASURE = 12;

    private static StatsSnapshot run(AheadDriver driver, long measure, Stop stop) throws Exception {
        StatsSnapshot measured = new StatsSnapshot();
        try (LocalWorker worker = new LocalWorker(driverClass -> driver)) {
            worker.initializeDriver(
                    "driverClass: " + AheadDriver.class.getName() + "\n",
                    new OperationSpec(OperationKind.WRITE, true, 1, 1, false, true));
            worker.createProducers(worker.createTopics(1, 1));
            worker.startLoad(new LoadSpec(
                    LoopMode.CLOSED, 0, List.of(new byte[6]), KeyDistributorType.NO_KEY, WARMUP, measure, 1, false));
            stop.await(worker);
            long stopStart = System.nanoTime();
            worker.run(Worker.Command.STOP_ALL);
            // Nothing left in flight: the stop does not wait out its 30 s for an operation never to be recorded.
            assertTrue(System.nanoTime() - stopStart < TimeUnit.SECONDS.toNanos(20), "stop-all took its time-out");
            measured.add(worker.periodStats());
        }
        return measured;
    }

    private interface Stop {
        void await(LocalWorker worker) throws Exception;
    }

    private static Stop afterMeasured(long count) {
        return worker -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (worker.progress().measuredOperationsDone() < count) {
                assertTrue(System.nanoTime() < deadline, "progress: " + worker.progress());
                Thread.sleep(1);
            }
        };
    }

    /** The values a histogram holds, one per count (they are exact: under 2048 µs). */
    private static List<Long> values(Histogram h) {
        List<Long> values = new ArrayList<>();
        h.recordedValues().forEach(v -> {
            for (long i = 0; i < v.getCountAtValueIteratedTo(); i++) {
                values.add(v.getValueIteratedTo());
            }
        });
        return values;
    }

    @Test
    void everyOperationIsRecordedOnceWithTheDriversTimingsTheLastWhenTheLoopEnds() throws Exception {
        AheadDriver driver = new AheadDriver();
        StatsSnapshot measured = run(driver, MEASURE, afterMeasured(MEASURE));
        List<String> expected = new ArrayList<>();
        LongStream.range(0, WARMUP + MEASURE).forEach(i -> expected.add("ahead " + i));
        expected.add("close"); // the last one was finished (finishAhead) before the close: nothing open
        assertEquals(expected, driver.calls);
        assertEquals(MEASURE, measured.counter(Counter.OPERATIONS), "every measured operation recorded once");
        assertEquals(MEASURE, measured.counter(Counter.MESSAGES_SENT));
        // The measured operations are 3..14: (i + 1) * 100 µs each, the driver's own figures, the warm-up's none.
        List<Long> micros = LongStream.range(WARMUP, WARMUP + MEASURE)
                .mapToObj(i -> (i + 1) * 100)
                .toList();
        assertEquals(micros, values(measured.histogram(Latency.OPERATION_LATENCY)));
        assertEquals(micros, values(measured.histogram(Latency.PUBLISH_LATENCY)));
        // The measured span, from the driver's own starts: the first measured operation's to the last one's end.
        long last = WARMUP + MEASURE - 1;
        assertEquals(
                AheadDriver.startNanos(last) + (last + 1) * 100_000 - AheadDriver.startNanos(WARMUP),
                measured.counter(Counter.MEASURED_SPAN_NANOS));
    }

    @Test
    void aFailedCallFailsTheOperationHeldAndTheOneItBegan() throws Exception {
        AheadDriver driver = new AheadDriver();
        driver.failAt = WARMUP + 4; // the call beginning operation 7 fails: 6 (held) and 7 are lost
        StatsSnapshot measured = run(driver, MEASURE, afterMeasured(MEASURE));
        assertEquals(MEASURE, measured.counter(Counter.OPERATIONS) + measured.counter(Counter.FAILED));
        assertEquals(2, measured.counter(Counter.FAILED), driver.calls.toString());
        List<Long> micros = LongStream.range(WARMUP, WARMUP + MEASURE)
                .filter(i -> i != WARMUP + 3 && i != WARMUP + 4)
                .mapToObj(i -> (i + 1) * 100)
                .toList();
        assertEquals(micros, values(measured.histogram(Latency.OPERATION_LATENCY)));
    }

    @Test
    void aStopDropsTheOperationHeldAndRecordsTheRest() throws Exception {
        AheadDriver driver = new AheadDriver();
        driver.blockAt = WARMUP + 5; // operation 8's call waits until the stop interrupts it; 7 is held then
        StatsSnapshot measured = run(driver, 1000, worker -> {
            assertTrue(driver.blocked.tryAcquire(30, TimeUnit.SECONDS), "the loop reached operation 8");
        });
        List<Long> micros = LongStream.range(WARMUP, WARMUP + 4)
                .mapToObj(i -> (i + 1) * 100)
                .toList();
        assertEquals(micros, values(measured.histogram(Latency.OPERATION_LATENCY)), driver.calls.toString());
        assertEquals(4, measured.counter(Counter.OPERATIONS));
        assertEquals(0, measured.counter(Counter.FAILED));
        assertEquals("close with 7 open", driver.calls.get(driver.calls.size() - 1), "the driver's close ends it");
    }
}

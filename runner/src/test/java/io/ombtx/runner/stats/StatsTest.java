package io.ombtx.runner.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void publishLatencyIsFromTheActualSendAndIntendedLatencyFromTheSchedule() {
        WorkerStats stats = new WorkerStats();
        // intended at 0, actually sent at 3 ms, acked at 5 ms
        stats.recordPublish(1, 100, 3_000_000L, 0L, 5_000_000L);
        StatsSnapshot s = stats.drainInterval();
        assertEquals(2000, s.histogram(StatsSnapshot.PUBLISH_LATENCY).getValueAtPercentile(50), 2);
        assertEquals(5000, s.histogram(StatsSnapshot.INTENDED_PUBLISH_LATENCY).getValueAtPercentile(50), 5);
        assertEquals(3000, s.histogram(StatsSnapshot.PUBLISH_DELAY).getValueAtPercentile(50), 3);
        assertEquals(1, s.counter(StatsSnapshot.MESSAGES_SENT));
        assertEquals(100, s.counter(StatsSnapshot.BYTES_SENT));
        assertEquals(0, stats.drainInterval().counter(StatsSnapshot.MESSAGES_SENT), "an interval is handed out once");
    }

    @Test
    void operationsRecordEveryPhaseAndTheOutcome() {
        WorkerStats stats = new WorkerStats();
        OperationTimings t = new OperationTimings(Map.of(Phase.BEGIN, 10_000L, Phase.SEND, 200_000L,
                Phase.COMMIT, 3_000_000L, Phase.TRANSACTION, 3_300_000L), 2, OperationTimings.Outcome.COMMITTED, 1, 0);
        stats.recordOperation(t, 0, 3_300_000L);
        StatsSnapshot s = stats.drainInterval();
        assertEquals(3300, s.histogram(StatsSnapshot.OPERATION_LATENCY).getMaxValue(), 4);
        assertEquals(200, s.histogram("phase.send").getMaxValue(), 1);
        assertEquals(0, s.histogram("phase.resolve").getTotalCount());
        assertEquals(1, s.counter(StatsSnapshot.COMMITTED));
        assertEquals(1, s.counter(StatsSnapshot.ABORTED));
        assertEquals(3_300_000L, s.counter(StatsSnapshot.MEASURED_SPAN_NANOS));
    }

    @Test
    void snapshotsMergeByAddingHistogramsNotAveragingPercentiles() {
        StatsSnapshot a = new StatsSnapshot();
        StatsSnapshot b = new StatsSnapshot();
        for (int i = 0; i < 99; i++) {
            a.histogram(StatsSnapshot.PUBLISH_LATENCY).recordValue(1000);
        }
        b.histogram(StatsSnapshot.PUBLISH_LATENCY).recordValue(100_000);
        a.putCounter(StatsSnapshot.MESSAGES_SENT, 99).putCounter(StatsSnapshot.MEASURED_SPAN_NANOS, 10);
        b.putCounter(StatsSnapshot.MESSAGES_SENT, 1).putCounter(StatsSnapshot.MEASURED_SPAN_NANOS, 30);
        a.add(b);
        Histogram merged = a.histogram(StatsSnapshot.PUBLISH_LATENCY);
        assertEquals(100, merged.getTotalCount());
        assertEquals(1000, merged.getValueAtPercentile(99), 1);
        assertEquals(100_000, merged.getMaxValue(), 100);
        assertEquals(100, a.counter(StatsSnapshot.MESSAGES_SENT));
        assertEquals(30, a.counter(StatsSnapshot.MEASURED_SPAN_NANOS), "spans overlap across workers: the longest counts");
    }

    @Test
    void wireFormRoundTripsExactly() {
        StatsSnapshot s = new StatsSnapshot();
        for (int v = 1; v <= 1000; v++) {
            s.histogram(StatsSnapshot.END_TO_END).recordValue(v * 7L);
        }
        s.putCounter(StatsSnapshot.MESSAGES_RECEIVED, 1000);
        StatsSnapshot back = StatsSnapshot.fromWire(s.toWire());
        assertEquals(s.histogram(StatsSnapshot.END_TO_END), back.histogram(StatsSnapshot.END_TO_END));
        assertEquals(1000, back.counter(StatsSnapshot.MESSAGES_RECEIVED));
    }

    @Test
    void valuesBeyondTheRangeAreClampedNotLost() {
        WorkerStats stats = new WorkerStats();
        stats.recordMicros(StatsSnapshot.END_TO_END, Long.MAX_VALUE / 2);
        stats.recordMicros(StatsSnapshot.END_TO_END, -5);
        assertEquals(2, stats.drainInterval().histogram(StatsSnapshot.END_TO_END).getTotalCount());
    }
}

package io.ombtx.runner.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void publishLatencyIsFromTheActualSendAndIntendedLatencyFromTheSchedule() {
        WorkerStats stats = new WorkerStats();
        // intended at 0, actually sent at 3 ms, acked at 5 ms
        stats.recordPublish(1, 100, 3_000_000L, 0L, 5_000_000L);
        StatsSnapshot s = stats.drainInterval();
        assertEquals(2000, s.histogram(Latency.PUBLISH_LATENCY).getValueAtPercentile(50), 2);
        assertEquals(5000, s.histogram(Latency.INTENDED_PUBLISH_LATENCY).getValueAtPercentile(50), 5);
        assertEquals(3000, s.histogram(Latency.PUBLISH_DELAY).getValueAtPercentile(50), 3);
        assertEquals(1, s.counter(Counter.MESSAGES_SENT));
        assertEquals(100, s.counter(Counter.BYTES_SENT));
        assertEquals(0, stats.drainInterval().counter(Counter.MESSAGES_SENT), "an interval is handed out once");
    }

    @Test
    void operationsRecordEveryPhaseAndTheOutcome() {
        WorkerStats stats = new WorkerStats();
        OperationTimings t = new OperationTimings(
                Map.of(
                        Phase.BEGIN,
                        10_000L,
                        Phase.SEND,
                        200_000L,
                        Phase.COMMIT,
                        3_000_000L,
                        Phase.TRANSACTION,
                        3_300_000L),
                2,
                OperationTimings.Outcome.COMMITTED,
                1,
                0);
        stats.recordOperation(t, 0, 3_300_000L);
        StatsSnapshot s = stats.drainInterval();
        assertEquals(3300, s.histogram(Latency.OPERATION_LATENCY).getMaxValue(), 4);
        assertEquals(200, s.histogram(Phase.SEND).getMaxValue(), 1);
        assertEquals(0, s.histogram(Phase.RESOLVE).getTotalCount());
        assertEquals(1, s.counter(Counter.COMMITTED));
        assertEquals(1, s.counter(Counter.ABORTED));
        assertEquals(3_300_000L, s.counter(Counter.MEASURED_SPAN_NANOS));
    }

    @Test
    void snapshotsMergeByAddingHistogramsNotAveragingPercentiles() {
        StatsSnapshot a = new StatsSnapshot();
        StatsSnapshot b = new StatsSnapshot();
        for (int i = 0; i < 99; i++) {
            a.histogram(Latency.PUBLISH_LATENCY).recordValue(1000);
        }
        b.histogram(Latency.PUBLISH_LATENCY).recordValue(100_000);
        a.put(Counter.MESSAGES_SENT, 99).put(Counter.MEASURED_SPAN_NANOS, 10);
        b.put(Counter.MESSAGES_SENT, 1).put(Counter.MEASURED_SPAN_NANOS, 30);
        a.add(b);
        Histogram merged = a.histogram(Latency.PUBLISH_LATENCY);
        assertEquals(100, merged.getTotalCount());
        assertEquals(1000, merged.getValueAtPercentile(99), 1);
        assertEquals(100_000, merged.getMaxValue(), 100);
        assertEquals(100, a.counter(Counter.MESSAGES_SENT));
        assertEquals(30, a.counter(Counter.MEASURED_SPAN_NANOS), "spans overlap across workers: the longest counts");
    }

    @Test
    void wireFormRoundTripsExactly() {
        StatsSnapshot s = new StatsSnapshot();
        for (int v = 1; v <= 1000; v++) {
            s.histogram(Latency.END_TO_END).recordValue(v * 7L);
        }
        s.put(Counter.MESSAGES_RECEIVED, 1000);
        StatsSnapshot back = StatsSnapshot.fromWire(s.toWire());
        assertEquals(s.histogram(Latency.END_TO_END), back.histogram(Latency.END_TO_END));
        assertEquals(1000, back.counter(Counter.MESSAGES_RECEIVED));
    }

    @Test
    void wireFormCarriesPhasesByNameAndRejectsNamesNeitherSideKnows() {
        StatsSnapshot s = new StatsSnapshot();
        s.histogram(Phase.COMMIT).recordValue(4000);
        StatsSnapshot.Wire wire = s.toWire();
        assertEquals(java.util.Set.of("phase.commit"), wire.histograms().keySet());
        assertEquals(4000, StatsSnapshot.fromWire(wire).histogram(Phase.COMMIT).getMaxValue(), 4);
        assertEquals(
                "unknown histogram 'publishLatncy'",
                org.junit.jupiter.api.Assertions.assertThrows(
                                IllegalArgumentException.class,
                                () -> StatsSnapshot.fromWire(new StatsSnapshot.Wire(
                                        Map.of(
                                                "publishLatncy",
                                                wire.histograms().get("phase.commit")),
                                        Map.of(),
                                        null)))
                        .getMessage());
        assertEquals(
                "unknown counter 'sent'",
                org.junit.jupiter.api.Assertions.assertThrows(
                                IllegalArgumentException.class,
                                () -> StatsSnapshot.fromWire(
                                        new StatsSnapshot.Wire(Map.of(), Map.of("sent", 1L), null)))
                        .getMessage());
    }

    private static OperationTimings ran(Phase... sequence) {
        return new OperationTimings(
                Map.of(Phase.TRANSACTION, 1_000_000L), 1, OperationTimings.Outcome.COMMITTED, 0, 0, List.of(sequence));
    }

    @Test
    void operationsAreCountedByThePhaseSequenceTheyRan() {
        WorkerStats stats = new WorkerStats();
        stats.recordOperation(ran(Phase.BEGIN, Phase.SEND, Phase.COMMIT, Phase.RESOLVE), 0, 1);
        stats.recordOperation(ran(Phase.BEGIN, Phase.SEND, Phase.COMMIT, Phase.RESOLVE), 0, 1);
        stats.recordOperation(ran(Phase.BEGIN, Phase.SEND, Phase.RESOLVE, Phase.COMMIT), 0, 1);
        stats.recordOperation(ran(), 0, 1); // a driver that does not say
        PhaseSequences counted = stats.drainInterval().phaseSequences();
        assertEquals(Map.of("begin,send,commit,resolve", 2L, "begin,send,resolve,commit", 1L), counted.byName());
        assertEquals(Optional.of(List.of(Phase.BEGIN, Phase.SEND, Phase.COMMIT, Phase.RESOLVE)), counted.dominant());
        assertTrue(stats.drainInterval().phaseSequences().isEmpty(), "an interval is handed out once");
    }

    @Test
    void phaseSequencesMergeByAddingTheCountsOfEachSequence() {
        StatsSnapshot producer = new StatsSnapshot();
        StatsSnapshot consumer = new StatsSnapshot();
        List<Phase> commitFirst = List.of(Phase.SEND, Phase.COMMIT, Phase.RESOLVE);
        List<Phase> ackFirst = List.of(Phase.SEND, Phase.RESOLVE, Phase.COMMIT);
        producer.phaseSequences().count(commitFirst, 5);
        consumer.phaseSequences().count(commitFirst, 7).count(ackFirst, 9);
        producer.add(consumer);
        assertEquals(12, producer.phaseSequences().operations(commitFirst));
        assertEquals(9, producer.phaseSequences().operations(ackFirst));
        assertEquals(Optional.of(commitFirst), producer.phaseSequences().dominant());
        assertEquals(Optional.empty(), new PhaseSequences().dominant());
        // A tie goes to the sequence whose name sorts last, whatever order the counts arrived in.
        assertEquals(
                Optional.of(ackFirst),
                new PhaseSequences().count(commitFirst, 3).count(ackFirst, 3).dominant());
        assertEquals(
                Optional.of(ackFirst),
                new PhaseSequences().count(ackFirst, 3).count(commitFirst, 3).dominant());
    }

    @Test
    void phaseSequencesTravelTypedAndAreAbsentFromTheWireWhenNoneWereCounted() throws Exception {
        ObjectMapper json = new ObjectMapper();
        StatsSnapshot s = new StatsSnapshot();
        s.phaseSequences().count(List.of(Phase.BEGIN, Phase.SEND, Phase.SEND_OFFSETS, Phase.COMMIT), 4);
        String text = json.writeValueAsString(s.toWire());
        assertTrue(
                text.contains("\"phaseSequences\":[{\"phases\":[\"begin\",\"send\",\"sendOffsets\",\"commit\"],"
                        + "\"operations\":4}]"),
                text);
        StatsSnapshot back = StatsSnapshot.fromWire(json.readValue(text, StatsSnapshot.Wire.class));
        assertEquals(s.phaseSequences(), back.phaseSequences());

        String none = json.writeValueAsString(new StatsSnapshot().toWire());
        assertEquals("{\"histograms\":{},\"counters\":{}}", none);
        assertTrue(StatsSnapshot.fromWire(json.readValue(none, StatsSnapshot.Wire.class))
                .phaseSequences()
                .isEmpty());
        assertEquals(
                "unknown phase 'comit'",
                org.junit.jupiter.api.Assertions.assertThrows(
                                IllegalArgumentException.class,
                                () -> StatsSnapshot.fromWire(new StatsSnapshot.Wire(
                                        Map.of(), Map.of(), List.of(new PhaseSequences.Wire(List.of("comit"), 1)))))
                        .getMessage());
    }

    @Test
    void everyCounterDeclaresHowItMerges() {
        for (Counter counter : Counter.values()) {
            long merged = counter.merge(3, 5);
            assertEquals(counter == Counter.MEASURED_SPAN_NANOS ? 5 : 8, merged, counter.key());
        }
    }

    @Test
    void valuesBeyondTheRangeAreClampedNotLost() {
        WorkerStats stats = new WorkerStats();
        stats.recordMicros(Latency.END_TO_END, Long.MAX_VALUE / 2);
        stats.recordMicros(Latency.END_TO_END, -5);
        assertEquals(2, stats.drainInterval().histogram(Latency.END_TO_END).getTotalCount());
    }

    /**
     * A period holds a received message's count, bytes and end-to-end latency together, however the drains fall
     * between consumers' receipts (OMB's coordinator checks one latency per message received, period by period).
     */
    @Test
    void aPeriodHoldsEachReceivedMessagesCountAndLatencyTogether() throws Exception {
        WorkerStats stats = new WorkerStats();
        int consumers = 3;
        int each = 200_000;
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(consumers);
        for (int c = 0; c < consumers; c++) {
            Thread consumer = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    stats.recordReceived(100, 1 + i % 5_000, true);
                }
                done.countDown();
            });
            consumer.start();
        }
        long messages = 0;
        int periods = 0;
        boolean last = false;
        while (!last) {
            last = done.await(1, java.util.concurrent.TimeUnit.MILLISECONDS);
            StatsSnapshot period = stats.drainInterval();
            long received = period.counter(Counter.MESSAGES_RECEIVED);
            assertEquals(received, period.histogram(Latency.END_TO_END).getTotalCount(), "period " + periods);
            assertEquals(100 * received, period.counter(Counter.BYTES_RECEIVED), "period " + periods);
            messages += received;
            periods++;
        }
        assertEquals((long) consumers * each, messages, "every message in exactly one period");
    }
}

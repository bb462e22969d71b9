package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.bookkeeper.stats.NullStatsLogger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The omb-tx runner's transactional PUBLISH on MockProducer: messages cut into transactions as the workload says, each
 * transaction reported to the runner, and closing many producers at once bounded by one close time-out.
 */
class CutTransactionsTest {

    private static final TxStatsReporter STATS = new TxStatsReporter(NullStatsLogger.INSTANCE);

    /** A transactional PUBLISH cut at {@code messages} per transaction (the interval long enough never to end one). */
    private static OperationSpec cut(int messages) {
        return new OperationSpec(OperationKind.PUBLISH, true, 1, 1, false, true, null, 0, 0, messages, 60_000);
    }

    private static KafkaTxProducer producer(
            MockProducer<String, byte[]> mock, OperationSpec spec, TransactionSettings settings, AtomicInteger made) {
        TransactionFlow flow = TransactionFlow.start(
                "tx",
                id -> {
                    made.incrementAndGet();
                    return mock;
                },
                settings,
                STATS);
        return KafkaTxProducer.transactional(
                "t", 1, spec, flow, settings, null, STATS, false, KafkaTxBenchmarkDriver.DEFAULT_BUFFER_MEMORY);
    }

    private static MockProducer<String, byte[]> mock() {
        return new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    }

    @Test
    void theRunnersPublishIsCutAtTheWorkloadsBoundAndEachTransactionIsReportedAfterItsMessages() throws Exception {
        MockProducer<String, byte[]> mock = mock();
        TransactionSettings settings = new TransactionSettings(true, 1, 60_000, "omb-tx", true, 3);
        KafkaTxProducer producer = producer(mock, cut(7), settings, new AtomicInteger());
        List<OperationTimings> reported = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        assertTrue(producer.reportTransactionsTo(timings -> {
            // Reported after its messages' own answers: every send of the transaction is complete by now.
            assertTrue(sends.stream()
                    .limit(sumMessages(reported) + timings.messages())
                    .allMatch(CompletableFuture::isDone));
            reported.add(timings);
        }));
        for (int i = 0; i < 30; i++) {
            sends.add(producer.sendAsync(Optional.empty(), new byte[] {(byte) i}));
        }
        producer.close();
        for (CompletableFuture<Void> send : sends) {
            send.get(10, TimeUnit.SECONDS);
        }
        assertEquals(
                List.of(7, 7, 7, 7, 2),
                reported.stream().map(OperationTimings::messages).toList());
        assertTrue(reported.stream().allMatch(t -> t.outcome() == OperationTimings.Outcome.COMMITTED));
        assertTrue(reported.stream().allMatch(t -> t.nanos(io.ombtx.driver.api.Phase.COMMIT) >= 0));
        assertEquals(5, mock.commitCount(), "the driver YAML's messagesPerTransaction (1) is stock OMB's only");
    }

    private static int sumMessages(List<OperationTimings> reported) {
        return reported.stream().mapToInt(OperationTimings::messages).sum();
    }

    @Test
    void aProducerThatDoesNotCutTransactionsReportsNone() {
        TransactionSettings settings = new TransactionSettings(true, 1, 60_000, "omb-tx", true, 3);
        OperationSpec write = new OperationSpec(OperationKind.WRITE, true, 1, 1, false, true);
        KafkaTxProducer producer = producer(mock(), write, settings, new AtomicInteger());
        assertFalse(producer.reportTransactionsTo(timings -> {}));
        producer.close();
    }

    /**
     * Twenty producers whose commits hang (a broker that does not answer), closed together with a 1-s close time-out:
     * all are closed at once after about one time-out, not twenty of them one after the other, and none is replaced.
     */
    @Test
    void closingManyProducersWhoseCommitsHangTakesOneCloseTimeOutAndReplacesNone() throws Exception {
        int count = 20;
        CountDownLatch released = new CountDownLatch(count);
        List<KafkaTxProducer> producers = new ArrayList<>();
        AtomicInteger made = new AtomicInteger();
        TransactionSettings settings = new TransactionSettings(
                true,
                1,
                60_000,
                "omb-tx",
                true,
                3,
                16L << 20,
                Duration.ofSeconds(1).toMillis());
        for (int i = 0; i < count; i++) {
            CountDownLatch closed = new CountDownLatch(1);
            MockProducer<String, byte[]> hanging =
                    new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer()) {
                        @Override
                        public void commitTransaction() {
                            try {
                                closed.await(); // until the producer is closed, as a commit waiting for the broker
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            throw new KafkaException("closed while committing");
                        }

                        @Override
                        public void close(Duration timeout) {
                            closed.countDown();
                            released.countDown();
                            super.close(timeout);
                        }
                    };
            KafkaTxProducer producer = producer(hanging, cut(1000), settings, made);
            producer.sendAsync(Optional.empty(), new byte[] {1});
            producers.add(producer);
        }
        long start = System.nanoTime();
        List<CompletableFuture<Boolean>> closing = new ArrayList<>();
        producers.forEach(p -> closing.add(p.closeAsync()));
        for (CompletableFuture<Boolean> close : closing) {
            assertFalse(close.get(60, TimeUnit.SECONDS), "ran out of its time and was closed at once");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(released.await(0, TimeUnit.SECONDS), "every hanging producer was closed");
        // One after the other, twenty 1-s time-outs would take 20 s at least.
        assertTrue(seconds < 10, "closing took " + seconds + " s");
        assertEquals(count, made.get(), "no producer was made again while closing");
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.bookkeeper.stats.NullStatsLogger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** Stock OMB's transactional sendAsync on MockProducer: every send gets an answer, at commit or when given up. */
class TransactionalSendAsyncTest {

    private static KafkaTxProducer producer(
            MockProducer<String, byte[]> mock, TransactionSettings settings, TxStatsReporter stats) {
        TransactionFlow flow = TransactionFlow.start("tx", id -> mock, settings, stats);
        OperationSpec spec =
                new OperationSpec(OperationKind.PUBLISH, true, settings.messagesPerTransaction(), 1, false, true);
        return KafkaTxProducer.transactional(
                "t", 1, spec, flow, settings, null, stats, true, KafkaTxBenchmarkDriver.DEFAULT_BUFFER_MEMORY);
    }

    private static List<CompletableFuture<Void>> send(KafkaTxProducer producer, int count) {
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sends.add(producer.sendAsync(Optional.empty(), new byte[] {(byte) i}));
        }
        return sends;
    }

    @RepeatedTest(20)
    void everySendQueuedBeforeCloseIsCommittedByClose() throws Exception {
        MockProducer<String, byte[]> mock =
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        TransactionSettings settings = new TransactionSettings(true, 7, 60_000, "omb-tx", true, 3);
        KafkaTxProducer producer = producer(mock, settings, new TxStatsReporter(NullStatsLogger.INSTANCE));

        List<CompletableFuture<Void>> sends = send(producer, 30);
        producer.close();

        for (CompletableFuture<Void> send : sends) {
            send.get(10, TimeUnit.SECONDS); // completes, and successfully
        }
        assertEquals(30, mock.history().size());
        assertEquals(5, mock.commitCount(), "four full transactions of 7, and the last 2 committed by close");
        assertTrue(mock.closed());
        assertTrue(producer.sendAsync(Optional.empty(), new byte[1]).isCompletedExceptionally());
    }

    @Test
    void aTransactionGivenUpAfterTheRetryBudgetFailsEachOfItsSendsAndTheNextOneCommits() throws Exception {
        AtomicInteger commits = new AtomicInteger();
        MockProducer<String, byte[]> mock =
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer()) {
                    @Override
                    public void commitTransaction() {
                        if (commits.incrementAndGet() <= 2) {
                            throw new TransactionAbortableException("commit " + commits.get() + " fails");
                        }
                        super.commitTransaction();
                    }
                };
        CountingStatsLogger statsLogger = new CountingStatsLogger();
        TransactionSettings settings = new TransactionSettings(true, 3, 60_000, "omb-tx", false, 1);
        KafkaTxProducer producer = producer(mock, settings, new TxStatsReporter(statsLogger));

        List<CompletableFuture<Void>> sends = send(producer, 6);
        producer.close();

        for (CompletableFuture<Void> failed : sends.subList(0, 3)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> failed.get(10, TimeUnit.SECONDS));
            assertInstanceOf(TransactionAbortableException.class, e.getCause());
        }
        for (CompletableFuture<Void> committed : sends.subList(3, 6)) {
            committed.get(10, TimeUnit.SECONDS);
        }
        assertEquals(3, commits.get(), "the first attempt and maxRetries = 1 retry, then the second transaction");
        assertEquals(3, mock.history().size(), "only the second transaction's records are committed");
        assertEquals(1, statsLogger.counter("tx/failed"));
        assertEquals(1, statsLogger.counter("tx/committed"));
        assertEquals(2, statsLogger.counter("tx/aborted"));
        assertEquals(0, statsLogger.counter("tx/fatal"));
    }
}

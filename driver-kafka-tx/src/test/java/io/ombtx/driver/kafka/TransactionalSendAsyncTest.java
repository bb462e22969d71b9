package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.bookkeeper.stats.NullStatsLogger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.RepeatedTest;

/** Stock OMB's transactional sendAsync around close, on MockProducer: no send may be left without an answer. */
class TransactionalSendAsyncTest {

    @RepeatedTest(20)
    void everySendQueuedBeforeCloseIsCommittedByClose() throws Exception {
        MockProducer<String, byte[]> mock = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        TxStatsReporter stats = new TxStatsReporter(NullStatsLogger.INSTANCE);
        TransactionalSession session = new TransactionalSession("tx", id -> mock, 3, stats);
        session.start();
        TransactionSettings settings = new TransactionSettings(true, 7, 60_000, "omb-tx", true, 3);
        OperationSpec spec = new OperationSpec(OperationKind.PUBLISH, true, 7, 1, false, true);
        KafkaTxProducer producer = KafkaTxProducer.transactional("t", 1, spec, session, settings, null, stats);

        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            sends.add(producer.sendAsync(Optional.empty(), new byte[] {(byte) i}));
        }
        producer.close();

        for (CompletableFuture<Void> send : sends) {
            send.get(10, TimeUnit.SECONDS); // completes, and successfully
        }
        assertEquals(30, mock.history().size());
        assertEquals(5, mock.commitCount(), "four full transactions of 7, and the last 2 committed by close");
        assertTrue(mock.closed());
        assertTrue(producer.sendAsync(Optional.empty(), new byte[1]).isCompletedExceptionally());
    }
}

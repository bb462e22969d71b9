package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.ombtx.driver.api.Phase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.bookkeeper.stats.NullStatsLogger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A transactional WRITE through OperationRunner and the flow, and the session's producer handling, on kafka-clients'
 * MockProducer (the broker-backed tests cover the real protocol).
 */
class TransactionalSessionTest {

    private static final OperationSpec TX_WRITE = new OperationSpec(OperationKind.WRITE, true, 2, 2, false, false);
    private final List<MockProducer<String, byte[]>> created = new ArrayList<>();

    private MockProducer<String, byte[]> mock() {
        MockProducer<String, byte[]> producer =
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        created.add(producer);
        return producer;
    }

    private TransactionFlow flow(java.util.function.Supplier<MockProducer<String, byte[]>> factory, int maxRetries) {
        TransactionSettings settings = new TransactionSettings(false, 1, 100, "omb-tx", true, maxRetries);
        return TransactionFlow.start(
                "tx-1", id -> factory.get(), settings, new TxStatsReporter(NullStatsLogger.INSTANCE));
    }

    private static OperationTimings write(TransactionFlow flow) {
        TxStatsReporter stats = new TxStatsReporter(NullStatsLogger.INSTANCE);
        return new OperationRunner("t", 2, TX_WRITE, null, stats)
                .runTransactional(flow, Optional.empty(), new byte[10], true, null)
                .timings();
    }

    @Test
    void aCleanWriteCommitsWithEveryPhaseAndPhasesAddUpToTheWhole() {
        TransactionFlow flow = flow(this::mock, 3);
        OperationTimings timings = write(flow);
        assertEquals(Outcome.COMMITTED, timings.outcome());
        for (Phase phase : List.of(Phase.BEGIN, Phase.SEND, Phase.RESOLVE, Phase.COMMIT, Phase.TRANSACTION)) {
            assertTrue(timings.nanos(phase) >= 0, phase + " timed");
        }
        assertEquals(-1, timings.nanos(Phase.ABORT));
        long sum = timings.phaseNanos().entrySet().stream()
                .filter(e -> e.getKey() != Phase.TRANSACTION)
                .mapToLong(e -> e.getValue())
                .sum();
        assertEquals(timings.totalNanos(), sum, "back-to-back laps leave no gap");
        MockProducer<String, byte[]> producer = created.get(0);
        assertEquals(1, producer.commitCount());
        assertEquals(
                List.of(0, 1),
                producer.history().stream().map(ProducerRecord::partition).toList());
    }

    @Test
    void anAbortableCommitFailureIsAbortedAndRetriedOnTheSameProducer() {
        AtomicInteger commits = new AtomicInteger();
        TransactionFlow flow = flow(
                () -> {
                    MockProducer<String, byte[]> producer =
                            new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer()) {
                                @Override
                                public void commitTransaction() {
                                    if (commits.incrementAndGet() == 1) {
                                        throw new TransactionAbortableException("first commit fails");
                                    }
                                    super.commitTransaction();
                                }
                            };
                    created.add(producer);
                    return producer;
                },
                3);
        OperationTimings timings = write(flow);
        assertEquals(Outcome.COMMITTED, timings.outcome());
        assertEquals(1, timings.abortedAttempts());
        assertEquals(0, timings.fatalErrors());
        assertTrue(timings.nanos(Phase.ABORT) >= 0);
        assertEquals(1, created.size(), "no new producer for an abortable error");
        assertTrue(created.get(0).transactionCommitted());
    }

    @Test
    void aFencedProducerIsReplacedAndTheOperationCommitsOnTheNewOne() {
        TransactionFlow flow = flow(this::mock, 3);
        created.get(0).fenceProducer();
        OperationTimings timings = write(flow);
        assertEquals(Outcome.COMMITTED, timings.outcome());
        assertEquals(1, timings.fatalErrors());
        assertEquals(2, created.size());
        assertTrue(created.get(0).closed(), "the fenced producer is closed");
        assertTrue(created.get(1).transactionCommitted());
        assertEquals(2, created.get(1).history().size(), "the whole operation was written again");
    }

    @Test
    void retriesAreBoundedAndTheOperationReportsFailed() {
        TransactionFlow flow = flow(
                () -> {
                    MockProducer<String, byte[]> producer = mock();
                    producer.commitTransactionException = new TransactionAbortableException("always");
                    return producer;
                },
                2);
        OperationTimings timings = write(flow);
        assertEquals(Outcome.FAILED, timings.outcome());
        assertEquals(3, timings.abortedAttempts(), "first attempt plus maxRetries, each aborted");
        assertFalse(created.get(0).transactionCommitted());
    }

    @Test
    void closeAbortsAnOpenTransaction() {
        TransactionalSession session = new TransactionalSession("tx-1", id -> mock());
        session.start();
        session.begin();
        assertTrue(session.transactionOpen());
        session.close(Duration.ofSeconds(1));
        assertFalse(session.transactionOpen());
        assertTrue(created.get(0).transactionAborted());
        assertTrue(created.get(0).closed());
    }

    @Test
    void aFailedReplacementLeavesNoProducerUntilTheNextBeginCreatesOne() {
        AtomicInteger creations = new AtomicInteger();
        TransactionalSession session = new TransactionalSession("tx-1", id -> {
            if (creations.incrementAndGet() == 2) {
                throw new KafkaException("broker unreachable");
            }
            return mock();
        });
        session.start();
        session.replaceProducer();
        assertNull(session.producer(), "the second creation failed");
        assertTrue(created.get(0).closed(), "the replaced producer is closed");
        assertTrue(session.ensureProducer(), "a producer is created again");
        assertFalse(session.ensureProducer(), "and then kept");
        assertEquals(2, created.size());
        assertTrue(created.get(1).transactionInitialized());
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.ClientFaults;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.util.concurrent.TimeUnit;
import org.apache.bookkeeper.stats.NullStatsLogger;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A client fault armed on a stream processor that polls nothing (its partitions get no input, or its group gave it
 * none) is carried out between transactions once it has waited {@link StreamProcessor#IDLE_GRACE}, not left waiting
 * for a transaction that never comes. Kafka's MockConsumer (no partitions assigned: every poll is empty) and
 * MockProducer.
 */
class IdleClientFaultTest {

    private static StreamProcessor idleProcessor(MockProducer<String, byte[]> producer) {
        TxStatsReporter stats = new TxStatsReporter(NullStatsLogger.INSTANCE);
        TransactionSettings settings = new TransactionSettings(true, 1, 60_000, "omb-tx", true, 3);
        TransactionFlow flow = TransactionFlow.start("omb-tx-idle-stream-g-0", id -> producer, settings, stats);
        return StreamProcessor.transactional(
                new MockConsumer<>("earliest"),
                "source",
                "source-out",
                1,
                1,
                flow,
                new CallbackDispatch(new NoCallback()),
                null);
    }

    /** Nothing is consumed: the processor has no input. */
    private static final class NoCallback implements ConsumerCallback {
        @Override
        public void messageReceived(byte[] payload, long publishTimestamp) {}

        @Override
        public void messageReceived(java.nio.ByteBuffer payload, long publishTimestamp) {}
    }

    private static MockProducer<String, byte[]> producer() {
        return new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    }

    @Test
    void aKillOnAProcessorWithoutInputIsCarriedOutAfterTheGraceWithNothingOpen() throws Exception {
        MockProducer<String, byte[]> producer = producer();
        StreamProcessor processor = idleProcessor(producer);
        try {
            ClientFault fault = new ClientFault(ClientFaults.Step.KILL, 0);
            long armed = System.nanoTime();
            assertTrue(processor.cut(fault));
            fault.endedFuture().get(30, TimeUnit.SECONDS);
            long waited = System.nanoTime() - armed;
            assertTrue(
                    waited >= StreamProcessor.IDLE_GRACE.toNanos(),
                    "carried out after " + TimeUnit.NANOSECONDS.toMillis(waited) + " ms, before the grace");

            ClientFaults.Report report = fault.report(0);
            assertEquals(0, report.abortedTransactions(), "no transaction was open");
            assertEquals(0, report.reprocessedRecords());
            assertEquals(0, report.fencings());
            assertNotNull(report.note());
            assertTrue(report.note().startsWith("carried out between transactions, none open"), report.note());
            assertEquals(fault, processor.haltedBy());
            assertEquals(0, producer.history().size());
            assertFalse(producer.transactionInFlight());
            assertFalse(producer.closed(), "killed: the producer is abandoned as it is, not closed");
        } finally {
            processor.close();
        }
    }

    @Test
    void aPauseOnAProcessorWithoutInputHoldsItUntilResumedAndHasNothingToFence() throws Exception {
        MockProducer<String, byte[]> producer = producer();
        StreamProcessor processor = idleProcessor(producer);
        try {
            ClientFault fault = new ClientFault(ClientFaults.Step.PAUSE, 0);
            assertTrue(processor.cut(fault));
            fault.actedFuture().get(30, TimeUnit.SECONDS);
            assertFalse(fault.endedFuture().isDone(), "held until resumed");
            fault.resume();
            fault.endedFuture().get(30, TimeUnit.SECONDS);

            ClientFaults.Report report = fault.report(0);
            assertEquals(0, report.abortedTransactions());
            assertEquals(0, report.fencings(), "nothing to fence");
            assertEquals(0, report.zombieCommits());
            assertTrue(report.note().contains("no call to be fenced"), report.note());
        } finally {
            processor.close();
        }
    }
}

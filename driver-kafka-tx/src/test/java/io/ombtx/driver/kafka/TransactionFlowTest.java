package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.ombtx.driver.api.Phase;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one transaction control flow, on MockProducers whose calls are logged and advance a test clock by a fixed
 * cost each (nothing else moves it), so every phase's time is known exactly.
 */
class TransactionFlowTest {

    private static final long INIT = 1_000_000;
    private static final Map<String, Long> COST = Map.of(
            "begin",
            1L,
            "send",
            10L,
            "ack",
            100L,
            "sendOffsets",
            1_000L,
            "commit",
            10_000L,
            "abort",
            100_000L,
            "init",
            INIT);
    /** What a phase holds when it runs once over two records. */
    private static final Map<Phase, List<String>> CALLS = Map.of(
            Phase.BEGIN, List.of("begin"),
            Phase.SEND, List.of("send", "send"),
            Phase.RESOLVE, List.of("ack", "ack"),
            Phase.SEND_OFFSETS, List.of("sendOffsets"),
            Phase.COMMIT, List.of("commit"));

    private final AtomicLong clock = new AtomicLong();
    private final List<String> calls = new ArrayList<>();
    private final List<LoggedProducer> created = new ArrayList<>();
    private final List<String> ids = new ArrayList<>();
    private final List<PhaseTimer> timers = new ArrayList<>();
    private final CountingStatsLogger statsLogger = new CountingStatsLogger();
    private Consumer<LoggedProducer> setUp = producer -> {};

    private TransactionFlow flow(AckWait ackWait, int maxRetries) {
        TransactionalSession session = new TransactionalSession("tx-1", id -> {
            ids.add(id);
            LoggedProducer producer = new LoggedProducer();
            setUp.accept(producer);
            created.add(producer);
            return producer;
        });
        session.start();
        calls.clear();
        Supplier<PhaseTimer> timer = () -> {
            PhaseTimer t = new PhaseTimer(clock::get);
            timers.add(t);
            return t;
        };
        return new TransactionFlow(session, ackWait, maxRetries, new TxStatsReporter(statsLogger), timer);
    }

    private static List<ProducerRecord<String, byte[]>> twoRecords() {
        return List.of(
                new ProducerRecord<>("t", 0, null, new byte[] {0}), new ProducerRecord<>("t", 1, null, new byte[] {1}));
    }

    private static OffsetsToCommit offsets() {
        return new OffsetsToCommit(
                Map.of(new TopicPartition("source", 0), new OffsetAndMetadata(7)), new ConsumerGroupMetadata("group"));
    }

    private static List<Phase> order(AckWait ackWait, boolean withOffsets) {
        List<Phase> order = new ArrayList<>(List.of(Phase.BEGIN, Phase.SEND));
        if (withOffsets) {
            order.add(Phase.SEND_OFFSETS);
        }
        order.add(Phase.COMMIT);
        switch (ackWait) {
            case BEFORE_SEND_OFFSETS -> order.add(2, Phase.RESOLVE);
            case BEFORE_COMMIT -> order.add(order.size() - 1, Phase.RESOLVE);
            case AFTER_COMMIT -> order.add(Phase.RESOLVE);
        }
        return order;
    }

    /** Each phase's time: the costs of its calls, which it must hold exactly. */
    private static Map<Phase, Long> phasesOf(List<Phase> order) {
        Map<Phase, Long> phases = new EnumMap<>(Phase.class);
        for (Phase phase : order) {
            phases.put(phase, CALLS.get(phase).stream().mapToLong(COST::get).sum());
        }
        return phases;
    }

    private static long sumOfPhases(OperationTimings timings) {
        return timings.phaseNanos().entrySet().stream()
                .filter(e -> e.getKey() != Phase.TRANSACTION)
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    private long count(String call) {
        return Collections.frequency(calls, call);
    }

    @ParameterizedTest
    @EnumSource(AckWait.class)
    void eachAckWaitRunsThePhasesInItsOrderAndTheyAddUpToTheTransaction(AckWait ackWait) {
        OperationResult result = flow(ackWait, 3).run(twoRecords(), TransactionFlowTest::offsets);

        List<Phase> order = order(ackWait, true);
        assertEquals(order, timers.get(0).sequence(), "phases recorded in the order they ran");
        assertEquals(order.stream().flatMap(p -> CALLS.get(p).stream()).toList(), calls, "the producer saw that order");
        OperationTimings timings = result.timings();
        Map<Phase, Long> expected = phasesOf(order);
        long total = expected.values().stream().mapToLong(Long::longValue).sum();
        expected.put(Phase.TRANSACTION, total);
        assertEquals(
                expected, timings.phaseNanos(), "each phase holds exactly its calls, and they add up to the whole");
        assertEquals(Outcome.COMMITTED, timings.outcome());
        assertEquals(2, timings.messages());
        assertNull(result.failure());
        assertEquals(
                List.of(Map.of("group", offsets().offsets())), created.get(0).consumerGroupOffsetsHistory());
        assertEquals(1, statsLogger.counter("tx/committed"));
        assertEquals(1, statsLogger.events("tx/resolve"));
    }

    /** The caller's bookkeeping at the quiet point: logged, and a long time on the test clock. */
    private final Runnable quietPoint = () -> {
        calls.add("quiet");
        clock.addAndGet(QUIET);
    };

    private static final long QUIET = 5_000_000_000L;

    @ParameterizedTest
    @EnumSource(AckWait.class)
    void theQuietPointRunsOnceAfterTheOffsetsAreSentBeforeTheCommitAndInNoTiming(AckWait ackWait) {
        OperationResult result = flow(ackWait, 3).run(twoRecords(), TransactionFlowTest::offsets, quietPoint);

        List<String> expectedCalls = new ArrayList<>(order(ackWait, true).stream()
                .flatMap(p -> CALLS.get(p).stream())
                .toList());
        expectedCalls.add(expectedCalls.indexOf("sendOffsets") + 1, "quiet");
        assertEquals(expectedCalls, calls, "the requests go out first, the bookkeeping follows, then acks and commit");
        Map<Phase, Long> expected = phasesOf(order(ackWait, true));
        expected.put(
                Phase.TRANSACTION,
                expected.values().stream().mapToLong(Long::longValue).sum());
        assertEquals(
                expected,
                result.timings().phaseNanos(),
                "the quiet point's time is in no phase and not in the transaction");
    }

    @Test
    void withoutOffsetsTheQuietPointFollowsTheSends() {
        OperationResult result = flow(AckWait.AFTER_COMMIT, 3).run(twoRecords(), null, quietPoint);

        assertEquals(List.of("begin", "send", "send", "quiet", "commit", "ack", "ack"), calls);
        assertEquals(result.timings().totalNanos(), sumOfPhases(result.timings()));
        assertEquals(2 * 10L + 1 + 10_000 + 2 * 100, result.timings().totalNanos());
    }

    @Test
    void anAttemptThatFailsBeforeTheQuietPointRunsItOnceAtTheEnd() {
        setUp = producer -> producer.sendOffsetsToTransactionException = new TransactionAbortableException("no");
        OperationResult result =
                flow(AckWait.BEFORE_COMMIT, 1).run(twoRecords(), TransactionFlowTest::offsets, quietPoint);

        assertEquals(Outcome.FAILED, result.timings().outcome());
        assertEquals(1, count("quiet"), "once, however many attempts");
        assertEquals("quiet", calls.get(calls.size() - 1), "after the last attempt's abort");
        assertEquals(result.timings().totalNanos(), sumOfPhases(result.timings()));
    }

    @ParameterizedTest
    @EnumSource(AckWait.class)
    void aTransactionJoinedOneRecordAtATimeLeavesTheWaitsBetweenThemOutOfEveryPhase(AckWait ackWait) {
        TransactionFlow.Transaction transaction = flow(ackWait, 3).begin();
        clock.addAndGet(5_000_000);
        transaction.send(twoRecords().get(0));
        clock.addAndGet(7_000_000);
        transaction.send(twoRecords().get(1));
        clock.addAndGet(9_000_000); // e.g. waiting for the commit interval
        OperationTimings timings = transaction.commit().timings();

        List<Phase> order = order(ackWait, false);
        assertEquals(order, timers.get(0).sequence());
        Map<Phase, Long> expected = phasesOf(order);
        long phases = expected.values().stream().mapToLong(Long::longValue).sum();
        expected.put(Phase.TRANSACTION, phases + 21_000_000);
        assertEquals(expected, timings.phaseNanos(), "SEND sums the sends; the waits are in the transaction only");
        assertEquals(Outcome.COMMITTED, timings.outcome());
        assertEquals(2, timings.messages());
    }

    @Test
    void aSendOffsetsOnlyTransactionHasNoSendOrResolvePhase() {
        OperationResult result = flow(AckWait.BEFORE_SEND_OFFSETS, 3).run(List.of(), TransactionFlowTest::offsets);
        assertEquals(
                List.of(Phase.BEGIN, Phase.SEND_OFFSETS, Phase.COMMIT),
                timers.get(0).sequence());
        assertEquals(
                Map.of(Phase.BEGIN, 1L, Phase.SEND_OFFSETS, 1_000L, Phase.COMMIT, 10_000L, Phase.TRANSACTION, 11_001L),
                result.timings().phaseNanos());
        assertEquals(0, result.timings().messages());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void retriesStopAtTheBudgetAndTheTransactionFails(int maxRetries) {
        setUp = producer -> producer.commitTransactionException = new TransactionAbortableException("always");
        OperationResult result = flow(AckWait.BEFORE_SEND_OFFSETS, maxRetries).run(twoRecords(), null);

        assertEquals(Outcome.FAILED, result.timings().outcome());
        assertInstanceOf(TransactionAbortableException.class, result.failure());
        int attempts = maxRetries + 1;
        assertEquals(attempts, result.timings().abortedAttempts());
        assertEquals(attempts, count("begin"));
        assertEquals(2L * attempts, count("send"), "every attempt sends the whole transaction again");
        assertEquals(attempts, count("commit"));
        assertEquals(attempts, count("abort"));
        assertEquals(1, created.size(), "an abortable error keeps the producer");
        assertEquals(attempts * COST.get("abort"), result.timings().nanos(Phase.ABORT));
        assertEquals(result.timings().totalNanos(), sumOfPhases(result.timings()));
        assertEquals(attempts, statsLogger.counter("tx/aborted"));
        assertEquals(1, statsLogger.counter("tx/failed"));
        assertEquals(0, statsLogger.counter("tx/committed"));
        assertEquals(
                new OperationTimings.Recovery(maxRetries, 0, 0, 0),
                result.timings().recovery(),
                "every attempt after the first is a retry; none was fenced, no producer replaced");
        assertEquals(maxRetries, statsLogger.counter("tx/retries"));
    }

    @Test
    void aRecordJoinedOneByOneIsSentAgainInTheRetryAfterAnAbort() {
        setUp = producer -> producer.failCommits = 1;
        TransactionFlow.Transaction transaction = flow(AckWait.AFTER_COMMIT, 3).begin();
        transaction.send(twoRecords().get(0));
        transaction.send(twoRecords().get(1));
        OperationResult result = transaction.commit();
        LoggedProducer producer = created.get(0);

        assertEquals(Outcome.COMMITTED, result.timings().outcome());
        assertEquals(1, result.timings().abortedAttempts());
        assertEquals(4, count("send"));
        assertEquals(2, producer.history().size(), "the retry committed both records once");
        assertEquals(
                List.of(0, 1),
                producer.history().stream().map(ProducerRecord::partition).toList());
    }

    @Test
    void aFatalErrorReplacesTheProducerAndTheTransactionCommitsOnTheNewOne() {
        TransactionFlow flow = flow(AckWait.BEFORE_SEND_OFFSETS, 3);
        created.get(0).fenceProducer();
        OperationResult result = flow.run(twoRecords(), TransactionFlowTest::offsets);

        OperationTimings timings = result.timings();
        assertEquals(Outcome.COMMITTED, timings.outcome());
        assertEquals(1, timings.fatalErrors());
        assertEquals(0, timings.abortedAttempts());
        assertEquals(2, created.size());
        assertTrue(created.get(0).closed(), "the fenced producer is closed");
        assertTrue(created.get(1).transactionCommitted());
        assertEquals(2, created.get(1).history().size());
        assertEquals(List.of("begin", "init", "begin", "send", "send", "ack", "ack", "sendOffsets", "commit"), calls);
        assertEquals(
                COST.get("begin") + INIT,
                timings.totalNanos() - sumOfPhases(timings),
                "the fenced call and the new producer's initTransactions are in the transaction but in no phase");
        assertEquals(1, statsLogger.counter("tx/fatal"));
        assertEquals(1, statsLogger.counter("tx/committed"));
        assertEquals(
                new OperationTimings.Recovery(1, 1, 1, 0),
                timings.recovery(),
                "one retry, on a producer that replaced the fenced one");
        assertEquals(1, statsLogger.counter("tx/fenced"));
        assertEquals(1, statsLogger.counter("tx/producersReplaced"));
    }

    @Test
    void aFatalSendInATransactionJoinedOneByOneReplacesTheProducerAndResendsEverything() {
        TransactionFlow flow = flow(AckWait.BEFORE_SEND_OFFSETS, 3);
        TransactionFlow.Transaction transaction = flow.begin();
        created.get(0).fenceProducer();
        transaction.send(twoRecords().get(0));
        transaction.send(twoRecords().get(1)); // not sent: the attempt has already failed
        OperationResult result = transaction.commit();

        assertEquals(Outcome.COMMITTED, result.timings().outcome());
        assertEquals(1, result.timings().fatalErrors());
        assertEquals(List.of("begin", "send", "init", "begin", "send", "send", "ack", "ack", "commit"), calls);
        assertEquals(2, created.get(1).history().size());
    }

    @Test
    void aCommitThatKeepsTimingOutIsNeverRetriedAsANewAttempt() {
        setUp = producer -> producer.commitTransactionException = new TimeoutException("coordinator is slow");
        OperationResult result = flow(AckWait.BEFORE_SEND_OFFSETS, 2).run(twoRecords(), null);

        assertEquals(Outcome.FAILED, result.timings().outcome());
        assertInstanceOf(CommitOutcomeUnknownException.class, result.failure());
        assertEquals(3, count("commit"), "the first commit and maxRetries repeats");
        assertEquals(1, count("begin"), "its outcome is unknown, so the records are not written again");
        assertEquals(2, created.size(), "the producer is replaced");
        assertEquals(1, result.timings().fatalErrors());
        assertEquals(
                new OperationTimings.Recovery(2, 0, 1, 0),
                result.timings().recovery(),
                "two repeated commits; a new producer, not fenced");
    }

    @Test
    void onCloseAFailedCommitIsAbortedWithoutRetryOrNewProducer() {
        setUp = producer -> producer.commitTransactionException = new TransactionAbortableException("closing");
        TransactionFlow flow = flow(AckWait.BEFORE_SEND_OFFSETS, 3);
        TransactionFlow.Transaction transaction = flow.begin();
        transaction.send(twoRecords().get(0));
        OperationResult result = transaction.commitOnClose();

        assertEquals(Outcome.FAILED, result.timings().outcome());
        assertEquals(List.of("begin", "send", "ack", "commit", "abort"), calls);
        assertEquals(1, created.size());
        assertTrue(created.get(0).transactionAborted());
        assertEquals(1, statsLogger.counter("tx/aborted"));
        assertEquals(1, statsLogger.counter("tx/failed"));
    }

    @Test
    void withChurnEachIdEndsItsShareAndTheNextTransactionMovesToANewProducerTimedAsInit() {
        TransactionFlow flow = flow(AckWait.AFTER_COMMIT, 3);
        flow.renewEvery(2);
        List<OperationTimings> done = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            done.add(flow.run(twoRecords(), null).timings());
        }

        assertEquals(List.of("tx-1", "tx-1.2", "tx-1.3"), ids, "a new id after every second transaction");
        assertEquals("tx-1.3", flow.transactionalId());
        assertEquals(3, created.size());
        assertTrue(created.get(0).closed() && created.get(1).closed(), "each id's producer is closed when it is done");
        assertFalse(created.get(2).closed());
        for (int i = 0; i < 5; i++) {
            OperationTimings timings = done.get(i);
            assertEquals(Outcome.COMMITTED, timings.outcome());
            boolean renewed = i == 2 || i == 4;
            assertEquals(
                    renewed ? INIT : -1,
                    timings.nanos(Phase.INIT),
                    "transaction " + i + ": the new producer's initTransactions, and nothing else, is its init");
            assertEquals(timings.totalNanos(), sumOfPhases(timings), "the phases hold the whole transaction");
            assertEquals(renewed, timings.sequence().contains(Phase.INIT));
        }
        assertEquals(4, created.get(0).history().size(), "two transactions of two records on the first id");
        assertEquals(0, statsLogger.counter("tx/producersReplaced"), "churn is not a replacement after an error");
    }

    @Test
    void closeAbortsAnOpenTransactionAndClosesTheProducer() {
        TransactionFlow flow = flow(AckWait.AFTER_COMMIT, 3);
        flow.begin().send(twoRecords().get(0));
        flow.close(java.time.Duration.ofSeconds(1));
        assertTrue(created.get(0).transactionAborted());
        assertFalse(created.get(0).transactionCommitted());
        assertTrue(created.get(0).closed());
        assertEquals(1, statsLogger.counter("tx/aborted"));
    }

    /** Logs each call and advances the clock by its cost; its acks log and cost when read. */
    private final class LoggedProducer extends MockProducer<String, byte[]> {

        int failCommits; // commits that throw TransactionAbortableException before they work

        LoggedProducer() {
            super(true, null, new StringSerializer(), new ByteArraySerializer());
        }

        private void call(String name) {
            calls.add(name);
            clock.addAndGet(COST.get(name));
        }

        @Override
        public void initTransactions() {
            call("init");
            super.initTransactions();
        }

        @Override
        public void beginTransaction() {
            call("begin");
            super.beginTransaction();
        }

        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
            call("send");
            return new LoggedAck(super.send(record, callback));
        }

        @Override
        public void sendOffsetsToTransaction(
                Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
            call("sendOffsets");
            super.sendOffsetsToTransaction(offsets, groupMetadata);
        }

        @Override
        public void commitTransaction() {
            call("commit");
            if (failCommits > 0) {
                failCommits--;
                throw new TransactionAbortableException("commit fails");
            }
            super.commitTransaction();
        }

        @Override
        public void abortTransaction() {
            call("abort");
            super.abortTransaction();
        }
    }

    private final class LoggedAck implements Future<RecordMetadata> {
        private final Future<RecordMetadata> ack;

        LoggedAck(Future<RecordMetadata> ack) {
            this.ack = ack;
        }

        @Override
        public RecordMetadata get() throws InterruptedException, ExecutionException {
            calls.add("ack");
            clock.addAndGet(COST.get("ack"));
            return ack.get();
        }

        @Override
        public RecordMetadata get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException {
            return get();
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return ack.cancel(mayInterruptIfRunning);
        }

        @Override
        public boolean isCancelled() {
            return ack.isCancelled();
        }

        @Override
        public boolean isDone() {
            return ack.isDone();
        }
    }
}

package io.ombtx.driver.kafka;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.ombtx.driver.api.Phase;
import io.ombtx.driver.api.ReportQueue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control flow of every transaction the driver runs (WRITE and SEND_OFFSETS operations, stock OMB's sendAsync
 * batches, STREAM). The caller gives the records and, optionally, the offsets; the flow runs
 * <pre>
 *   begin [BEGIN], send [SEND], sendOffsetsToTransaction [SEND_OFFSETS], commit [COMMIT]
 * </pre>
 * with the wait for the sends' acks [RESOLVE] where {@link AckWait} puts it. Phases are laps of one clock, so in
 * every order they add up to the whole transaction [TRANSACTION], except for time deliberately in no phase: replacing
 * a producer, and the waits between records that join a transaction one at a time.
 *
 * <p>A failed attempt is aborted [ABORT] and retried; after a fatal error, or a failed abort, the producer is
 * replaced and the attempt retried. Retries stop after {@code maxRetries}. A commit that times out is repeated, as
 * kafka-clients requires, up to {@code maxRetries} times; after that its outcome is unknown and it is never retried,
 * since that could write it twice.
 *
 * <p>With an {@link AbortChoice} ({@code operation.abortRatio}), a transaction chosen before its sends carries the
 * header {@link ExactlyOnceReport#ABORTED_HEADER} on every record and, once its sends are acknowledged (so its records
 * are in the log for a read_committed reader to skip) and its offsets sent, is aborted [ABORT] instead of committed.
 * A failed attempt of it is retried as any other, and the retry aborts in its turn.
 *
 * <p>Each transaction ends as one operation, COMMITTED, ABORTED (on purpose) or FAILED, reported to the stats.
 * Not thread-safe: one thread at a time.
 */
final class TransactionFlow {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionFlow.class);
    private static final byte[] ABORTED_MARK = "1".getBytes(StandardCharsets.UTF_8);

    private final TransactionalSession session;
    private final AckWait ackWait;
    private final int maxRetries;
    private final TxStatsReporter stats;
    private final Supplier<PhaseTimer> timers;
    private Executor reports = Runnable::run;
    /** A closed loop's: a transaction is reported when its timings are first read, by the loop's recorder. */
    private volatile boolean reportWhenRead;

    private final OperationResult.Builder builder = this::build;
    private AbortChoice aborts = AbortChoice.NEVER;
    /** A client fault armed by another thread, carried out at the next transaction's decision point. */
    private volatile ClientFault pendingFault;
    /**
     * The session's client retries when the last transaction's timings were built. The metric is read there, where
     * the timings are built (off a closed loop's thread), not between two transactions; a retry is thus counted in
     * the first transaction built after it, and the total stays exact.
     */
    private long clientRetriesCounted;

    /** @param timers a new timer per transaction, started when the transaction begins */
    TransactionFlow(
            TransactionalSession session,
            AckWait ackWait,
            int maxRetries,
            TxStatsReporter stats,
            Supplier<PhaseTimer> timers) {
        this.session = session;
        this.ackWait = ackWait;
        this.maxRetries = maxRetries;
        this.stats = stats;
        this.timers = timers;
        this.clientRetriesCounted = session.clientRetries();
    }

    /** Starts a session for {@code transactionalId} and runs transactions as {@code settings} say. */
    static TransactionFlow start(
            String transactionalId,
            Function<String, Producer<String, byte[]>> producerFactory,
            TransactionSettings settings,
            TxStatsReporter stats) {
        return start(transactionalId, producerFactory, settings, settings.ackWait(), stats);
    }

    /** As {@link #start(String, Function, TransactionSettings, TxStatsReporter)}, acks awaited where {@code ackWait} says. */
    static TransactionFlow start(
            String transactionalId,
            Function<String, Producer<String, byte[]>> producerFactory,
            TransactionSettings settings,
            AckWait ackWait,
            TxStatsReporter stats) {
        TransactionalSession session = new TransactionalSession(transactionalId, producerFactory);
        session.start();
        return new TransactionFlow(session, ackWait, settings.maxRetries(), stats, PhaseTimer::new);
    }

    String transactionalId() {
        return session.transactionalId();
    }

    /**
     * Where each finished transaction is reported to the driver's stats: by default on the calling thread; a closed
     * loop hands it to a {@link ReportQueue} so that nothing but the loop runs between two transactions.
     */
    void reportThrough(Executor executor) {
        this.reports = executor;
    }

    /**
     * A closed loop's flow: each transaction is reported to the driver's stats when its timings are first read
     * ({@link OperationResult#timings}), which the loop's recorder does off the loop's thread, so that nothing is
     * queued between two transactions but the loop's own one record.
     */
    void reportWhenRead() {
        this.reportWhenRead = true;
    }

    /** A finished transaction's timings, with the client's retries since the last one built; reported if asked. */
    private OperationTimings build(PhaseTimer timer, int messages, Outcome outcome) {
        timer.clientRetries(clientRetriesSince());
        OperationTimings timings = timer.finish(messages, outcome);
        if (reportWhenRead) {
            stats.report(timings);
        }
        return timings;
    }

    private synchronized long clientRetriesSince() {
        long now = session.clientRetries();
        long since = now - clientRetriesCounted;
        clientRetriesCounted = now;
        return since;
    }

    /** Which transactions of {@link #run} abort on purpose (default: none). */
    void abortOnPurpose(AbortChoice choice) {
        this.aborts = choice;
    }

    /**
     * Producer churn ({@code operation.transactionsPerProducer}): each transactional id ends this many transactions,
     * then the next transaction begins on a new producer under a new id, the move timed as its INIT phase.
     */
    void renewEvery(int transactions) {
        session.renewEvery(transactions);
    }

    /** The choice of aborts on purpose, which a new instance of the transactional id carries on. */
    AbortChoice abortChoice() {
        return aborts;
    }

    /**
     * Arms a client fault (from any thread): the next transaction {@link #run} carries out, after its sends and its
     * offsets and before its commit (or its abort on purpose), then throws {@link ClientHalted} past every retry.
     */
    void cutAt(ClientFault fault) {
        fault.armed();
        pendingFault = fault;
    }

    /**
     * For a client with no input (a stream processor whose partitions get no records, or that has none): carries out
     * the armed client fault now, between transactions, none open, once it has waited {@code graceNanos} for a
     * transaction to cut. Throws {@link ClientHalted} if it did; else returns. On the client's own thread only.
     */
    void cutIfIdle(long graceNanos) {
        ClientFault fault = pendingFault;
        if (fault == null || !fault.waitedAtLeast(graceNanos)) {
            return;
        }
        pendingFault = null;
        throw fault.cutIdle();
    }

    /**
     * Runs one transaction of {@code records} and commits it (or aborts it, when the flow's {@link AbortChoice} picks
     * it), retrying as needed. The records are built once by the caller, so a retry resends them with their original
     * publish time; a transaction picked to abort has its records marked here, before they are sent.
     *
     * @param offsets what each attempt passes to sendOffsetsToTransaction, or null for no such call
     */
    OperationResult run(List<ProducerRecord<String, byte[]>> records, Supplier<OffsetsToCommit> offsets) {
        return run(records, offsets, null);
    }

    /**
     * {@link #run(List, Supplier)}, running {@code quietPoint} (when not null) once, outside the transaction's timings,
     * where its first attempt's records are handed to the client and its offsets sent, before the acks are awaited
     * and the commit called; or at the end when the attempt failed before it.
     */
    OperationResult run(
            List<ProducerRecord<String, byte[]>> records, Supplier<OffsetsToCommit> offsets, Runnable quietPoint) {
        Transaction transaction = beginAndSend(records, offsets);
        transaction.quietPoint = quietPoint;
        return transaction.commit();
    }

    /**
     * The first half of {@link #run(List, Supplier)}, for a closed loop that runs its own steps between two
     * transactions where they cost nothing: begins the transaction, hands its records to the client and sends its
     * offsets (unless the flow awaits the acks before them), and returns at that quiet point with its clock paused.
     * {@link Transaction#finish} runs the rest (the acks, the commit, the retries) with the clock running again, so
     * the time between the two halves is in neither the phases nor the whole. A failure in this half is the
     * attempt's, retried by the second half as in {@link #run(List, Supplier)}.
     */
    Transaction runToQuietPoint(List<ProducerRecord<String, byte[]>> records, Supplier<OffsetsToCommit> offsets) {
        Transaction transaction = beginAndSend(records, offsets);
        transaction.sendOffsetsAhead();
        transaction.timer.pause();
        return transaction;
    }

    /** Decides whether the transaction aborts on purpose (marking its records if so), begins it and sends them. */
    private Transaction beginAndSend(List<ProducerRecord<String, byte[]>> records, Supplier<OffsetsToCommit> offsets) {
        boolean abortOnPurpose = aborts.next();
        if (abortOnPurpose) {
            for (ProducerRecord<String, byte[]> record : records) {
                record.headers().add(ExactlyOnceReport.ABORTED_HEADER, ABORTED_MARK);
            }
        }
        Transaction transaction = new Transaction(records, offsets, false, abortOnPurpose);
        transaction.sendAll();
        return transaction;
    }

    /** Begins a transaction that records join one at a time ({@link Transaction#send}), without offsets. */
    Transaction begin() {
        return new Transaction(new ArrayList<>(), null, true, false);
    }

    /** Aborts an open transaction, best effort (e.g. when a consumer's partitions are revoked). */
    void abortIfOpen() {
        if (session.abortIfOpen()) {
            stats.aborted();
        }
    }

    /**
     * Closes the producer at once from another thread, so that a call blocked on the broker (a commit) fails now;
     * the owning thread then finds the producer closed. Kafka's producer allows close from any thread.
     */
    void forceClose() {
        session.forceClose();
    }

    /** Aborts an open transaction and closes the producer within {@code timeout}. */
    void close(Duration timeout) {
        abortIfOpen();
        session.close(timeout);
    }

    /** One transaction over its attempts. Its timer starts at the first begin. */
    final class Transaction {

        // The timer covers what the seeds' loop timed: from just before the begin.
        private final PhaseTimer timer = timers.get();
        private final List<ProducerRecord<String, byte[]>> records;
        private final Supplier<OffsetsToCommit> offsets;
        private final boolean joinedOneByOne;
        private final boolean abortOnPurpose;
        private PendingAcks acks;
        private Throwable failure; // the first error of the attempt in progress
        /** Whether the attempt in progress sent its offsets already ({@link #sendOffsetsAhead}). */
        private boolean offsetsSent;
        /** The caller's bookkeeping to run once at the quiet point (see {@link #run(List, Supplier, Runnable)}). */
        private Runnable quietPoint;

        private Transaction(
                List<ProducerRecord<String, byte[]>> records,
                Supplier<OffsetsToCommit> offsets,
                boolean joinedOneByOne,
                boolean abortOnPurpose) {
            this.records = records;
            this.offsets = offsets;
            this.joinedOneByOne = joinedOneByOne;
            this.abortOnPurpose = abortOnPurpose;
            if (session.renewIfDue()) {
                timer.lap(Phase.INIT);
            }
            beginAttempt();
        }

        /** Records in this transaction so far. */
        int size() {
            return records.size();
        }

        /** The flow (the transactional id's instance) this transaction runs on. */
        TransactionFlow flow() {
            return TransactionFlow.this;
        }

        /** The second half of a transaction begun by {@link #runToQuietPoint}: its clock runs again, then commit. */
        OperationResult finish() {
            timer.resume();
            return commit();
        }

        /**
         * Adds a record and sends it in the current attempt, timed as SEND; the time since the last phase ended is
         * idle (waiting for the caller) and in no phase. After a failed begin or send the record is only kept, for
         * the retry.
         */
        void send(ProducerRecord<String, byte[]> record) {
            records.add(record);
            if (failure == null) {
                timer.skip();
                try {
                    acks.add(session.producer().send(record));
                } catch (InterruptException e) {
                    throw e;
                } catch (RuntimeException e) {
                    failure = e;
                }
                timer.lap(Phase.SEND);
            }
        }

        /** Finishes the attempt in progress and commits, retrying whole attempts up to the budget. */
        OperationResult commit() {
            skipIdle();
            for (int retry = 0; ; retry++) {
                if (failure == null) {
                    try {
                        return finishAttempt();
                    } catch (InterruptedException | InterruptException e) {
                        throw interrupted(e);
                    } catch (ClientHalted e) {
                        throw e;
                    } catch (Exception e) {
                        failure = ErrorClassifier.unwrap(e);
                    }
                }
                recover();
                if (retry >= maxRetries || failure instanceof CommitOutcomeUnknownException) {
                    return done(failure);
                }
                timer.retry();
                beginAttempt();
                sendAll();
            }
        }

        /**
         * For a closing producer: commits the attempt in progress if nothing in it failed, else aborts it. Never
         * retries and never replaces the producer.
         */
        OperationResult commitOnClose() {
            skipIdle();
            if (failure == null) {
                try {
                    return finishAttempt();
                } catch (Exception e) {
                    failure = ErrorClassifier.unwrap(e);
                }
            }
            abortIfOpen();
            return done(failure);
        }

        private void beginAttempt() {
            failure = null;
            offsetsSent = false;
            acks = new PendingAcks();
            try {
                if (session.ensureProducer()) {
                    timer.producerReplaced();
                    timer.skip(); // an earlier replacement failed; creating the producer is in no phase
                }
                session.begin();
                timer.lap(Phase.BEGIN);
            } catch (InterruptException e) {
                throw e;
            } catch (RuntimeException e) {
                failure = e;
            }
        }

        private void sendAll() {
            if (failure != null) {
                return;
            }
            try {
                acks = PendingAcks.send(session.producer(), records, timer);
            } catch (InterruptException e) {
                throw e;
            } catch (RuntimeException e) {
                failure = e;
            }
        }

        private void skipIdle() {
            if (joinedOneByOne) {
                timer.skip(); // waiting for more records, or for the commit interval, is in no phase
            }
        }

        /** Sends the offsets, commits and waits for the acks in the flow's order. */
        private OperationResult finishAttempt() throws ExecutionException, InterruptedException {
            if (abortOnPurpose) {
                return abortAsPlanned();
            }
            sendOffsets();
            if (ackWait == AckWait.BEFORE_COMMIT) {
                acks.await(timer);
            }
            decisionPoint(true);
            commitTransaction();
            if (ackWait == AckWait.AFTER_COMMIT) {
                try {
                    acks.await(timer);
                } catch (ExecutionException e) {
                    // A commit fails when a send did, so this cannot happen; the transaction is committed regardless.
                    LOG.warn(
                            "{} committed, but reading an ack failed: {}",
                            session.transactionalId(),
                            ErrorClassifier.describe(e));
                }
            }
            return done(null);
        }

        /**
         * For {@link #runToQuietPoint}: the first attempt's offsets sent now, where the flow does not await the acks
         * before them, so that the transaction's first requests are out before the caller's steps; a failure is the
         * attempt's.
         */
        private void sendOffsetsAhead() {
            if (failure != null || ackWait == AckWait.BEFORE_SEND_OFFSETS) {
                return;
            }
            try {
                sendOffsets();
            } catch (InterruptedException | InterruptException e) {
                throw interrupted(e);
            } catch (Exception e) {
                failure = ErrorClassifier.unwrap(e);
            }
        }

        /**
         * Sends the offsets, if the operation has any, after the acks when the flow waits for them first; once an
         * attempt.
         */
        private void sendOffsets() throws ExecutionException, InterruptedException {
            if (offsetsSent) {
                return;
            }
            if (ackWait == AckWait.BEFORE_SEND_OFFSETS) {
                acks.await(timer);
            }
            if (offsets != null) {
                OffsetsToCommit next = offsets.get();
                session.producer().sendOffsetsToTransaction(next.offsets(), next.groupMetadata());
                timer.lap(Phase.SEND_OFFSETS);
            }
            offsetsSent = true;
            runQuietPoint();
        }

        /** The caller's bookkeeping, once, outside the timings: the attempt's requests are out, its commit not called. */
        private void runQuietPoint() {
            Runnable task = quietPoint;
            if (task != null) {
                quietPoint = null;
                timer.exclude(task);
            }
        }

        /**
         * Ends a transaction picked to abort: its offsets are sent as in a committed one, its acks are awaited before
         * the abort whatever the flow's order (so its records are in the log, for a read_committed reader to skip),
         * then it is aborted. Not an aborted attempt: it is the operation's outcome.
         */
        private OperationResult abortAsPlanned() throws ExecutionException, InterruptedException {
            sendOffsets();
            if (ackWait != AckWait.BEFORE_SEND_OFFSETS) {
                acks.await(timer);
            }
            decisionPoint(false);
            session.abort();
            timer.lap(Phase.ABORT);
            return done(null, Outcome.ABORTED);
        }

        /**
         * Where an armed client fault cuts the transaction: every record sent and acknowledged as the flow's order
         * says, the offsets sent, the commit (or the abort on purpose) not yet called. Only from {@link #commit}.
         */
        private void decisionPoint(boolean endIsCommit) {
            ClientFault fault = pendingFault;
            if (fault == null || joinedOneByOne) {
                return;
            }
            pendingFault = null;
            throw fault.cut(
                    records.size(), session::abort, endIsCommit ? session::commit : session::abort, endIsCommit);
        }

        private void commitTransaction() {
            for (int timeouts = 0; ; timeouts++) {
                try {
                    session.commit();
                    timer.lap(Phase.COMMIT);
                    return;
                } catch (TimeoutException e) {
                    if (timeouts >= maxRetries) {
                        timer.lap(Phase.COMMIT);
                        throw new CommitOutcomeUnknownException(
                                "commit of " + session.transactionalId() + " timed out " + (timeouts + 1)
                                        + " times; its outcome is unknown",
                                e);
                    }
                    timer.retry(); // kafka-clients requires the same commit to be called again
                } catch (RuntimeException e) {
                    timer.lap(Phase.COMMIT);
                    throw e;
                }
            }
        }

        /** Clears a failed attempt: aborts it, or replaces the producer when the error requires that. */
        private void recover() {
            Throwable cause = failure;
            stats.failed(cause);
            boolean fenced = ErrorClassifier.fenced(cause);
            if (session.producer() != null
                    && !(cause instanceof CommitOutcomeUnknownException)
                    && ErrorClassifier.classify(cause) == ErrorClassifier.Recovery.ABORT_AND_RETRY) {
                try {
                    session.abort();
                    timer.lap(Phase.ABORT);
                    timer.abortedAttempt();
                    stats.aborted();
                    if (fenced) {
                        timer.fenced();
                    }
                    return;
                } catch (InterruptException e) {
                    throw e;
                } catch (RuntimeException abortFailed) {
                    timer.lap(Phase.ABORT);
                    cause = abortFailed; // e.g. fenced while aborting: replace the producer
                    fenced |= ErrorClassifier.fenced(abortFailed);
                }
            }
            if (fenced) {
                timer.fenced();
            }
            if (session.closing()) {
                timer.skip(); // closed on purpose: nothing is replaced, and the failure is the close's
                return;
            }
            LOG.warn("replacing producer {} after {}", session.transactionalId(), ErrorClassifier.describe(cause));
            timer.fatalError();
            stats.fatal();
            if (session.replaceProducer()) {
                timer.producerReplaced();
            }
            timer.skip();
        }

        private OperationResult done(Throwable error) {
            return done(error, error == null ? Outcome.COMMITTED : Outcome.FAILED);
        }

        private OperationResult done(Throwable error, Outcome outcome) {
            runQuietPoint(); // the attempts failed before it
            session.transactionEnded();
            // The timings are built, and the client's retries read, where they are reported: on a closed loop's
            // recorder or report queue, not on its thread between two transactions.
            OperationResult result = new OperationResult(timer, records.size(), outcome, error, builder);
            if (!reportWhenRead) {
                reports.execute(() -> stats.report(result.timings()));
            }
            return result;
        }
    }

    private static RuntimeException interrupted(Exception e) {
        Thread.currentThread().interrupt();
        return e instanceof InterruptException ie ? ie : new InterruptException((InterruptedException) e);
    }
}

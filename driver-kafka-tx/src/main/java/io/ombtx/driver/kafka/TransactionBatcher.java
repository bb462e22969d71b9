package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.ombtx.driver.api.Phase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;

/**
 * OMB's {@code sendAsync} in transactional mode: each send joins the open transaction, which commits when it holds
 * {@code messagesPerTransaction} messages or has been open for {@code commitIntervalMs}. Every send's future
 * completes when its transaction commits (so OMB's publish latency includes the commit), or exceptionally if the
 * transaction is finally given up. Runs only on the producer's single thread, which also serialises it with
 * {@code runOperation} calls.
 */
final class TransactionBatcher {

    private final TransactionalSession session;
    private final int messagesPerTransaction;
    private final long commitIntervalMs;
    private final boolean resolveBeforeCommit;
    private final ScheduledExecutorService producerThread;
    private final TxStatsReporter stats;

    private final List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
    private final List<CompletableFuture<Void>> completions = new ArrayList<>();
    private final List<Future<?>> acks = new ArrayList<>();
    private PhaseTimer timer; // non-null while a transaction is open
    private Throwable firstFailure; // a begin or send of the open transaction failed
    private long transactionSequence;
    private boolean closed; // finishOnClose ran: later sends are refused rather than left in a new transaction

    TransactionBatcher(TransactionalSession session, int messagesPerTransaction, long commitIntervalMs,
            boolean resolveBeforeCommit, ScheduledExecutorService producerThread, TxStatsReporter stats) {
        this.session = session;
        this.messagesPerTransaction = messagesPerTransaction;
        this.commitIntervalMs = commitIntervalMs;
        this.resolveBeforeCommit = resolveBeforeCommit;
        this.producerThread = producerThread;
        this.stats = stats;
    }

    void add(ProducerRecord<String, byte[]> record, CompletableFuture<Void> completion) {
        if (closed) {
            completion.completeExceptionally(new IllegalStateException("producer is closed"));
            return;
        }
        if (timer == null) {
            open();
        }
        records.add(record);
        completions.add(completion);
        if (firstFailure == null) {
            timer.skip(); // the idle time between sends belongs to no phase
            try {
                acks.add(session.producer().send(record));
            } catch (KafkaException | IllegalStateException e) {
                if (e instanceof InterruptException) {
                    throw e;
                }
                firstFailure = e;
            }
            timer.lap(Phase.SEND);
        }
        if (records.size() >= messagesPerTransaction) {
            commit();
        }
    }

    private void open() {
        timer = new PhaseTimer();
        long sequence = ++transactionSequence;
        try {
            session.begin(timer);
        } catch (KafkaException | IllegalStateException e) {
            if (e instanceof InterruptException) {
                throw e;
            }
            firstFailure = e;
        }
        // A slow producer rate must not leave messages waiting for the transaction to fill up.
        try {
            producerThread.schedule(() -> {
                if (timer != null && sequence == transactionSequence) {
                    commit();
                }
            }, commitIntervalMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // The producer is closing; finishOnClose ends this transaction.
        }
    }

    /** Commits the open transaction, retrying the whole batch after a failure. */
    void commit() {
        Batch batch = takeBatch();
        Throwable failure = batch.failure;
        if (failure == null) {
            try {
                if (resolveBeforeCommit) {
                    resolve(batch);
                }
                session.commit(batch.timer);
                if (!resolveBeforeCommit) {
                    resolve(batch);
                }
                finish(batch, null);
                return;
            } catch (InterruptException e) {
                throw e;
            } catch (Exception e) {
                failure = ErrorClassifier.unwrap(e);
            }
        }
        session.recover(failure, batch.timer);
        if (!(failure instanceof CommitOutcomeUnknownException) && session.maxRetries() > 0) {
            TxBody resend = new RecordBatchBody(batch.records, resolveBeforeCommit, null);
            failure = session.run(resend, batch.timer, session.maxRetries());
        }
        finish(batch, failure);
    }

    /** On close: commit what is open if every send so far succeeded, otherwise abort it; never retry. */
    void finishOnClose() {
        closed = true;
        if (timer == null) {
            return;
        }
        if (firstFailure == null) {
            Batch batch = takeBatch();
            try {
                if (resolveBeforeCommit) {
                    resolve(batch);
                }
                session.commit(batch.timer);
                finish(batch, null);
            } catch (Exception e) {
                session.abortIfOpen();
                finish(batch, ErrorClassifier.unwrap(e));
            }
        } else {
            Batch batch = takeBatch();
            session.abortIfOpen();
            finish(batch, batch.failure);
        }
    }

    private void resolve(Batch batch) throws Exception {
        for (Future<?> ack : batch.acks) {
            ack.get();
        }
        batch.timer.lap(Phase.RESOLVE);
    }

    private void finish(Batch batch, Throwable failure) {
        OperationTimings timings = batch.timer.finish(batch.records.size(),
                failure == null ? Outcome.COMMITTED : Outcome.FAILED);
        stats.report(timings);
        for (CompletableFuture<Void> completion : batch.completions) {
            if (failure == null) {
                completion.complete(null);
            } else {
                completion.completeExceptionally(failure);
            }
        }
    }

    private Batch takeBatch() {
        Batch batch = new Batch(List.copyOf(records), List.copyOf(completions), List.copyOf(acks), timer, firstFailure);
        records.clear();
        completions.clear();
        acks.clear();
        timer = null;
        firstFailure = null;
        return batch;
    }

    private record Batch(List<ProducerRecord<String, byte[]>> records, List<CompletableFuture<Void>> completions,
            List<Future<?>> acks, PhaseTimer timer, Throwable failure) {
    }
}

package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code sendAsync} in transactional mode, as group commit (Kafka Streams' {@code commit.interval.ms}): the first
 * send opens a transaction, every later send joins it, and it commits {@code commitIntervalMs} after it began or as
 * soon as it reaches {@code maxMessages} or {@code maxBytes}. A commit blocks the producer's thread, so the sends
 * that arrive meanwhile queue on it and all join the next transaction: the broker, not one commit round trip per
 * message, sets the rate. Every send's future completes when its transaction commits (so OMB's publish latency
 * includes the commit), or exceptionally if the transaction is finally given up. Runs only on the producer's single
 * thread, which also serialises it with {@code runOperation} calls.
 */
final class TransactionBatcher {

    /** What ends a transaction besides its interval; the omb-tx runner's PUBLISH gives a message count only. */
    record Bounds(int maxMessages, long maxBytes, long commitIntervalMs) {}

    private final TransactionFlow flow;
    private final Bounds bounds;
    private final ScheduledExecutorService producerThread;

    private final List<CompletableFuture<Void>> completions = new ArrayList<>();
    private TransactionFlow.Transaction open; // non-null while a transaction is open
    private long openBytes;
    private long transactionSequence;
    private boolean closed; // finishOnClose ran: later sends are refused rather than left in a new transaction
    /** Told of every transaction ended, after its sends' completions; null for none. */
    private volatile OperationListener listener;

    TransactionBatcher(TransactionFlow flow, Bounds bounds, ScheduledExecutorService producerThread) {
        this.flow = flow;
        this.bounds = bounds;
        this.producerThread = producerThread;
    }

    /** Tells {@code to} of every transaction this batcher ends from now on (see {@code CallbackProducer}). */
    void reportTo(OperationListener to) {
        this.listener = to;
    }

    void add(ProducerRecord<String, byte[]> record, CompletableFuture<Void> completion) {
        if (closed) {
            completion.completeExceptionally(new IllegalStateException("producer is closed"));
            return;
        }
        long size = sizeOf(record);
        if (open != null && openBytes + size > bounds.maxBytes()) {
            finish(TransactionFlow.Transaction::commit); // this one would not fit: it opens the next
        }
        if (open == null) {
            open();
        }
        completions.add(completion);
        openBytes += size;
        open.send(record);
        if (open.size() >= bounds.maxMessages() || openBytes >= bounds.maxBytes()) {
            finish(TransactionFlow.Transaction::commit);
        }
    }

    private static long sizeOf(ProducerRecord<String, byte[]> record) {
        return (record.value() == null ? 0 : record.value().length)
                + (record.key() == null ? 0 : record.key().length());
    }

    private void open() {
        open = flow.begin();
        openBytes = 0;
        long sequence = ++transactionSequence;
        // The interval runs from the begin; the timer is a task on this same thread, ordered with the sends by time.
        try {
            producerThread.schedule(
                    () -> {
                        if (open != null && sequence == transactionSequence) {
                            finish(TransactionFlow.Transaction::commit);
                        }
                    },
                    bounds.commitIntervalMs(),
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // The producer is closing; finishOnClose ends this transaction.
        }
    }

    /** On close: commit what is open if every send so far succeeded, otherwise abort it; never retry. */
    void finishOnClose() {
        closed = true;
        if (open != null) {
            finish(TransactionFlow.Transaction::commitOnClose);
        }
    }

    /** Ends the open transaction and answers every send in it. */
    private void finish(Function<TransactionFlow.Transaction, OperationResult> ending) {
        TransactionFlow.Transaction transaction = open;
        List<CompletableFuture<Void>> waiting = List.copyOf(completions);
        open = null;
        completions.clear();
        OperationResult result;
        try {
            result = ending.apply(transaction);
        } catch (RuntimeException | Error e) { // interrupted: still no send may be left without an answer
            waiting.forEach(completion -> completion.completeExceptionally(e));
            throw e;
        }
        for (CompletableFuture<Void> completion : waiting) {
            if (result.failure() == null) {
                completion.complete(null);
            } else {
                completion.completeExceptionally(result.failure());
            }
        }
        OperationListener to = listener;
        if (to != null) {
            to.operationCompleted(result.timings());
        }
    }
}

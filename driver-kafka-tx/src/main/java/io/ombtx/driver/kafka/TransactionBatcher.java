package io.ombtx.driver.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * OMB's {@code sendAsync} in transactional mode: each send joins the open transaction, which commits when it holds
 * {@code messagesPerTransaction} messages or has been open for {@code commitIntervalMs}. Every send's future
 * completes when its transaction commits (so OMB's publish latency includes the commit), or exceptionally if the
 * transaction is finally given up. Runs only on the producer's single thread, which also serialises it with
 * {@code runOperation} calls.
 */
final class TransactionBatcher {

    private final TransactionFlow flow;
    private final int messagesPerTransaction;
    private final long commitIntervalMs;
    private final ScheduledExecutorService producerThread;

    private final List<CompletableFuture<Void>> completions = new ArrayList<>();
    private TransactionFlow.Transaction open; // non-null while a transaction is open
    private long transactionSequence;
    private boolean closed; // finishOnClose ran: later sends are refused rather than left in a new transaction

    TransactionBatcher(TransactionFlow flow, int messagesPerTransaction, long commitIntervalMs,
            ScheduledExecutorService producerThread) {
        this.flow = flow;
        this.messagesPerTransaction = messagesPerTransaction;
        this.commitIntervalMs = commitIntervalMs;
        this.producerThread = producerThread;
    }

    void add(ProducerRecord<String, byte[]> record, CompletableFuture<Void> completion) {
        if (closed) {
            completion.completeExceptionally(new IllegalStateException("producer is closed"));
            return;
        }
        if (open == null) {
            open();
        }
        completions.add(completion);
        open.send(record);
        if (open.size() >= messagesPerTransaction) {
            finish(TransactionFlow.Transaction::commit);
        }
    }

    private void open() {
        open = flow.begin();
        long sequence = ++transactionSequence;
        // A slow producer rate must not leave messages waiting for the transaction to fill up.
        try {
            producerThread.schedule(() -> {
                if (open != null && sequence == transactionSequence) {
                    finish(TransactionFlow.Transaction::commit);
                }
            }, commitIntervalMs, TimeUnit.MILLISECONDS);
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
    }
}

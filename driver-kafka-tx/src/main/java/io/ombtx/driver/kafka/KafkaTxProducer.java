package io.ombtx.driver.kafka;

import io.ombtx.driver.api.CallbackProducer;
import io.ombtx.driver.api.ClosesAsync;
import io.ombtx.driver.api.FinishedOperation;
import io.ombtx.driver.api.OperationProducer;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.ombtx.driver.api.Phase;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A producer for one topic, either plain or holding one transactional id. {@link #sendAsync} is OMB's path;
 * {@link #runOperation} is omb-tx's (one whole WRITE / SEND_OFFSETS / PUBLISH as the spec says). Transactional
 * work and operations run on the producer's own thread in call order; a plain {@code sendAsync} goes straight to
 * kafka-clients from the caller's thread, as in OMB, so nothing is added to what is measured.
 *
 * <p>A client fault ({@link #cut}) ends the transactional id's current instance inside an operation; the operation's
 * thread then waits for the next instance ({@link #takeOver}, a new flow of the same transactional id, whose
 * initTransactions fenced the old one) and runs the operation again on it, so the loop sees one slow operation.
 */
final class KafkaTxProducer implements BenchmarkProducer, OperationProducer, CallbackProducer, ClosesAsync {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaTxProducer.class);
    /** After a forced close, how long the producer's thread gets to notice before it is interrupted. */
    private static final Duration AFTER_FORCED_CLOSE = Duration.ofSeconds(5);
    /**
     * The most payload bytes of transactional sends queued on the producer's thread, not yet joined to a transaction
     * (a commit blocks that thread): past it the sender waits, as kafka-clients' own send waits for its
     * {@code buffer.memory}. Without it, a load offered faster than the broker commits queued without end, and the
     * close had all of it to send.
     */
    static final int MAX_QUEUED_BYTES = 1 << 20;
    /** Times every producer's close: its bound, then a forced close (one daemon thread for all of them). */
    private static final ScheduledExecutorService CLOSE_TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "ombtx-producer-close-timer");
        thread.setDaemon(true);
        return thread;
    });

    private final String topic;
    private final OperationRunner operations;
    private final ProducerThread thread;
    private final Producer<String, byte[]> plain; // null when transactional
    private volatile TransactionFlow flow; // null when plain; replaced by takeOver after a client fault
    private final TransactionBatcher batcher; // null when plain
    private final Duration closeTimeout;
    /** Held while an operation or the close uses the flow: inline operations run on the caller's thread. */
    private final ReentrantLock flowLock = new ReentrantLock();

    private volatile boolean closed;
    /** The close under way (see {@link #closeAsync}), or null. */
    private CompletableFuture<Boolean> closing;
    /** The close ran out of time and closed the client at once: sends still queued fail without a transaction. */
    private volatile boolean forced;
    /** Bytes that sends queued on the producer's thread may still take (see {@link #MAX_QUEUED_BYTES}). */
    private final Semaphore queuedBytes;
    /**
     * Set by the first inline operation: each transaction (or plain write) is reported to the driver's stats when the
     * closed loop's recorder reads its timings, off the loop's thread (see {@link FinishedOperation}).
     */
    private volatile boolean inline;
    /** Completed by {@link #takeOver}: the instance an operation cut by a client fault waits for. */
    private volatile CompletableFuture<Void> nextInstance = new CompletableFuture<>();
    /** After a take-over: the fault whose stall the next commit ends, or null. */
    private volatile ClientFault firstCommitEnds;
    /**
     * The closed loop's operation {@link #runAhead} began and stopped at its quiet point, or null; with what it was
     * begun with, to run it again on the next instance when a client fault cuts it. The loop's thread only, under
     * {@link #flowLock}.
     */
    private TransactionFlow.Transaction ahead;

    private Optional<String> aheadKey;
    private byte[] aheadPayload;
    private boolean aheadConsumed;
    /** Instances a kill abandoned (their transaction open), closed at once by {@link #close}. */
    private final java.util.List<TransactionFlow> abandoned = new java.util.concurrent.CopyOnWriteArrayList<>();

    private KafkaTxProducer(
            String topic,
            OperationRunner operations,
            Producer<String, byte[]> plain,
            TransactionFlow flow,
            TransactionBatcher.Bounds bounds,
            Duration closeTimeout,
            int queueBound) {
        this.topic = topic;
        this.operations = operations;
        this.plain = plain;
        this.flow = flow;
        this.closeTimeout = closeTimeout;
        this.thread = new ProducerThread(flow == null ? "producer" : "tx-producer");
        this.queuedBytes = new Semaphore(queueBound);
        this.batcher = flow == null ? null : new TransactionBatcher(flow, bounds, thread);
    }

    static KafkaTxProducer plain(
            String topic,
            int partitionCount,
            OperationSpec spec,
            Producer<String, byte[]> producer,
            TxStatsReporter stats,
            TransactionSettings settings) {
        return new KafkaTxProducer(
                topic,
                new OperationRunner(topic, partitionCount, spec, null, stats),
                producer,
                null,
                null,
                Duration.ofMillis(settings.closeTimeoutMs()),
                MAX_QUEUED_BYTES);
    }

    /**
     * @param flow started (initTransactions done)
     * @param groupCommit stock OMB's sendAsync: the settings' bounds apply; otherwise (the omb-tx runner) a PUBLISH
     *     transaction is cut as the spec says (its messages per transaction, its commit interval), within the
     *     settings' byte bound
     * @param bufferMemory the producer's {@code buffer.memory}: sends queued for a transaction take at most a quarter
     *     of it (and at most {@link #MAX_QUEUED_BYTES})
     */
    static KafkaTxProducer transactional(
            String topic,
            int partitionCount,
            OperationSpec spec,
            TransactionFlow flow,
            TransactionSettings settings,
            SyntheticOffsets offsets,
            TxStatsReporter stats,
            boolean groupCommit,
            long bufferMemory) {
        TransactionBatcher.Bounds bounds = groupCommit
                ? new TransactionBatcher.Bounds(
                        settings.messagesPerTransaction(),
                        settings.maxBytesPerTransaction(),
                        settings.commitIntervalMs())
                : new TransactionBatcher.Bounds(
                        spec.cutsTransactions() && spec.messagesPerTransaction() > 0
                                ? spec.messagesPerTransaction()
                                : spec.cutsTransactions() ? Integer.MAX_VALUE : 1,
                        settings.maxBytesPerTransaction(),
                        spec.commitIntervalMs() > 0 ? spec.commitIntervalMs() : settings.commitIntervalMs());
        return new KafkaTxProducer(
                topic,
                new OperationRunner(topic, partitionCount, spec, offsets, stats),
                null,
                flow,
                bounds,
                Duration.ofMillis(settings.closeTimeoutMs()),
                (int) Math.max(1, Math.min(MAX_QUEUED_BYTES, bufferMemory / 4)));
    }

    /** The transactional id this producer holds, or null when it is plain. */
    String transactionalId() {
        TransactionFlow current = flow;
        return current == null ? null : current.transactionalId();
    }

    /** The current instance's choice of aborts on purpose, which the next instance carries on. */
    AbortChoice abortChoice() {
        return flow.abortChoice();
    }

    /**
     * Arms a client fault on the current instance (from any thread): the next operation's transaction carries it out
     * at its decision point. False when this producer cannot take one (plain, or PUBLISH transactions that records
     * join one at a time).
     */
    boolean cut(ClientFault fault) {
        if (flow == null || !operations.runsWholeOperations()) {
            return false;
        }
        flow.cutAt(fault);
        return true;
    }

    /**
     * The next instance of the transactional id takes over (from any thread): an operation waiting after a client
     * fault runs again on it, and its first commit ends {@code fault}'s stall.
     */
    void takeOver(TransactionFlow next, ClientFault fault) {
        if (inline) {
            next.reportWhenRead();
        }
        firstCommitEnds = fault;
        flow = next;
        nextInstance.complete(null);
        if (closed) {
            next.close(closeTimeout); // nothing will run on it
        }
    }

    @Override
    public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload) {
        return sendAsync(key, payload, true);
    }

    @Override
    public boolean reportTransactionsTo(io.ombtx.driver.api.OperationListener listener) {
        if (batcher == null || operations.runsWholeOperations()) {
            return false;
        }
        batcher.reportTo(listener);
        return true;
    }

    /** OMB's send; unconsumed ({@code consumed} false), the record carries no publish-time header. */
    private CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload, boolean consumed) {
        ProducerRecord<String, byte[]> record = RecordFactory.create(topic, null, key.orElse(null), payload, consumed);
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (closed) {
            done.completeExceptionally(new IllegalStateException("producer for " + topic + " is closed"));
            return done;
        }
        if (batcher == null) {
            try {
                plain.send(record, (metadata, error) -> {
                    if (error == null) {
                        done.complete(null);
                    } else {
                        done.completeExceptionally(error);
                    }
                });
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
            return done;
        }
        int permits = Math.max(1, Math.min(MAX_QUEUED_BYTES, payload.length));
        boolean queued = acquireQueued(permits);
        try {
            thread.execute(() -> {
                if (queued) {
                    queuedBytes.release(permits);
                }
                if (forced) {
                    done.completeExceptionally(new IllegalStateException("producer for " + topic + " is closed"));
                    return;
                }
                try {
                    batcher.add(record, done);
                } catch (RuntimeException | Error e) {
                    // A task's exception would vanish inside the executor; the caller must hear about it.
                    if (!closed) {
                        LOG.error("transactional send on {} failed unexpectedly", topic, e);
                    }
                    done.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            if (queued) {
                queuedBytes.release(permits);
            }
            done.completeExceptionally(new IllegalStateException("producer for " + topic + " is closed", e));
        }
        return done;
    }

    /**
     * Waits until the queue on the producer's thread has room for {@code permits} bytes; true when it took them.
     * False (the send goes on without) when the producer closed meanwhile or the sender was interrupted (a runner
     * stopping its load): the send is then answered by the close, not left waiting.
     */
    private boolean acquireQueued(int permits) {
        if (queuedBytes.tryAcquire(permits)) {
            return true;
        }
        try {
            while (!closed) {
                if (queuedBytes.tryAcquire(permits, 100, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * The runner's fast path for plain publishes: kafka-clients' own call-back, no future. A transactional producer
     * joins its batcher through {@link #sendAsync}, whose per-message future is negligible next to a commit.
     */
    @Override
    public void send(
            String key, byte[] payload, boolean consumed, long intendedNanos, long sendNanos, SendCallback callback) {
        int bytes = payload.length;
        if (batcher != null || closed) {
            sendAsync(Optional.ofNullable(key), payload, consumed)
                    .whenComplete((ok, error) -> callback.completed(error, bytes, intendedNanos, sendNanos));
            return;
        }
        try {
            ProducerRecord<String, byte[]> record = RecordFactory.create(topic, null, key, payload, consumed);
            // The one object per message in flight: kafka-clients' call-back, carrying what the runner's needs back.
            plain.send(record, (metadata, error) -> callback.completed(error, bytes, intendedNanos, sendNanos));
        } catch (RuntimeException e) {
            callback.completed(e, bytes, intendedNanos, sendNanos);
        }
    }

    @Override
    public CompletableFuture<OperationTimings> runOperation(Optional<String> key, byte[] payload) {
        if (!operations.runsWholeOperations()) {
            return publishOperation(key, payload); // STREAM's producers only feed the source topic
        }
        try {
            return CompletableFuture.supplyAsync(
                    () -> runLocked(key, payload, true, null).timings(), thread);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new IllegalStateException("producer for " + topic + " is closed", e));
        }
    }

    /** The closed loop's path: the operation on the caller's thread, nothing handed to the producer's thread. */
    @Override
    public FinishedOperation runOperationInline(Optional<String> key, byte[] payload) {
        return runOperationInline(key, payload, true);
    }

    /** Unconsumed ({@code consumed} false), the records carry no publish-time header, as the seeds' loops' did not. */
    @Override
    public FinishedOperation runOperationInline(Optional<String> key, byte[] payload, boolean consumed) {
        return runOperationInline(key, payload, consumed, null);
    }

    /**
     * The closed loop's path with the caller's bookkeeping run at the operation's quiet point: after its offsets are
     * sent (or its records handed to the client), before its commit; see {@link OperationProducer}.
     */
    @Override
    public FinishedOperation runOperationInline(
            Optional<String> key, byte[] payload, boolean consumed, Runnable quietPoint) {
        if (!operations.runsWholeOperations()) {
            if (quietPoint != null) {
                quietPoint.run();
            }
            return OperationProducer.super.runOperationInline(key, payload);
        }
        markInline();
        return runLocked(key, payload, consumed, quietPoint);
    }

    /** A closed loop runs here: each operation is reported when its timings are read, off the loop's thread. */
    private void markInline() {
        if (!inline) {
            inline = true;
            TransactionFlow current = flow;
            if (current != null) {
                current.reportWhenRead();
            }
        }
    }

    /** Transactional WRITE and SEND_OFFSETS run ahead; plain writes, PUBLISH and STREAM do not. */
    @Override
    public boolean runsAhead() {
        return flow != null && operations.runsWholeOperations();
    }

    /**
     * The previous transaction's commit and this one's begin back to back on the caller's thread, with nothing of the
     * runner's between them: the time from a commit returning to the next transaction's first request is what decides
     * whether that request meets the commit's markers still being written, and here it is what the seeds' loop spent.
     */
    @Override
    public FinishedOperation runAhead(Optional<String> key, byte[] payload, boolean consumed) {
        markInline();
        flowLock.lock();
        try {
            if (closed) {
                // Neither completes: the one held is aborted by the close, this one never begins.
                throw new IllegalStateException("producer for " + topic + " is closed");
            }
            FinishedOperation previous = finishAheadLocked();
            // Closed meanwhile, the close waits for this lock: what begins here, it aborts.
            ahead = operations.beginTransactional(flow, key, payload, consumed);
            aheadKey = key;
            aheadPayload = payload;
            aheadConsumed = consumed;
            return previous;
        } finally {
            flowLock.unlock();
        }
    }

    @Override
    public FinishedOperation finishAhead() {
        flowLock.lock();
        try {
            return finishAheadLocked();
        } finally {
            flowLock.unlock();
        }
    }

    /**
     * Finishes the transaction begun ahead, if any. Cut by a client fault, it is run again as a whole on the next
     * instance, as {@link #runLocked} does. A producer closed meanwhile aborted it ({@link TransactionFlow#close}).
     */
    private FinishedOperation finishAheadLocked() {
        TransactionFlow.Transaction pending = ahead;
        if (pending == null) {
            return null;
        }
        ahead = null;
        if (closed) {
            throw new IllegalStateException("producer for " + topic + " is closed");
        }
        TransactionFlow instance = pending.flow();
        try {
            return committedAgain(operations.finishTransactional(pending));
        } catch (ClientHalted e) {
            endInstance(instance, e.fault());
            awaitNextInstance(instance);
            return runLocked(aheadKey, aheadPayload, aheadConsumed, null);
        }
    }

    /** After a take-over, the first commit ends the fault's stall. */
    private OperationResult committedAgain(OperationResult result) {
        ClientFault stalled = firstCommitEnds;
        if (stalled != null && result.outcome() == Outcome.COMMITTED) {
            stalled.committedAgain();
            firstCommitEnds = null;
        }
        return result;
    }

    private FinishedOperation runLocked(Optional<String> key, byte[] payload, boolean consumed, Runnable quietPoint) {
        flowLock.lock();
        try {
            while (true) {
                if (closed) {
                    throw new IllegalStateException("producer for " + topic + " is closed");
                }
                TransactionFlow current = flow;
                if (current == null) {
                    return operations.runPlain(plain, key, payload, consumed, quietPoint, inline);
                }
                try {
                    return committedAgain(operations.runTransactional(current, key, payload, consumed, quietPoint));
                } catch (ClientHalted e) {
                    endInstance(current, e.fault());
                    awaitNextInstance(current);
                }
            }
        } finally {
            flowLock.unlock();
        }
    }

    /** After a client fault cut {@code instance}: stopped, it is closed; paused (fenced), closed at once; killed, left. */
    private void endInstance(TransactionFlow instance, ClientFault fault) {
        try {
            switch (fault.step()) {
                case STOP -> instance.close(closeTimeout);
                case PAUSE -> instance.forceClose();
                default -> abandoned.add(instance);
            }
        } finally {
            fault.ended();
        }
    }

    /** Waits, on the operation's thread, until {@link #takeOver} gives the next instance, or the producer closes. */
    private void awaitNextInstance(TransactionFlow ended) {
        while (flow == ended) {
            if (closed) {
                throw new IllegalStateException("producer for " + topic + " is closed");
            }
            try {
                nextInstance.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // check whether the producer closed meanwhile
            } catch (ExecutionException e) {
                throw new IllegalStateException("no next instance for " + topic, e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new org.apache.kafka.common.errors.InterruptException(e);
            }
        }
        nextInstance = new CompletableFuture<>();
    }

    /** One OMB message as an operation: acknowledged (plain) or committed (transactional), timed as a whole. */
    private CompletableFuture<OperationTimings> publishOperation(Optional<String> key, byte[] payload) {
        long start = System.nanoTime();
        return sendAsync(key, payload).handle((ignored, error) -> {
            Map<Phase, Long> phases = new EnumMap<>(Phase.class);
            phases.put(Phase.TRANSACTION, System.nanoTime() - start);
            Outcome outcome = error != null ? Outcome.FAILED : flow != null ? Outcome.COMMITTED : Outcome.ACKNOWLEDGED;
            return new OperationTimings(phases, 1, outcome, 0, 0);
        });
    }

    /**
     * Finishes an open transaction (commit if all its sends succeeded, else abort) and closes, within
     * {@code closeTimeoutMs}. Sends queued before the close still join that last transaction. Past the bound the
     * Kafka producer is closed at once, which ends a commit still waiting for the broker with an error (its sends
     * fail; the broker aborts the transaction when it times out) instead of interrupting the thread.
     */
    @Override
    public void close() {
        closeAsync().join();
    }

    /** {@link #close} started, ended on the producer's own thread and the shared close timer. */
    @Override
    public synchronized CompletableFuture<Boolean> closeAsync() {
        if (closing != null) {
            return closing;
        }
        closed = true;
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        closing = done;
        CompletableFuture<Void> finished;
        try {
            finished = CompletableFuture.runAsync(
                    () -> {
                        flowLock.lock(); // an inline operation still running finishes first (or is forced to)
                        try {
                            if (batcher != null) {
                                batcher.finishOnClose();
                            }
                            if (flow != null) {
                                flow.close(closeTimeout);
                            } else {
                                plain.close(closeTimeout);
                            }
                        } finally {
                            flowLock.unlock();
                        }
                    },
                    thread);
        } catch (RejectedExecutionException e) {
            finished = CompletableFuture.completedFuture(null);
        }
        // Shut the thread down only after the close task: tasks queued before it (sends joining the open
        // transaction) still schedule the commit timer, which a shut-down executor would refuse.
        finished.whenComplete((ok, error) -> {
            if (error != null && !forced) {
                LOG.warn(
                        "closing the producer for {} did not finish cleanly: {}",
                        topic,
                        ErrorClassifier.describe(error));
            }
            ended(done, !forced);
        });
        CompletableFuture<Void> task = finished;
        CLOSE_TIMER.schedule(
                () -> {
                    if (task.isDone()) {
                        return;
                    }
                    LOG.debug(
                            "the producer for {} did not finish its last transaction within closeTimeoutMs ({} ms);"
                                    + " closing it at once",
                            topic,
                            closeTimeout.toMillis());
                    forced = true;
                    if (flow != null) {
                        flow.forceClose();
                    } else {
                        plain.close(Duration.ZERO);
                    }
                    CLOSE_TIMER.schedule(
                            () -> {
                                if (!task.isDone()) {
                                    thread.shutdownNow(); // interrupts only a thread that ignored the forced close
                                }
                                ended(done, false);
                            },
                            AFTER_FORCED_CLOSE.toMillis(),
                            TimeUnit.MILLISECONDS);
                },
                closeTimeout.toMillis(),
                TimeUnit.MILLISECONDS);
        return done;
    }

    /** The close is over (once): abandoned instances closed, the thread let go. */
    private synchronized void ended(CompletableFuture<Boolean> done, boolean inTime) {
        if (done.isDone()) {
            return;
        }
        abandoned.forEach(TransactionFlow::forceClose);
        thread.shutdown();
        done.complete(inTime);
    }
}

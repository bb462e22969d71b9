package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationKind;
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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A producer for one topic, either plain or holding one transactional id. {@link #sendAsync} is OMB's path;
 * {@link #runOperation} is omb-tx's (one whole WRITE / SEND_OFFSETS / PUBLISH as the spec says). Transactional
 * work and operations run on the producer's own thread in call order; a plain {@code sendAsync} goes straight to
 * kafka-clients from the caller's thread, as in OMB, so nothing is added to what is measured.
 */
final class KafkaTxProducer implements BenchmarkProducer, OperationProducer {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaTxProducer.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final String topic;
    private final OperationSpec spec;
    private final TxStatsReporter stats;
    private final ProducerThread thread;
    private final Producer<String, byte[]> plain; // null when transactional
    private final TransactionalSession session; // null when plain
    private final TransactionBatcher batcher; // null when plain
    private final OperationRunner operations;
    private volatile boolean closed;

    private KafkaTxProducer(String topic, OperationSpec spec, TxStatsReporter stats, ProducerThread thread,
            Producer<String, byte[]> plain, TransactionalSession session, TransactionBatcher batcher,
            OperationRunner operations) {
        this.topic = topic;
        this.spec = spec;
        this.stats = stats;
        this.thread = thread;
        this.plain = plain;
        this.session = session;
        this.batcher = batcher;
        this.operations = operations;
    }

    static KafkaTxProducer plain(String topic, int partitionCount, OperationSpec spec, Producer<String, byte[]> producer,
            TransactionSettings settings, TxStatsReporter stats) {
        ProducerThread thread = new ProducerThread("producer");
        OperationRunner operations = new OperationRunner(topic, partitionCount, spec, settings.resolveBeforeCommit(), null);
        return new KafkaTxProducer(topic, spec, stats, thread, producer, null, null, operations);
    }

    /** @param session started (initTransactions done) */
    static KafkaTxProducer transactional(String topic, int partitionCount, OperationSpec spec,
            TransactionalSession session, TransactionSettings settings, SyntheticOffsets offsets, TxStatsReporter stats) {
        ProducerThread thread = new ProducerThread("tx-producer");
        int perTransaction = spec.kind() == OperationKind.PUBLISH ? spec.messagesPerOperation() : 1;
        TransactionBatcher batcher = new TransactionBatcher(session, perTransaction, settings.commitIntervalMs(),
                settings.resolveBeforeCommit(), thread, stats);
        OperationRunner operations = new OperationRunner(topic, partitionCount, spec, settings.resolveBeforeCommit(), offsets);
        return new KafkaTxProducer(topic, spec, stats, thread, null, session, batcher, operations);
    }

    /** The transactional id this producer holds, or null when it is plain. */
    String transactionalId() {
        return session == null ? null : session.transactionalId();
    }

    @Override
    public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload) {
        ProducerRecord<String, byte[]> record = RecordFactory.create(topic, null, key.orElse(null), payload);
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
        try {
            thread.execute(() -> {
                try {
                    batcher.add(record, done);
                } catch (RuntimeException | Error e) {
                    // A task's exception would vanish inside the executor; the caller must hear about it.
                    LOG.error("transactional send on {} failed unexpectedly", topic, e);
                    done.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            done.completeExceptionally(new IllegalStateException("producer for " + topic + " is closed", e));
        }
        return done;
    }

    @Override
    public CompletableFuture<OperationTimings> runOperation(Optional<String> key, byte[] payload) {
        if (spec.kind() == OperationKind.PUBLISH || spec.kind() == OperationKind.STREAM) {
            return publishOperation(key, payload); // STREAM's producers only feed the source topic
        }
        try {
            return CompletableFuture.supplyAsync(() -> {
                OperationTimings timings = session != null
                        ? operations.runTransactional(session, key, payload)
                        : operations.runPlain(plain, key, payload);
                stats.report(timings);
                return timings;
            }, thread);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new IllegalStateException("producer for " + topic + " is closed", e));
        }
    }

    /** One OMB message as an operation: acknowledged (plain) or committed (transactional), timed as a whole. */
    private CompletableFuture<OperationTimings> publishOperation(Optional<String> key, byte[] payload) {
        long start = System.nanoTime();
        return sendAsync(key, payload).handle((ignored, error) -> {
            Map<Phase, Long> phases = new EnumMap<>(Phase.class);
            phases.put(Phase.TRANSACTION, System.nanoTime() - start);
            Outcome outcome = error != null ? Outcome.FAILED : session != null ? Outcome.COMMITTED : Outcome.ACKNOWLEDGED;
            return new OperationTimings(phases, 1, outcome, 0, 0);
        });
    }

    /** Finishes an open transaction (commit if all its sends succeeded, else abort), then closes within a timeout. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        CompletableFuture<Void> finished = CompletableFuture.runAsync(() -> {
            if (batcher != null) {
                batcher.finishOnClose();
            }
            if (session != null) {
                session.close(CLOSE_TIMEOUT);
            } else {
                plain.close(CLOSE_TIMEOUT);
            }
        }, thread);
        // Shut the thread down only after the close task: tasks queued before it (sends joining the open
        // transaction) still schedule the commit timer, which a shut-down executor would refuse.
        try {
            finished.get(CLOSE_TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("closing the producer for {} did not finish cleanly: {}", topic, ErrorClassifier.describe(e));
        } finally {
            thread.shutdownNow();
        }
    }
}

package io.ombtx.driver.kafka;

import io.ombtx.driver.api.Phase;
import java.time.Duration;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One transactional id and the producer currently holding it. Runs transaction attempts (begin, body, commit),
 * recovers from failures the way kafka-clients documents (abort and retry, or replace the producer and
 * {@code initTransactions} again, which fences the old instance and aborts whatever it left open), and retries up
 * to a bound. Not thread-safe: a session is used by one thread at a time.
 */
final class TransactionalSession implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionalSession.class);

    private final String transactionalId;
    private final Function<String, Producer<String, byte[]>> producerFactory;
    private final int maxRetries;
    private final TxStatsReporter stats;
    private Producer<String, byte[]> producer;
    private boolean transactionOpen;

    /**
     * @param producerFactory creates an unstarted producer configured with the given transactional id
     * @param maxRetries attempts after the first
     */
    TransactionalSession(String transactionalId, Function<String, Producer<String, byte[]>> producerFactory,
            int maxRetries, TxStatsReporter stats) {
        this.transactionalId = transactionalId;
        this.producerFactory = producerFactory;
        this.maxRetries = maxRetries;
        this.stats = stats;
    }

    /** Creates the first producer and registers the transactional id with the coordinator. */
    void start() {
        producer = newProducer();
    }

    String transactionalId() {
        return transactionalId;
    }

    int maxRetries() {
        return maxRetries;
    }

    /** The producer holding the id now; it changes after a fatal error. */
    Producer<String, byte[]> producer() {
        return producer;
    }

    boolean transactionOpen() {
        return transactionOpen;
    }

    void begin(PhaseTimer timer) {
        if (producer == null) {
            producer = newProducer(); // an earlier replacement failed; try again now
            timer.skip();
        }
        producer.beginTransaction();
        transactionOpen = true;
        timer.lap(Phase.BEGIN);
    }

    /**
     * Commits; a commit that times out is retried as kafka-clients requires (it may not be aborted), and if it keeps
     * timing out the outcome is unknown ({@link CommitOutcomeUnknownException}).
     */
    void commit(PhaseTimer timer) {
        for (int attempt = 0; ; attempt++) {
            try {
                producer.commitTransaction();
                transactionOpen = false;
                timer.lap(Phase.COMMIT);
                return;
            } catch (TimeoutException e) {
                if (attempt >= maxRetries) {
                    timer.lap(Phase.COMMIT);
                    throw new CommitOutcomeUnknownException("commit of " + transactionalId + " timed out "
                            + (attempt + 1) + " times; its outcome is unknown", e);
                }
            } catch (RuntimeException e) {
                timer.lap(Phase.COMMIT);
                throw e;
            }
        }
    }

    /**
     * Runs attempts of {@code body} until one commits or {@code attempts} are used up, recovering after each failed
     * one. Returns null on commit, else the last error.
     */
    Throwable run(TxBody body, PhaseTimer timer, int attempts) {
        Throwable last = null;
        for (int attempt = 0; attempt < attempts; attempt++) {
            try {
                begin(timer);
                body.inTransaction(producer, timer);
                commit(timer);
                body.afterCommit(timer);
                return null;
            } catch (InterruptedException | InterruptException e) {
                throw interrupted(e);
            } catch (Exception e) {
                last = ErrorClassifier.unwrap(e);
                recover(last, timer);
                if (last instanceof CommitOutcomeUnknownException) {
                    return last; // retrying could commit the same writes twice
                }
            }
        }
        return last;
    }

    /** Clears a failed attempt: aborts, or replaces the producer when that is what the error requires. */
    void recover(Throwable error, PhaseTimer timer) {
        Throwable cause = ErrorClassifier.unwrap(error);
        if (producer != null && !(cause instanceof CommitOutcomeUnknownException)
                && ErrorClassifier.classify(cause) == ErrorClassifier.Recovery.ABORT_AND_RETRY) {
            try {
                producer.abortTransaction();
                transactionOpen = false;
                timer.lap(Phase.ABORT);
                timer.abortedAttempt();
                stats.aborted();
                return;
            } catch (InterruptException e) {
                throw e;
            } catch (RuntimeException abortFailed) {
                timer.lap(Phase.ABORT);
                cause = abortFailed; // e.g. fenced while aborting: fall through to replacing the producer
            }
        }
        LOG.warn("replacing producer {} after {}", transactionalId, ErrorClassifier.describe(cause));
        timer.fatalError();
        stats.fatal();
        replaceProducer();
        timer.skip();
    }

    private void replaceProducer() {
        Producer<String, byte[]> old = producer;
        producer = null;
        transactionOpen = false;
        if (old != null) {
            closeQuietly(old, Duration.ZERO); // it cannot do anything useful any more
        }
        try {
            producer = newProducer();
        } catch (InterruptException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("could not recreate producer {} yet: {}", transactionalId, ErrorClassifier.describe(e));
        }
    }

    private Producer<String, byte[]> newProducer() {
        Producer<String, byte[]> created = producerFactory.apply(transactionalId);
        try {
            created.initTransactions();
            return created;
        } catch (RuntimeException e) {
            closeQuietly(created, Duration.ZERO);
            throw e;
        }
    }

    /** Ends an open transaction by aborting it (best effort); the producer stays usable when that works. */
    void abortIfOpen() {
        if (producer != null && transactionOpen) {
            try {
                producer.abortTransaction();
                stats.aborted();
            } catch (RuntimeException e) {
                LOG.warn("abort of {} failed: {}", transactionalId, ErrorClassifier.describe(e));
            }
            transactionOpen = false;
        }
    }

    /** Aborts an open transaction (never leaves one hanging) and closes the producer within {@code timeout}. */
    void close(Duration timeout) {
        abortIfOpen();
        if (producer != null) {
            closeQuietly(producer, timeout);
            producer = null;
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }

    private static void closeQuietly(Producer<String, byte[]> producer, Duration timeout) {
        try {
            producer.close(timeout);
        } catch (RuntimeException e) {
            LOG.debug("producer close failed", e);
        }
    }

    private static RuntimeException interrupted(Exception e) {
        Thread.currentThread().interrupt();
        return e instanceof InterruptException ie ? ie : new InterruptException((InterruptedException) e);
    }
}

package io.ombtx.driver.kafka;

import java.time.Duration;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One transactional id and the producer currently holding it: creating it ({@code initTransactions}), the
 * transaction calls, and replacing it after a fatal error (a new producer's {@code initTransactions} fences the old
 * instance and aborts whatever it left open). With producer churn ({@link #renewEvery}) the session moves on to a new
 * transactional id, {@code <id>.2}, {@code <id>.3} and so on, each time the current one has ended its share of
 * transactions. How a transaction runs, is timed and retried is {@link TransactionFlow}'s. Not thread-safe: a session
 * is used by one thread at a time.
 */
final class TransactionalSession {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionalSession.class);

    private static final Duration RENEW_CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final String firstId;
    private volatile String transactionalId; // volatile: read for messages from other threads
    /** Producer churn: transactions an id ends before the session moves to the next (0: never). */
    private int transactionsPerId;

    private int endedOnThisId;
    private int generation = 1;
    private final Function<String, Producer<String, byte[]>> producerFactory;
    private volatile Producer<String, byte[]> producer; // volatile: forceClose reads it from another thread

    /** Guards the two fields below: {@link #clientRetries} is read by whichever thread reports a transaction. */
    private final Object retriesLock = new Object();

    private Metric retryTotal; // the producer's record-retry-total, or null when it has none
    private long retiredClientRetries; // record-retry-total of the producers this session closed
    private boolean transactionOpen;
    /** Set by {@link #forceClose} (from any thread): the session is ending, and no producer is made again. */
    private volatile boolean closing;

    /** @param producerFactory creates an unstarted producer configured with the given transactional id */
    TransactionalSession(String transactionalId, Function<String, Producer<String, byte[]>> producerFactory) {
        this.firstId = transactionalId;
        this.transactionalId = transactionalId;
        this.producerFactory = producerFactory;
    }

    /** Creates the first producer and registers the transactional id with the coordinator. */
    void start() {
        setProducer(newProducer());
    }

    private void setProducer(Producer<String, byte[]> created) {
        producer = created;
        Metric retries = created == null
                ? null
                : created.metrics().entrySet().stream()
                        .filter(e -> e.getKey().name().equals("record-retry-total")
                                && e.getKey().group().equals("producer-metrics"))
                        .map(e -> (Metric) e.getValue())
                        .findFirst()
                        .orElse(null);
        synchronized (retriesLock) {
            retryTotal = retries;
        }
    }

    private static long metricValue(Metric metric) {
        if (metric == null) {
            return 0;
        }
        return metric.metricValue() instanceof Number n ? n.longValue() : 0;
    }

    /** The transactional id held now (with churn, the latest of the session's ids). */
    String transactionalId() {
        return transactionalId;
    }

    /** Producer churn: after each {@code transactions} ended transactions the id is renewed (0: never). */
    void renewEvery(int transactions) {
        this.transactionsPerId = transactions;
    }

    /** A transaction on the current id ended (committed, aborted on purpose, or failed past its retries). */
    void transactionEnded() {
        endedOnThisId++;
    }

    /**
     * Producer churn, between two transactions: once the current id has ended its share, closes its producer and
     * creates one under the next id, whose {@code initTransactions} registers it with its coordinator; true when it
     * moved on. A new producer that fails is logged and left to {@link #ensureProducer}, as after a replacement.
     */
    boolean renewIfDue() {
        if (transactionsPerId == 0 || endedOnThisId < transactionsPerId || closing) {
            return false;
        }
        retireProducer(RENEW_CLOSE_TIMEOUT); // between transactions: nothing is left to send
        generation++;
        endedOnThisId = 0;
        transactionalId = firstId + "." + generation;
        try {
            setProducer(newProducer());
        } catch (InterruptException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("could not start producer {} yet: {}", transactionalId, ErrorClassifier.describe(e));
        }
        return true;
    }

    /** Whether {@link #forceClose} ended this session: failures since are the close's, not the broker's. */
    boolean closing() {
        return closing;
    }

    /** The producer holding the id now; it changes after a fatal error, and is null while a replacement failed. */
    Producer<String, byte[]> producer() {
        return producer;
    }

    boolean transactionOpen() {
        return transactionOpen;
    }

    /** Creates a producer if an earlier replacement failed; true when it did. */
    boolean ensureProducer() {
        if (producer != null) {
            return false;
        }
        if (closing) {
            throw new IllegalStateException("the producer of " + transactionalId + " is closed");
        }
        setProducer(newProducer());
        return true;
    }

    /**
     * Record batches kafka-clients has sent again (its {@code record-retry-total}) over every producer of this session
     * so far: the retries it made on its own, unseen by the caller, after leader changes, time-outs or disconnections.
     * Safe from any thread.
     */
    long clientRetries() {
        synchronized (retriesLock) {
            return retiredClientRetries + metricValue(retryTotal);
        }
    }

    void begin() {
        producer.beginTransaction();
        transactionOpen = true;
    }

    void commit() {
        producer.commitTransaction();
        transactionOpen = false;
    }

    void abort() {
        producer.abortTransaction();
        transactionOpen = false;
    }

    /**
     * Closes the producer at once (it can do nothing useful any more) and tries to create a new one; true when it
     * did (false: the next attempt tries again).
     */
    boolean replaceProducer() {
        if (closing) {
            return false; // closed on purpose: what failed is the close's doing, and nothing carries on
        }
        retireProducer(Duration.ZERO);
        try {
            setProducer(newProducer());
            return true;
        } catch (InterruptException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("could not recreate producer {} yet: {}", transactionalId, ErrorClassifier.describe(e));
            return false;
        }
    }

    /**
     * Takes the producer out of use: its client retries join the retired total, the session has no producer and no
     * open transaction, and the old producer is closed within {@code closeTimeout}.
     */
    private void retireProducer(Duration closeTimeout) {
        Producer<String, byte[]> old = producer;
        synchronized (retriesLock) {
            retiredClientRetries += metricValue(retryTotal);
            retryTotal = null;
        }
        setProducer(null);
        transactionOpen = false;
        if (old != null) {
            closeQuietly(old, closeTimeout);
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

    /** Ends an open transaction by aborting it (best effort); true when it aborted one. */
    boolean abortIfOpen() {
        if (producer == null || !transactionOpen) {
            return false;
        }
        transactionOpen = false;
        try {
            producer.abortTransaction();
            return true;
        } catch (RuntimeException e) {
            LOG.warn("abort of {} failed: {}", transactionalId, ErrorClassifier.describe(e));
            return false;
        }
    }

    /** Closes the current producer without waiting; safe from another thread (see {@link TransactionFlow#forceClose}). */
    void forceClose() {
        closing = true;
        Producer<String, byte[]> current = producer;
        if (current != null) {
            closeQuietly(current, Duration.ZERO);
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

    private static void closeQuietly(Producer<String, byte[]> producer, Duration timeout) {
        try {
            producer.close(timeout);
        } catch (RuntimeException e) {
            LOG.debug("producer close failed", e);
        }
    }
}

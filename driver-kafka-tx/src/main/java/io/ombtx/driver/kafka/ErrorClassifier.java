package io.ombtx.driver.kafka;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TransactionCoordinatorFencedException;
import org.apache.kafka.common.errors.UnsupportedForMessageFormatException;

/**
 * Decides how a transactional producer recovers from an error, following the kafka-clients 4.1 documentation
 * (KafkaProducer's transaction example and KIP-1050's exception categories):
 * <ul>
 *   <li>{@link Recovery#RECREATE_PRODUCER}: the producer instance is unusable. ProducerFencedException and the other
 *       ApplicationRecoverableExceptions (InvalidPidMappingException), OutOfOrderSequenceException (fatal for transactional producers),
 *       AuthorizationException and UnsupportedVersionException (both {@link InvalidConfigurationException}s),
 *       InvalidTxnStateException. Close it, create a new one and {@code initTransactions} again.</li>
 *   <li>{@link Recovery#ABORT_AND_RETRY}: everything else, notably TransactionAbortableException, a TimeoutException
 *       from a send, and InvalidProducerEpochException, whose own documentation says that
 *       {@code abortTransaction} re-initialises the producer. If the abort itself fails, the caller escalates to
 *       recreating the producer.</li>
 * </ul>
 */
final class ErrorClassifier {

    enum Recovery {
        ABORT_AND_RETRY,
        RECREATE_PRODUCER
    }

    /**
     * kafka-clients' ApplicationRecoverableException, or null where it does not exist. Looked up by name because a
     * stock OMB brings its own, older kafka-clients (3.6.1 at OMB 8559989, which lacks it), where a direct reference
     * fails with NoClassDefFoundError on the first error classified; ProducerFenced and InvalidPidMapping, its
     * subclasses, exist in both and are checked directly.
     */
    private static final Class<?> APPLICATION_RECOVERABLE =
            optionalClass("org.apache.kafka.common.errors.ApplicationRecoverableException");

    private ErrorClassifier() {}

    private static Class<?> optionalClass(String name) {
        try {
            return Class.forName(name, false, ErrorClassifier.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    static Recovery classify(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InvalidProducerEpochException) {
                return Recovery.ABORT_AND_RETRY;
            }
            if (t instanceof ProducerFencedException
                    || t instanceof InvalidPidMappingException
                    || (APPLICATION_RECOVERABLE != null && APPLICATION_RECOVERABLE.isInstance(t))
                    || t instanceof OutOfOrderSequenceException // includes UnknownProducerIdException
                    || t instanceof InvalidConfigurationException // Authorization*, UnsupportedVersion
                    || t instanceof InvalidTxnStateException
                    || t instanceof TransactionCoordinatorFencedException
                    || t instanceof FencedInstanceIdException
                    || t instanceof UnsupportedForMessageFormatException) {
                return Recovery.RECREATE_PRODUCER;
            }
        }
        return Recovery.ABORT_AND_RETRY;
    }

    /**
     * Whether {@code error} says the producer was fenced: another instance took its transactional id, or its epoch
     * is stale after a coordinator change (ProducerFenced, InvalidProducerEpoch, TransactionCoordinatorFenced,
     * FencedInstanceId).
     */
    static boolean fenced(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ProducerFencedException
                    || t instanceof InvalidProducerEpochException
                    || t instanceof TransactionCoordinatorFencedException
                    || t instanceof FencedInstanceIdException) {
                return true;
            }
        }
        return false;
    }

    /** The error a future or a wrapper carries, for messages and classification. */
    static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * The first cause of {@code error}, described: the deepest exception of its cause chain, which is what the
     * broker or the client first said (a transactional producer's "Cannot execute transactional method because we
     * are in an error state" carries the error that put it there as its cause).
     */
    static String firstCause(Throwable error) {
        Throwable t = error;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return describe(t);
    }

    static String describe(Throwable error) {
        Throwable t = unwrap(error);
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }
}

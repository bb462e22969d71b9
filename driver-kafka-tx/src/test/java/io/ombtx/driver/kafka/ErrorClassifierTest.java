package io.ombtx.driver.kafka;

import static io.ombtx.driver.kafka.ErrorClassifier.Recovery.ABORT_AND_RETRY;
import static io.ombtx.driver.kafka.ErrorClassifier.Recovery.RECREATE_PRODUCER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.UnknownProducerIdException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

class ErrorClassifierTest {

    @Test
    void fatalErrorsNeedANewProducer() {
        assertEquals(RECREATE_PRODUCER, ErrorClassifier.classify(new ProducerFencedException("fenced")));
        assertEquals(RECREATE_PRODUCER, ErrorClassifier.classify(new OutOfOrderSequenceException("seq")));
        assertEquals(RECREATE_PRODUCER, ErrorClassifier.classify(new UnknownProducerIdException("pid")));
        assertEquals(RECREATE_PRODUCER, ErrorClassifier.classify(new TopicAuthorizationException("no")));
        assertEquals(RECREATE_PRODUCER, ErrorClassifier.classify(new UnsupportedVersionException("old")));
    }

    @Test
    void fatalCauseInsideAWrapperIsFound() {
        Throwable wrapped = new ExecutionException(new KafkaException("send failed", new ProducerFencedException("f")));
        assertEquals(RECREATE_PRODUCER, ErrorClassifier.classify(wrapped));
    }

    @Test
    void abortableErrorsAbortAndRetry() {
        assertEquals(ABORT_AND_RETRY, ErrorClassifier.classify(new TransactionAbortableException("abort me")));
        assertEquals(ABORT_AND_RETRY, ErrorClassifier.classify(new TimeoutException("slow")));
        assertEquals(ABORT_AND_RETRY, ErrorClassifier.classify(new KafkaException("other")));
        // Its javadoc: abortTransaction re-initialises the producer; only if that fails is it replaced.
        assertEquals(ABORT_AND_RETRY, ErrorClassifier.classify(new InvalidProducerEpochException("epoch")));
    }

    @Test
    void unwrapFindsTheCauseOfFutureFailures() {
        TimeoutException cause = new TimeoutException("x");
        assertEquals(cause, ErrorClassifier.unwrap(new ExecutionException(cause)));
        assertEquals("TimeoutException: x", ErrorClassifier.describe(new ExecutionException(cause)));
    }
}

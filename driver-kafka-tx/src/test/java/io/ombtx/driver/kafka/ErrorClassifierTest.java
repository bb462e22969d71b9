package io.ombtx.driver.kafka;

import static io.ombtx.driver.kafka.ErrorClassifier.Recovery.ABORT_AND_RETRY;
import static io.ombtx.driver.kafka.ErrorClassifier.Recovery.RECREATE_PRODUCER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ErrorClassifierTest {

    static Stream<Throwable> fatal() {
        return Stream.of(
                new ProducerFencedException("fenced"),
                new OutOfOrderSequenceException("seq"),
                new UnknownProducerIdException("pid"),
                new TopicAuthorizationException("no"),
                new UnsupportedVersionException("old"),
                new ExecutionException(new KafkaException("send failed", new ProducerFencedException("f"))));
    }

    static Stream<Throwable> abortable() {
        // InvalidProducerEpochException's javadoc: abortTransaction re-initialises the producer; only if that fails
        // is it replaced.
        return Stream.of(
                new TransactionAbortableException("abort me"),
                new TimeoutException("slow"),
                new KafkaException("other"),
                new InvalidProducerEpochException("epoch"));
    }

    @ParameterizedTest
    @MethodSource("fatal")
    void fatalErrorsNeedANewProducerEvenInsideAWrapper(Throwable error) {
        assertEquals(RECREATE_PRODUCER, ErrorClassifier.classify(error));
    }

    @ParameterizedTest
    @MethodSource("abortable")
    void abortableErrorsAbortAndRetry(Throwable error) {
        assertEquals(ABORT_AND_RETRY, ErrorClassifier.classify(error));
    }

    @Test
    void theFirstCauseIsWhatTheBrokerSaidNotTheErrorStateThatFollowed() {
        Throwable errorState = new ExecutionException(new KafkaException(
                "Cannot execute transactional method because we are in an error state",
                new org.apache.kafka.common.errors.RecordTooLargeException("The request included a message larger")));
        assertEquals(
                "RecordTooLargeException: The request included a message larger",
                ErrorClassifier.firstCause(errorState));
        assertEquals("TimeoutException: late", ErrorClassifier.firstCause(new TimeoutException("late")));
    }

    @Test
    void aRepeatedWarningIsLoggedOnceThenOnlyWithItsCountAtPowersOfTen() {
        RepeatedWarnings warnings = new RepeatedWarnings();
        java.util.List<String> logged = new java.util.ArrayList<>();
        for (int i = 0; i < 150; i++) {
            warnings.warn(logged::add, "WRITE operation failed after retries: RecordTooLargeException: big");
        }
        warnings.warn(logged::add, "another");
        assertEquals(
                java.util.List.of(
                        "WRITE operation failed after retries: RecordTooLargeException: big",
                        "WRITE operation failed after retries: RecordTooLargeException: big (the same 10 times so far)",
                        "WRITE operation failed after retries: RecordTooLargeException: big (the same 100 times so far)",
                        "another"),
                logged);
        assertEquals(150, warnings.count("WRITE operation failed after retries: RecordTooLargeException: big"));
    }

    @Test
    void unwrapFindsTheCauseOfFutureFailures() {
        TimeoutException cause = new TimeoutException("x");
        assertEquals(cause, ErrorClassifier.unwrap(new ExecutionException(cause)));
        assertEquals("TimeoutException: x", ErrorClassifier.describe(new ExecutionException(cause)));
    }

    @Test
    void fencingIsRecognisedInsideWrappersAndNothingElseIsFencing() {
        assertEquals(true, ErrorClassifier.fenced(new ProducerFencedException("f")));
        assertEquals(true, ErrorClassifier.fenced(new InvalidProducerEpochException("epoch")));
        assertEquals(
                true,
                ErrorClassifier.fenced(
                        new ExecutionException(new KafkaException("send failed", new ProducerFencedException("f")))));
        assertEquals(false, ErrorClassifier.fenced(new OutOfOrderSequenceException("seq")));
        assertEquals(false, ErrorClassifier.fenced(new TimeoutException("slow")));
    }
}

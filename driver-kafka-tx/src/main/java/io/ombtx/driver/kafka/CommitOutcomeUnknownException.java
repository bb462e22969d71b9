package io.ombtx.driver.kafka;

import org.apache.kafka.common.KafkaException;

/**
 * {@code commitTransaction} kept timing out. The commit may still complete on the coordinator, so the operation
 * must not be retried (that could write it twice); it is reported as failed and the producer replaced.
 */
final class CommitOutcomeUnknownException extends KafkaException {

    CommitOutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}

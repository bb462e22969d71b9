package io.ombtx.driver.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a group's committed offsets through a consumer and never returns an answer older than the call.
 *
 * <p>When a {@code committed} call ends without an answer (timed out, woken up) while its OffsetFetch request is in
 * flight, kafka-clients keeps that request and hands its answer to the next call for the same partitions instead of
 * sending a new one (the consumer coordinator's pending committed-offsets request, in every release from 2.x to 4.x).
 * That answer shows the group as it was when the old request was served, which can be before records the caller read
 * in between became visible: the live check would flag as uncommitted outputs whose offsets were committed with them.
 * So after a call without an answer, the next answer is dropped, and the call after it sends a request of its own.
 */
final class CommittedOffsetsReader {

    private static final Logger LOG = LoggerFactory.getLogger(CommittedOffsetsReader.class);

    private final Consumer<?, ?> consumer;
    private boolean answerMayBeStale;

    CommittedOffsetsReader(Consumer<?, ?> consumer) {
        this.consumer = consumer;
    }

    /**
     * @return the committed offset per partition number (absent: none committed), or null when there was no answer
     *     in {@code timeout} or the answer may predate this call
     */
    Map<Integer, Long> read(Set<TopicPartition> partitions, Duration timeout) {
        Map<TopicPartition, OffsetAndMetadata> committed;
        try {
            committed = consumer.committed(partitions, timeout);
        } catch (RuntimeException e) { // timed out, woken up, interrupted, or a broker error
            answerMayBeStale = true;
            LOG.debug("could not read the committed offsets: {}", ErrorClassifier.describe(e));
            return null;
        }
        if (answerMayBeStale) {
            answerMayBeStale = false;
            return null;
        }
        Map<Integer, Long> byPartition = new HashMap<>();
        committed.forEach((tp, offset) -> {
            if (offset != null) {
                byPartition.put(tp.partition(), offset.offset());
            }
        });
        return byPartition;
    }
}

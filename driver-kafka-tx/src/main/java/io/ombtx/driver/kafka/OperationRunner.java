package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one WRITE or SEND_OFFSETS operation on the producer's own thread and times it:
 * <ul>
 *   <li>transactional WRITE: begin [BEGIN], send N records round-robin over partitions 0..M-1 [SEND], wait for
 *       the acks [RESOLVE], optionally sendOffsetsToTransaction [SEND_OFFSETS], commit [COMMIT];</li>
 *   <li>plain WRITE: send [SEND], wait for the acks [RESOLVE];</li>
 *   <li>SEND_OFFSETS: begin, sendOffsetsToTransaction, commit.</li>
 * </ul>
 * Failed transaction attempts are aborted or the producer replaced, and retried up to maxRetries.
 */
final class OperationRunner {

    private static final Logger LOG = LoggerFactory.getLogger(OperationRunner.class);

    private final String topic;
    private final int[] partitions;
    private final OperationSpec spec;
    private final boolean resolveBeforeCommit;
    private final SyntheticOffsets offsets;

    /**
     * @param partitionCount partitions of {@code topic}; the operation's partitions wrap around it
     * @param offsets where sendOffsetsToTransaction points, or null when the spec never calls it
     */
    OperationRunner(String topic, int partitionCount, OperationSpec spec, boolean resolveBeforeCommit,
            SyntheticOffsets offsets) {
        this.topic = topic;
        this.spec = spec;
        this.resolveBeforeCommit = resolveBeforeCommit;
        this.offsets = offsets;
        this.partitions = new int[spec.partitionsPerOperation()];
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = i % partitionCount;
        }
    }

    OperationTimings runTransactional(TransactionalSession session, Optional<String> key, byte[] payload) {
        List<ProducerRecord<String, byte[]>> records = records(key, payload);
        boolean withOffsets = spec.kind() == OperationKind.SEND_OFFSETS || spec.sendOffsets();
        TxBody body = new RecordBatchBody(records, resolveBeforeCommit, withOffsets ? offsets::next : null);
        PhaseTimer timer = new PhaseTimer(); // after building the records: the operation starts at begin
        Throwable failure = session.run(body, timer, session.maxRetries() + 1);
        if (failure != null) {
            LOG.warn("{} operation failed after retries: {}", spec.kind(), ErrorClassifier.describe(failure));
            return timer.finish(records.size(), Outcome.FAILED);
        }
        return timer.finish(records.size(), Outcome.COMMITTED);
    }

    /** A plain write: kafka-clients already retries internally up to delivery.timeout.ms, so one attempt. */
    OperationTimings runPlain(Producer<String, byte[]> producer, Optional<String> key, byte[] payload) {
        List<ProducerRecord<String, byte[]>> records = records(key, payload);
        PhaseTimer timer = new PhaseTimer();
        try {
            RecordBatchBody.sendAndResolve(producer, records, timer);
            return timer.finish(records.size(), Outcome.ACKNOWLEDGED);
        } catch (InterruptedException | InterruptException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException("interrupted during a write", e instanceof InterruptedException ie ? ie : null);
        } catch (Exception e) {
            LOG.warn("plain write failed: {}", ErrorClassifier.describe(e));
            return timer.finish(records.size(), Outcome.FAILED);
        }
    }

    private List<ProducerRecord<String, byte[]>> records(Optional<String> key, byte[] payload) {
        int count = spec.kind() == OperationKind.SEND_OFFSETS ? 0 : spec.messagesPerOperation();
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>(count);
        String recordKey = key.orElse(null);
        for (int i = 0; i < count; i++) {
            records.add(RecordFactory.create(topic, partitions[i % partitions.length], recordKey, payload));
        }
        return records;
    }
}

package io.ombtx.driver.kafka;

import io.ombtx.driver.api.FinishedOperation;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import java.util.AbstractList;
import java.util.List;
import java.util.Optional;
import java.util.RandomAccess;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one WRITE or SEND_OFFSETS operation on the producer's own thread and times it:
 * <ul>
 *   <li>transactional WRITE: N records round-robin over partitions 0..M-1, plus sendOffsetsToTransaction if the spec
 *       says so, in one {@link TransactionFlow} transaction;</li>
 *   <li>plain WRITE: send [SEND], wait for the acks [RESOLVE];</li>
 *   <li>SEND_OFFSETS: a transaction holding only sendOffsetsToTransaction.</li>
 * </ul>
 */
final class OperationRunner {

    private static final Logger LOG = LoggerFactory.getLogger(OperationRunner.class);

    private final String topic;
    private final int[] partitions;
    private final OperationSpec spec;
    private final SyntheticOffsets offsets;
    private final TxStatsReporter stats;
    private final OperationResult.Builder reportWhenBuilt = this::buildAndReport;
    /** What each transaction passes to sendOffsetsToTransaction, or null when the operation has no such call. */
    private final Supplier<OffsetsToCommit> offsetsOrNull;

    /**
     * @param partitionCount partitions of {@code topic}; the operation's partitions wrap around it
     * @param offsets where sendOffsetsToTransaction points, or null when the spec never calls it
     * @param stats where plain writes are reported (a transaction's flow reports it)
     */
    OperationRunner(
            String topic, int partitionCount, OperationSpec spec, SyntheticOffsets offsets, TxStatsReporter stats) {
        this.topic = topic;
        this.spec = spec;
        this.offsets = offsets;
        this.stats = stats;
        boolean withOffsets = spec.kind() == OperationKind.SEND_OFFSETS || spec.sendOffsets();
        this.offsetsOrNull = withOffsets && offsets != null ? offsets::next : null;
        this.partitions = new int[spec.partitionsPerOperation()];
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = i % partitionCount;
        }
    }

    /** PUBLISH and STREAM operations are single sends, not runs of this class. */
    boolean runsWholeOperations() {
        return spec.kind() != OperationKind.PUBLISH && spec.kind() != OperationKind.STREAM;
    }

    /**
     * @param consumed whether anything reads the records: false leaves off their publish-time header
     * @param quietPoint the caller's bookkeeping for the transaction's quiet point, or null
     */
    OperationResult runTransactional(
            TransactionFlow flow, Optional<String> key, byte[] payload, boolean consumed, Runnable quietPoint) {
        return warnIfFailed(flow.run(records(key, payload, consumed), offsetsOrNull, quietPoint));
    }

    /**
     * The first half of {@link #runTransactional}: the transaction begun, its records handed to the client and its
     * offsets sent, its clock paused; {@link #finishTransactional} runs the rest.
     */
    TransactionFlow.Transaction beginTransactional(
            TransactionFlow flow, Optional<String> key, byte[] payload, boolean consumed) {
        return flow.runToQuietPoint(records(key, payload, consumed), offsetsOrNull);
    }

    /** The second half of a transaction {@link #beginTransactional} began. */
    OperationResult finishTransactional(TransactionFlow.Transaction transaction) {
        return warnIfFailed(transaction.finish());
    }

    private OperationResult warnIfFailed(OperationResult result) {
        if (result.failure() != null) {
            stats.warnings()
                    .warn(
                            LOG::warn,
                            spec.kind() + " operation failed after retries: "
                                    + ErrorClassifier.firstCause(result.failure()));
        }
        return result;
    }

    /**
     * A plain write: kafka-clients already retries internally up to delivery.timeout.ms, so one attempt. {@code
     * quietPoint} (when not null) runs once the records are sent, outside the timings. With {@code reportWhenRead}
     * (a closed loop, which reads every operation's timings off its thread) an acknowledged write's timings are built
     * and reported to the driver's stats when first read, not on the loop's thread before its next write: what the
     * loop does between a write's last ack and the next send leaves the client's I/O thread asleep, and waking it is
     * a cost the seeds' bare loop did not pay.
     */
    FinishedOperation runPlain(
            Producer<String, byte[]> producer,
            Optional<String> key,
            byte[] payload,
            boolean consumed,
            Runnable quietPoint,
            boolean reportWhenRead) {
        List<ProducerRecord<String, byte[]>> records = records(key, payload, consumed);
        PhaseTimer timer = new PhaseTimer();
        OperationTimings timings;
        try {
            PendingAcks sent = PendingAcks.send(producer, records, timer);
            if (quietPoint != null) {
                timer.exclude(quietPoint);
            }
            sent.await(timer);
            if (reportWhenRead) {
                return new OperationResult(timer, records.size(), Outcome.ACKNOWLEDGED, null, reportWhenBuilt);
            }
            timings = timer.finish(records.size(), Outcome.ACKNOWLEDGED);
        } catch (InterruptedException | InterruptException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(
                    "interrupted during a write", e instanceof InterruptedException ie ? ie : null);
        } catch (Exception e) {
            stats.failed(e);
            stats.warnings().warn(LOG::warn, "plain write failed: " + ErrorClassifier.firstCause(e));
            timings = timer.finish(records.size(), Outcome.FAILED);
        }
        stats.report(timings);
        return FinishedOperation.of(timings);
    }

    /** Builds a plain write's timings when first read and reports them to the driver's stats then. */
    private OperationTimings buildAndReport(PhaseTimer timer, int messages, Outcome outcome) {
        OperationTimings timings = timer.finish(messages, outcome);
        stats.report(timings);
        return timings;
    }

    /**
     * The operation's records, each made when first read: a send loop reads them one by one, so each is made just
     * before its send, in the timed SEND phase, as the seeds' bare loops made theirs (a bulk operation's 1000 records
     * made up front put ~100 µs between one operation's last ack and the next one's first send). Made once, a retry
     * resends the same records. Consumed, they carry the publish time read here, once for the operation, before its
     * begin (an end-to-end latency covers the whole operation, as before). Unconsumed, they carry no publish-time
     * header: nothing would read it, and without it they are the records the seeds' bare loops wrote (18 bytes and a
     * header list fewer per record).
     */
    private List<ProducerRecord<String, byte[]>> records(Optional<String> key, byte[] payload, boolean consumed) {
        int count = spec.kind() == OperationKind.SEND_OFFSETS ? 0 : spec.messagesPerOperation();
        return new OnDemandRecords(count, key.orElse(null), payload, consumed ? PublishTime.nowEpochMicros() : -1);
    }

    /** An operation's records, made on first read and kept. */
    private final class OnDemandRecords extends AbstractList<ProducerRecord<String, byte[]>> implements RandomAccess {
        private final ProducerRecord<String, byte[]>[] made;
        private final String key;
        private final byte[] payload;
        /** The publish time of consumed records; -1: unconsumed, no header. */
        private final long epochMicros;

        @SuppressWarnings("unchecked")
        OnDemandRecords(int count, String key, byte[] payload, long epochMicros) {
            this.made = new ProducerRecord[count];
            this.key = key;
            this.payload = payload;
            this.epochMicros = epochMicros;
        }

        @Override
        public ProducerRecord<String, byte[]> get(int index) {
            ProducerRecord<String, byte[]> record = made[index];
            if (record == null) {
                int partition = partitions[index % partitions.length];
                record = epochMicros < 0
                        ? new ProducerRecord<>(topic, partition, key, payload)
                        : RecordFactory.create(topic, partition, key, payload, epochMicros);
                made[index] = record;
            }
            return record;
        }

        @Override
        public int size() {
            return made.length;
        }
    }
}

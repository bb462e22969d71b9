package io.ombtx.driver.kafka;

import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.ombtx.driver.api.Phase;
import io.ombtx.driver.api.ReportQueue;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consume-transform-produce (STREAM): a consumer of the source topic that, for each batch of
 * {@code recordsPerTransaction} records, writes one output record per input to the target topic (same partition
 * number, key {@code "<partition>:<offset>"} of the input, which is what the exactly-once check reads back) and
 * advances the group's offsets:
 * <ul>
 *   <li>transactional: the outputs and sendOffsetsToTransaction with the consumer's group metadata in one
 *       {@link TransactionFlow} transaction (seed 000 TxStreamingBench, seed 001 StreamBench);</li>
 *   <li>naive: send [SEND], wait for the acks [RESOLVE], {@code commitSync} of the offsets, timed as COMMIT
 *       (seed 000 BaseStreamingBench).</li>
 * </ul>
 * Only the write path is timed, not the fetch. Each finished batch is reported to the callback as an operation and
 * its input records as received (after the commit, so a retried batch is not counted twice). When a batch cannot
 * be committed after retries, or is aborted on purpose ({@code operation.abortRatio}), the consumer seeks back to
 * the committed offsets and the records are processed again.
 *
 * <p>A client fault ({@link #cut}) ends a transactional processor at its next batch's decision point: killed, its
 * producer is abandoned with the transaction open (no abort, no close; kept for {@link #abandoned}); stopped, the
 * transaction is aborted and the producer closed; paused, its consumer leaves the group (as a real zombie's would be
 * expelled by the group's time-outs) while its producer holds the transaction until resumed, when its commit must
 * fail as fenced. Either way the consumer closes, so the group gives its partitions to the processors left, or to
 * the next instance, which reads them again from the committed offsets.
 */
final class StreamProcessor extends PollLoop implements BenchmarkConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(StreamProcessor.class);
    /** How long an armed client fault waits, while the processor polls nothing, before it is carried out idle. */
    static final Duration IDLE_GRACE = Duration.ofSeconds(2);

    private final String targetTopic;
    private final int targetPartitions;
    private final int recordsPerTransaction;
    private final BatchWriter writer;
    private final CallbackDispatch dispatch;
    private final ReportQueue reports;
    /** Set when a client fault takes the processor out: a revocation then must not abort its transaction. */
    private volatile boolean leaving;
    /** After a restart: the fault whose stall this processor's first commit ends, or null. */
    private volatile ClientFault firstCommitEnds;

    private StreamProcessor(
            Consumer<String, byte[]> consumer,
            String sourceTopic,
            String targetTopic,
            int targetPartitions,
            int recordsPerTransaction,
            BatchWriter writer,
            CallbackDispatch dispatch,
            ReportQueue reports,
            ClientFault replacing) {
        super(consumer, "ombtx-stream-" + sourceTopic);
        this.reports = reports;
        this.firstCommitEnds = replacing;
        this.targetTopic = targetTopic;
        this.targetPartitions = targetPartitions;
        this.recordsPerTransaction = recordsPerTransaction;
        this.writer = writer;
        this.dispatch = dispatch;
        consumer.subscribe(List.of(sourceTopic), new AbortOnRebalance());
        start();
    }

    /**
     * @param flow started; its producer writes the outputs and the offsets in one transaction
     * @param replacing the client fault this instance recovers from (its first commit ends the fault's stall), or null
     */
    static StreamProcessor transactional(
            Consumer<String, byte[]> consumer,
            String sourceTopic,
            String targetTopic,
            int targetPartitions,
            int recordsPerTransaction,
            TransactionFlow flow,
            CallbackDispatch dispatch,
            ClientFault replacing) {
        ReportQueue reports = new ReportQueue("ombtx-stream-reports-" + sourceTopic);
        flow.reportThrough(reports);
        return new StreamProcessor(
                consumer,
                sourceTopic,
                targetTopic,
                targetPartitions,
                recordsPerTransaction,
                new InTransaction(flow),
                dispatch,
                reports,
                replacing);
    }

    static StreamProcessor naive(
            Consumer<String, byte[]> consumer,
            String sourceTopic,
            String targetTopic,
            int targetPartitions,
            int recordsPerTransaction,
            Producer<String, byte[]> producer,
            TransactionSettings settings,
            AckWait ackWait,
            CallbackDispatch dispatch,
            TxStatsReporter stats) {
        ReportQueue reports = new ReportQueue("ombtx-stream-reports-" + sourceTopic);
        return new StreamProcessor(
                consumer,
                sourceTopic,
                targetTopic,
                targetPartitions,
                recordsPerTransaction,
                new Naive(producer, ackWait, settings.maxRetries(), stats, reports),
                dispatch,
                reports,
                null);
    }

    /**
     * Arms a client fault on this processor (from any thread); false when its writes are not transactional.
     * {@link ClientFault#endedFuture} completes once the processor is out (its consumer closed).
     */
    boolean cut(ClientFault fault) {
        if (!(writer instanceof InTransaction inTransaction)) {
            return false;
        }
        fault.beforeHold(() -> {
            leaving = true;
            consumer.close(Duration.ofSeconds(30));
        });
        inTransaction.flow().cutAt(fault);
        return true;
    }

    /** The producer a kill abandoned (its transaction open), for the driver to close at the end; or null. */
    TransactionFlow abandoned() {
        ClientFault fault = haltedBy();
        return fault != null && fault.step() == ClientFaults.Step.KILL && writer instanceof InTransaction inTransaction
                ? inTransaction.flow()
                : null;
    }

    /**
     * A processor that polls nothing carries out an armed client fault once it has waited {@link #IDLE_GRACE} for a
     * transaction to cut (its partitions get no input, or the group gave it none); else the fault would wait for the
     * end of the run and never be carried out.
     */
    @Override
    protected void idle() {
        if (writer instanceof InTransaction inTransaction) {
            try {
                inTransaction.flow().cutIfIdle(IDLE_GRACE.toNanos());
            } catch (ClientHalted e) {
                leaving = true; // closing the consumer next revokes its partitions: nothing of the fault's is open
                throw e;
            }
        }
    }

    @Override
    protected void handle(ConsumerRecords<String, byte[]> records) {
        List<ConsumerRecord<String, byte[]>> all = new ArrayList<>(records.count());
        records.forEach(all::add);
        // Every batch's outputs and offsets are made now, after the poll, so that between one transaction's commit
        // and the next one's begin the loop does nothing else (as in the seeds' loop, where that gap decides whether
        // the next transaction meets the commit's markers).
        List<Batch> batches = new ArrayList<>(all.size() / recordsPerTransaction + 1);
        for (int from = 0; from < all.size(); from += recordsPerTransaction) {
            List<ConsumerRecord<String, byte[]>> inputs =
                    all.subList(from, Math.min(all.size(), from + recordsPerTransaction));
            batches.add(new Batch(inputs, transform(inputs), nextOffsets(inputs)));
        }
        for (Batch batch : batches) {
            if (closing()) {
                // Closed (at the end of the run, or removed from its group mid-run): what is left of the poll is not
                // committed, so whoever reads the partitions next reads it from the committed offsets.
                return;
            }
            if (!process(batch)) {
                rewindToCommitted(); // the rest of this poll is dropped and read again from the committed offsets
                return;
            }
        }
    }

    /**
     * Writes one batch. Reporting it (the operation, then its records as received once committed) is queued on
     * {@link #reports}, in order, so the next transaction starts as soon as this one ends, as in the seeds' loop.
     */
    private boolean process(Batch batch) {
        OperationResult result;
        try {
            result = writer.write(batch.outputs(), batch.offsets(), consumer);
        } catch (ClientHalted e) {
            leaving = true; // closing the consumer next revokes its partitions: the transaction is the fault's
            throw e;
        }
        boolean committed = result.failure() == null && result.outcome() != Outcome.ABORTED;
        ClientFault stalled = firstCommitEnds;
        if (committed && stalled != null) {
            stalled.committedAgain();
            firstCommitEnds = null;
        }
        reports.execute(() -> {
            dispatch.operationCompleted(result.timings());
            if (committed) {
                for (ConsumerRecord<String, byte[]> record : batch.inputs()) {
                    dispatch.delivered(record);
                }
            }
        });
        if (result.outcome() == Outcome.ABORTED) {
            LOG.debug(
                    "stream batch of {} records aborted on purpose, re-reading it",
                    batch.inputs().size());
        } else if (!committed) {
            LOG.warn(
                    "stream batch of {} records failed after retries, re-reading from committed offsets: {}",
                    batch.inputs().size(),
                    ErrorClassifier.describe(result.failure()));
        }
        return committed;
    }

    /** One transaction's inputs, its outputs and the offsets it commits. */
    private record Batch(
            List<ConsumerRecord<String, byte[]>> inputs,
            List<ProducerRecord<String, byte[]>> outputs,
            Map<TopicPartition, OffsetAndMetadata> offsets) {}

    /**
     * The output for each input: same value, publish time and headers, keyed by the input's identity; an input's mark
     * of an aborted transaction is not carried over (only this processor's own aborts mark its outputs).
     */
    private List<ProducerRecord<String, byte[]>> transform(List<ConsumerRecord<String, byte[]>> batch) {
        List<ProducerRecord<String, byte[]>> outputs = new ArrayList<>(batch.size());
        for (ConsumerRecord<String, byte[]> record : batch) {
            outputs.add(new ProducerRecord<>(
                    targetTopic,
                    record.partition() % targetPartitions,
                    record.timestamp(),
                    sourceKey(record.partition(), record.offset()),
                    record.value(),
                    record.headers()));
            outputs.get(outputs.size() - 1).headers().remove(ExactlyOnceReport.ABORTED_HEADER);
        }
        return outputs;
    }

    static String sourceKey(int partition, long offset) {
        return partition + ":" + offset;
    }

    private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(List<ConsumerRecord<String, byte[]>> batch) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (ConsumerRecord<String, byte[]> record : batch) {
            offsets.merge(
                    new TopicPartition(record.topic(), record.partition()),
                    new OffsetAndMetadata(record.offset() + 1),
                    (a, b) -> a.offset() >= b.offset() ? a : b);
        }
        return offsets;
    }

    private void rewindToCommitted() {
        Set<TopicPartition> assigned = consumer.assignment();
        if (assigned.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned, Duration.ofSeconds(30));
        for (TopicPartition partition : assigned) {
            OffsetAndMetadata offset = committed.get(partition);
            if (offset != null) {
                consumer.seek(partition, offset);
            } else {
                consumer.seekToBeginning(List.of(partition));
            }
        }
    }

    @Override
    protected void shutdown() {
        ClientFault fault = haltedBy();
        try {
            if (fault == null || fault.step() == ClientFaults.Step.STOP) {
                writer.close(Duration.ofSeconds(30));
            } else if (fault.step() == ClientFaults.Step.PAUSE) {
                ((InTransaction) writer).flow().forceClose(); // fenced: nothing of it can be aborted or committed
            } // killed: the producer is abandoned as it is
        } finally {
            reports.close(); // every batch written is reported before the consumer closes
        }
    }

    /** Batches are processed between polls, so none is open here; aborting is a guard, not a normal path. */
    private final class AbortOnRebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (!leaving) {
                writer.abortIfOpen();
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
    }

    /** The write path of one batch: its outputs and its input offsets, committed together or not at all. */
    private interface BatchWriter {
        OperationResult write(
                List<ProducerRecord<String, byte[]>> outputs,
                Map<TopicPartition, OffsetAndMetadata> offsets,
                Consumer<String, byte[]> consumer);

        void abortIfOpen();

        void close(Duration timeout);
    }

    /** Outputs and offsets in one transaction of the flow, with the consumer's group metadata. */
    private record InTransaction(TransactionFlow flow) implements BatchWriter {
        @Override
        public OperationResult write(
                List<ProducerRecord<String, byte[]>> outputs,
                Map<TopicPartition, OffsetAndMetadata> offsets,
                Consumer<String, byte[]> consumer) {
            return flow.run(outputs, () -> new OffsetsToCommit(offsets, consumer.groupMetadata()));
        }

        @Override
        public void abortIfOpen() {
            flow.abortIfOpen();
        }

        @Override
        public void close(Duration timeout) {
            flow.close(timeout);
        }
    }

    /**
     * Seed 000's BaseStreamingBench: send [SEND], then {@code commitSync} of the offsets [COMMIT], with the wait for
     * the acks [RESOLVE] before the commitSync, or after it when the acks are awaited after the commit. A failed
     * batch is sent again, up to maxRetries times.
     */
    private record Naive(
            Producer<String, byte[]> producer,
            AckWait ackWait,
            int maxRetries,
            TxStatsReporter stats,
            ReportQueue reports)
            implements BatchWriter {
        @Override
        public OperationResult write(
                List<ProducerRecord<String, byte[]>> outputs,
                Map<TopicPartition, OffsetAndMetadata> offsets,
                Consumer<String, byte[]> consumer) {
            PhaseTimer timer = new PhaseTimer();
            Throwable failure = null;
            for (int attempt = 0; attempt <= maxRetries; attempt++) {
                try {
                    PendingAcks acks = PendingAcks.send(producer, outputs, timer);
                    if (ackWait != AckWait.AFTER_COMMIT) {
                        acks.await(timer);
                    }
                    consumer.commitSync(offsets);
                    timer.lap(Phase.COMMIT);
                    if (ackWait == AckWait.AFTER_COMMIT) {
                        acks.await(timer);
                    }
                    failure = null;
                    break;
                } catch (InterruptedException | InterruptException e) {
                    Thread.currentThread().interrupt();
                    throw e instanceof InterruptException ie ? ie : new InterruptException((InterruptedException) e);
                } catch (Exception e) {
                    failure = ErrorClassifier.unwrap(e);
                    timer.skip();
                }
            }
            OperationTimings timings =
                    timer.finish(outputs.size(), failure == null ? Outcome.ACKNOWLEDGED : Outcome.FAILED);
            reports.execute(() -> stats.report(timings));
            return new OperationResult(timings, failure);
        }

        @Override
        public void abortIfOpen() {}

        @Override
        public void close(Duration timeout) {
            producer.close(timeout);
        }
    }
}

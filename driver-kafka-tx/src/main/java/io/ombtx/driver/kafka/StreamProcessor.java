package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.ombtx.driver.api.Phase;
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
 *   <li>transactional: begin [BEGIN], send [SEND], wait for the acks [RESOLVE], sendOffsetsToTransaction with the
 *       consumer's group metadata [SEND_OFFSETS], commit [COMMIT] (seed 000 TxStreamingBench, seed 001 StreamBench);</li>
 *   <li>naive: send [SEND], wait for the acks [RESOLVE], {@code commitSync} of the offsets, timed as COMMIT
 *       (seed 000 BaseStreamingBench).</li>
 * </ul>
 * Only the write path is timed, not the fetch. Each finished batch is reported to the callback as an operation and
 * its input records as received (after the commit, so a retried batch is not counted twice). When a batch cannot
 * be committed after retries, the consumer seeks back to the committed offsets and the records are processed again.
 */
final class StreamProcessor extends PollLoop implements BenchmarkConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(StreamProcessor.class);

    private final String targetTopic;
    private final int targetPartitions;
    private final int recordsPerTransaction;
    private final TransactionSettings settings;
    private final TransactionalSession session; // transactional mode
    private final Producer<String, byte[]> naiveProducer; // naive mode
    private final CallbackDispatch dispatch;
    private final TxStatsReporter stats;

    private StreamProcessor(Consumer<String, byte[]> consumer, String sourceTopic, String targetTopic,
            int targetPartitions, int recordsPerTransaction, TransactionSettings settings, TransactionalSession session,
            Producer<String, byte[]> naiveProducer, CallbackDispatch dispatch, TxStatsReporter stats) {
        super(consumer, "ombtx-stream-" + sourceTopic);
        this.targetTopic = targetTopic;
        this.targetPartitions = targetPartitions;
        this.recordsPerTransaction = recordsPerTransaction;
        this.settings = settings;
        this.session = session;
        this.naiveProducer = naiveProducer;
        this.dispatch = dispatch;
        this.stats = stats;
        consumer.subscribe(List.of(sourceTopic), new AbortOnRebalance());
        start();
    }

    /** @param session started; its producer writes the outputs and the offsets in one transaction */
    static StreamProcessor transactional(Consumer<String, byte[]> consumer, String sourceTopic, String targetTopic,
            int targetPartitions, int recordsPerTransaction, TransactionSettings settings, TransactionalSession session,
            CallbackDispatch dispatch, TxStatsReporter stats) {
        return new StreamProcessor(consumer, sourceTopic, targetTopic, targetPartitions, recordsPerTransaction,
                settings, session, null, dispatch, stats);
    }

    static StreamProcessor naive(Consumer<String, byte[]> consumer, String sourceTopic, String targetTopic,
            int targetPartitions, int recordsPerTransaction, TransactionSettings settings, Producer<String, byte[]> producer,
            CallbackDispatch dispatch, TxStatsReporter stats) {
        return new StreamProcessor(consumer, sourceTopic, targetTopic, targetPartitions, recordsPerTransaction,
                settings, null, producer, dispatch, stats);
    }

    @Override
    protected void handle(ConsumerRecords<String, byte[]> records) {
        List<ConsumerRecord<String, byte[]>> all = new ArrayList<>(records.count());
        records.forEach(all::add);
        for (int from = 0; from < all.size(); from += recordsPerTransaction) {
            List<ConsumerRecord<String, byte[]>> batch = all.subList(from, Math.min(all.size(), from + recordsPerTransaction));
            boolean done = session != null ? processTransactionally(batch) : processNaively(batch);
            if (!done) {
                rewindToCommitted(); // the rest of this poll is dropped and read again from the committed offsets
                return;
            }
        }
    }

    private boolean processTransactionally(List<ConsumerRecord<String, byte[]>> batch) {
        List<ProducerRecord<String, byte[]>> outputs = transform(batch);
        Map<TopicPartition, OffsetAndMetadata> offsets = nextOffsets(batch);
        PhaseTimer timer = new PhaseTimer();
        TxBody body = new RecordBatchBody(outputs, settings.resolveBeforeCommit(),
                () -> new OffsetsToCommit(offsets, consumer.groupMetadata()));
        Throwable failure = session.run(body, timer, settings.maxRetries() + 1);
        return finish(batch, timer, failure, Outcome.COMMITTED);
    }

    private boolean processNaively(List<ConsumerRecord<String, byte[]>> batch) {
        List<ProducerRecord<String, byte[]>> outputs = transform(batch);
        Map<TopicPartition, OffsetAndMetadata> offsets = nextOffsets(batch);
        PhaseTimer timer = new PhaseTimer();
        Throwable failure = null;
        for (int attempt = 0; attempt <= settings.maxRetries(); attempt++) {
            try {
                if (settings.resolveBeforeCommit()) {
                    RecordBatchBody.sendAndResolve(naiveProducer, outputs, timer);
                    consumer.commitSync(offsets);
                    timer.lap(Phase.COMMIT);
                } else {
                    var acks = outputs.stream().map(naiveProducer::send).toList();
                    timer.lap(Phase.SEND);
                    consumer.commitSync(offsets);
                    timer.lap(Phase.COMMIT);
                    for (var ack : acks) {
                        ack.get();
                    }
                    timer.lap(Phase.RESOLVE);
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
        return finish(batch, timer, failure, Outcome.ACKNOWLEDGED);
    }

    private boolean finish(List<ConsumerRecord<String, byte[]>> batch, PhaseTimer timer, Throwable failure,
            Outcome success) {
        OperationTimings timings = timer.finish(batch.size(), failure == null ? success : Outcome.FAILED);
        stats.report(timings);
        dispatch.operationCompleted(timings);
        if (failure != null) {
            LOG.warn("stream batch of {} records failed after retries, re-reading from committed offsets: {}",
                    batch.size(), ErrorClassifier.describe(failure));
            return false;
        }
        for (ConsumerRecord<String, byte[]> record : batch) {
            dispatch.delivered(record);
        }
        return true;
    }

    /** The output for each input: same value and publish time, keyed by the input's identity. */
    private List<ProducerRecord<String, byte[]>> transform(List<ConsumerRecord<String, byte[]>> batch) {
        List<ProducerRecord<String, byte[]>> outputs = new ArrayList<>(batch.size());
        for (ConsumerRecord<String, byte[]> record : batch) {
            outputs.add(new ProducerRecord<>(targetTopic, record.partition() % targetPartitions, record.timestamp(),
                    sourceKey(record.partition(), record.offset()), record.value(), record.headers()));
        }
        return outputs;
    }

    static String sourceKey(int partition, long offset) {
        return partition + ":" + offset;
    }

    private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(List<ConsumerRecord<String, byte[]>> batch) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (ConsumerRecord<String, byte[]> record : batch) {
            offsets.merge(new TopicPartition(record.topic(), record.partition()),
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
        if (session != null) {
            session.close(Duration.ofSeconds(30));
        } else {
            naiveProducer.close(Duration.ofSeconds(30));
        }
    }

    /** Batches are processed between polls, so none is open here; aborting is a guard, not a normal path. */
    private final class AbortOnRebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (session != null) {
                session.abortIfOpen();
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        }
    }
}

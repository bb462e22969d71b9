package io.ombtx.driver.kafka;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live check of a STREAM's output ({@code operation.liveCheck}): one consumer on its own thread, assigned every
 * partition of the target topic from its beginning, reading with read_committed for as long as the measurement runs
 * and handing each record to a {@link LiveCheckState}, which flags duplicates, records of aborted transactions and
 * source-order violations as they are read. For a transactional stream it also reads the group's committed offsets
 * every {@value #COMMITTED_EVERY_MILLIS} ms, through the same consumer (given the processors' group id, it never joins
 * the group: it is assigned its partitions and never commits), which asks with {@code requireStable} (kafka-clients
 * always does, 2.5 on), so the answer waits for transactions whose offsets are still pending: every output seen
 * before it whose source offset is not below it was visible while not committed. That holds only for an answer to a
 * request sent after those outputs were read, which kafka-clients does not promise after a read that timed out
 * ({@link CommittedOffsetsReader} drops such an answer). A naive stream commits its offsets after its outputs are
 * visible, so it is not judged on that.
 *
 * <p>The values are not read (a deserializer that skips them), the keys are parsed from their bytes, and the clock is
 * read once per poll: the check's cost is the consumer's fetches and a few operations per record.
 *
 * <p>{@link #stop} asks it to read on up to the output's last stable offset at that moment, then to read the
 * committed offsets once more, and completes with the report; {@link #close} ends it without one.
 */
final class LiveExactlyOnceChecker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LiveExactlyOnceChecker.class);
    static final long COMMITTED_EVERY_MILLIS = 1_000;
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final Duration COMMITTED_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final KafkaConsumer<byte[], Void> consumer;
    private final CommittedOffsetsReader committedReader;
    private final String sourceTopic;
    private final String targetTopic;
    private final boolean judgeCommitted;
    private final Duration stopTimeout;
    private final LiveCheckState state;
    private final Thread thread;
    private final CompletableFuture<LiveCheckReport> report = new CompletableFuture<>();
    private volatile boolean stopAsked;
    private volatile boolean closed;

    /**
     * @param consumerBase connection settings (bootstrap, security)
     * @param groupId the processors' consumer group, whose committed offsets say what was processed
     * @param judgeCommitted whether outputs are judged against the committed offsets (a transactional stream)
     * @param isolationLevel read_committed always, except in the test of a checker that reads uncommitted records
     * @param stopTimeout how long {@link #stop} may take to read up to the output's end
     */
    LiveExactlyOnceChecker(
            Properties consumerBase,
            String sourceTopic,
            String targetTopic,
            String groupId,
            boolean judgeCommitted,
            String isolationLevel,
            Duration stopTimeout) {
        this.sourceTopic = sourceTopic;
        this.targetTopic = targetTopic;
        this.judgeCommitted = judgeCommitted;
        this.stopTimeout = stopTimeout;
        this.state = new LiveCheckState(targetTopic, LiveCheckReport.MAX_VIOLATIONS);
        Properties props = new Properties();
        props.putAll(consumerBase);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId); // only to read its committed offsets: never joins it
        props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        props.remove(ConsumerConfig.CLIENT_ID_CONFIG);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, SkipValue.class.getName());
        this.consumer = new KafkaConsumer<>(props);
        this.committedReader = new CommittedOffsetsReader(consumer);
        this.thread = new Thread(this::run, "ombtx-live-check-" + targetTopic);
        this.thread.setDaemon(true);
    }

    /** Starts reading; call once. */
    LiveExactlyOnceChecker start() {
        thread.start();
        return this;
    }

    /** Reads on up to the output's last stable offset now, judges the committed offsets once more, and reports. */
    CompletableFuture<LiveCheckReport> stop() {
        stopAsked = true;
        return report;
    }

    private void run() {
        try {
            List<TopicPartition> outputs = partitions(targetTopic);
            Set<TopicPartition> sources = new HashSet<>(partitions(sourceTopic));
            consumer.assign(outputs);
            consumer.seekToBeginning(outputs);
            long lastCommittedRead = System.currentTimeMillis();
            while (!stopAsked && !closed) {
                readOnce();
                if (judgeCommitted && System.currentTimeMillis() - lastCommittedRead >= COMMITTED_EVERY_MILLIS) {
                    judgeCommitted(sources);
                    lastCommittedRead = System.currentTimeMillis();
                }
            }
            if (closed) {
                report.completeExceptionally(new IllegalStateException("the live check was closed before it stopped"));
                return;
            }
            boolean readToEnd = readToEnd(outputs, System.nanoTime() + stopTimeout.toNanos());
            if (judgeCommitted) {
                // Not answered within its time-out (a coordinator moving): asked again until the deadline.
                long deadline = System.nanoTime() + stopTimeout.toNanos();
                boolean judged = judgeCommitted(sources);
                while (!judged && !closed && System.nanoTime() < deadline) {
                    judged = judgeCommitted(sources);
                }
            }
            report.complete(state.report(readToEnd));
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.error("live exactly-once check of {} failed: {}", targetTopic, ErrorClassifier.describe(e));
            }
            report.completeExceptionally(e);
        } finally {
            try {
                consumer.close(CLOSE_TIMEOUT);
            } catch (RuntimeException e) {
                LOG.debug("live check consumer close failed", e);
            }
        }
    }

    /** One poll, judged; a failed poll is logged and the next one tried. */
    private void readOnce() {
        try {
            Iterable<ConsumerRecord<byte[], Void>> records = consumer.poll(POLL_TIMEOUT);
            long now = System.currentTimeMillis();
            for (ConsumerRecord<byte[], Void> record : records) {
                state.accept(record.partition(), record.offset(), record.key(), aborted(record.headers()), now);
            }
        } catch (WakeupException | InterruptException e) {
            if (!closed) {
                LOG.warn("live check consumer woken up unexpectedly; continuing");
            }
        } catch (RuntimeException e) {
            if (closed) {
                throw e;
            }
            LOG.warn(
                    "live check poll of {} failed, polling again in 1 s: {}", targetTopic, ErrorClassifier.describe(e));
            try {
                Thread.sleep(1_000); // a back-off, as the stream processor's own poll loop takes
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new InterruptException(interrupted);
            }
        }
    }

    /** Reads until every output partition's position reaches its last stable offset as of now. */
    private boolean readToEnd(List<TopicPartition> outputs, long deadlineNanos) {
        Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(outputs, stopTimeout));
        while (!closed) {
            end.entrySet().removeIf(e -> consumer.position(e.getKey(), stopTimeout) >= e.getValue());
            if (end.isEmpty()) {
                return true;
            }
            if (System.nanoTime() > deadlineNanos) {
                LOG.warn("live check of {} stopped before reading up to {}", targetTopic, end);
                return false;
            }
            readOnce();
        }
        return false;
    }

    /**
     * Reads the committed offsets (stable) and judges what was seen; false when they could not be read, or the answer
     * may predate records read since ({@link CommittedOffsetsReader}).
     */
    private boolean judgeCommitted(Set<TopicPartition> sources) {
        Map<Integer, Long> below = committedReader.read(sources, COMMITTED_TIMEOUT);
        if (below == null) {
            return false;
        }
        state.committed(below, System.currentTimeMillis());
        return true;
    }

    /**
     * The topic's partitions, asked again until its metadata has reached the broker answering: a topic just created
     * is known to the brokers a moment later, and kafka-clients may answer "no partitions" at once meanwhile (2.8.2
     * did, on 3 brokers under ZooKeeper, and the whole live check failed).
     */
    private List<TopicPartition> partitions(String topic) {
        long deadline = System.nanoTime() + stopTimeout.toNanos();
        List<PartitionInfo> infos = consumer.partitionsFor(topic, stopTimeout);
        while ((infos == null || infos.isEmpty()) && !closed && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptException(e);
            }
            infos = consumer.partitionsFor(topic, stopTimeout);
        }
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist");
        }
        List<TopicPartition> partitions = new ArrayList<>();
        for (PartitionInfo info : infos) {
            partitions.add(new TopicPartition(topic, info.partition()));
        }
        return partitions;
    }

    private static boolean aborted(Headers headers) {
        return headers.lastHeader(ExactlyOnceReport.ABORTED_HEADER) != null;
    }

    /** Ends the check without a report (the driver closing); the thread is waited for. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            consumer.wakeup();
        } catch (RuntimeException e) {
            LOG.debug("live check consumer already closed", e);
        }
        try {
            thread.join(CLOSE_TIMEOUT.toMillis() * 2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        report.completeExceptionally(new IllegalStateException("the live check was closed"));
    }

    @Override
    public String toString() {
        return "live check of " + targetTopic;
    }

    /** Reads no value: the check needs only keys and headers. */
    public static final class SkipValue implements Deserializer<Void> {
        public SkipValue() {}

        @Override
        public Void deserialize(String topic, byte[] data) {
            return null;
        }

        @Override
        public Void deserialize(String topic, Headers headers, byte[] data) {
            return null;
        }

        @Override
        public Void deserialize(String topic, Headers headers, ByteBuffer data) {
            return null;
        }
    }
}

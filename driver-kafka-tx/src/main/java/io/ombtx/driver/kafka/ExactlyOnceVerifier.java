package io.ombtx.driver.kafka;

import io.ombtx.driver.api.ExactlyOnceReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The checker of a consume-transform-produce run (a Jepsen-style verdict): the group's committed offsets say which
 * source records were processed; the committed output (read with read_committed) must hold each of them exactly
 * once and nothing else. Both topics are read with their own group-less consumer; per partition, two bit sets
 * (seen once, seen again) keep memory at two bits per source offset.
 *
 * <p>An output record carrying {@link ExactlyOnceReport#ABORTED_HEADER} was written in a transaction aborted on
 * purpose ({@code operation.abortRatio}): read with read_committed it must never appear, so each one read is counted
 * as {@code abortedSeen} (and nothing else).
 *
 * <p>The processor may still be running while this reads (a run whose input kept coming has a backlog left): the
 * committed offsets are read before the target and again after it. Every transaction that committed before the first
 * read has its output below the target's last stable offset, read later; an output of a transaction that committed
 * in between has a source offset between the two reads, and is left out of the check; only an output beyond the
 * second read (or of no source record at all) is unexpected.
 */
class ExactlyOnceVerifier {

    private final Admin admin;
    private final Properties consumerBase;
    private final Duration timeout;
    private final String isolationLevel;

    /** @param consumerBase connection settings (bootstrap, security) for the reading consumers */
    ExactlyOnceVerifier(Admin admin, Properties consumerBase, Duration timeout) {
        this(admin, consumerBase, timeout, "read_committed");
    }

    /**
     * A checker whose readers use {@code isolationLevel}: read_committed always, except in the test that shows a
     * checker reading read_uncommitted sees the aborted records.
     */
    ExactlyOnceVerifier(Admin admin, Properties consumerBase, Duration timeout, String isolationLevel) {
        this.admin = admin;
        this.consumerBase = consumerBase;
        this.timeout = timeout;
        this.isolationLevel = isolationLevel;
    }

    ExactlyOnceReport verify(String sourceTopic, String targetTopic, String groupId) throws Exception {
        Map<Integer, Long> processedBelow = committedOffsets(sourceTopic, groupId);

        // What was processed: the source records that exist below each committed offset (offsets can have gaps,
        // e.g. transaction markers if the source itself was written transactionally).
        Map<Integer, BitSet> expected = new HashMap<>();
        try (KafkaConsumer<String, byte[]> reader = reader()) {
            List<TopicPartition> partitions = partitions(reader, sourceTopic);
            Map<TopicPartition, Long> stopAt = new HashMap<>();
            for (TopicPartition tp : partitions) {
                stopAt.put(tp, processedBelow.getOrDefault(tp.partition(), 0L));
            }
            readUpTo(reader, stopAt, record -> expected.computeIfAbsent(record.partition(), p -> new BitSet())
                    .set(Math.toIntExact(record.offset())));
        }

        // What came out: every committed output record, keyed by its source's identity.
        Map<Integer, BitSet> seen = new HashMap<>();
        Map<Integer, BitSet> seenAgain = new HashMap<>();
        long[] unexpected = {0};
        long[] abortedSeen = {0};
        List<long[]> later = new ArrayList<>(); // outputs beyond the offsets read first: judged after the second read
        try (KafkaConsumer<String, byte[]> reader = reader()) {
            List<TopicPartition> partitions = partitions(reader, targetTopic);
            Map<TopicPartition, Long> end = reader.endOffsets(partitions, timeout); // the LSO under read_committed
            readUpTo(reader, end, record -> {
                if (record.headers().lastHeader(ExactlyOnceReport.ABORTED_HEADER) != null) {
                    abortedSeen[0]++;
                    return;
                }
                long[] source = parseKey(record.key());
                if (source != null && source[1] >= processedBelow.getOrDefault((int) source[0], 0L)) {
                    later.add(source);
                    return;
                }
                if (source == null || !isSet(expected, (int) source[0], source[1])) {
                    unexpected[0]++;
                    return;
                }
                int partition = (int) source[0];
                int offset = (int) source[1];
                BitSet once = seen.computeIfAbsent(partition, p -> new BitSet());
                if (once.get(offset)) {
                    seenAgain.computeIfAbsent(partition, p -> new BitSet()).set(offset);
                } else {
                    once.set(offset);
                }
            });
        }

        Map<Integer, Long> processedAfter = committedOffsets(sourceTopic, groupId);
        for (long[] source : later) {
            if (source[1] >= processedAfter.getOrDefault((int) source[0], 0L)) {
                unexpected[0]++;
            }
        }

        long checked = 0;
        long missing = 0;
        long duplicated = 0;
        for (Map.Entry<Integer, BitSet> entry : expected.entrySet()) {
            BitSet wanted = entry.getValue();
            BitSet found = seen.getOrDefault(entry.getKey(), new BitSet());
            checked += wanted.cardinality();
            BitSet absent = (BitSet) wanted.clone();
            absent.andNot(found);
            missing += absent.cardinality();
            duplicated += seenAgain.getOrDefault(entry.getKey(), new BitSet()).cardinality();
        }
        return new ExactlyOnceReport(checked, duplicated, missing, unexpected[0], abortedSeen[0]);
    }

    /** The group's committed offset per partition of {@code sourceTopic}: the source records below it are processed. */
    Map<Integer, Long> committedOffsets(String sourceTopic, String groupId) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<Integer, Long> below = new HashMap<>();
        committed.forEach((tp, offset) -> {
            if (tp.topic().equals(sourceTopic) && offset != null) {
                below.put(tp.partition(), offset.offset());
            }
        });
        return below;
    }

    private KafkaConsumer<String, byte[]> reader() {
        Properties props = new Properties();
        props.putAll(consumerBase);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return new KafkaConsumer<>(props);
    }

    private List<TopicPartition> partitions(KafkaConsumer<String, byte[]> reader, String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        List<PartitionInfo> infos = reader.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist");
        }
        for (PartitionInfo info : infos) {
            partitions.add(new TopicPartition(topic, info.partition()));
        }
        return partitions;
    }

    /** Reads each partition from its beginning to (excluding) {@code stopAt}. */
    private void readUpTo(
            KafkaConsumer<String, byte[]> reader,
            Map<TopicPartition, Long> stopAt,
            Consumer<ConsumerRecord<String, byte[]>> sink) {
        List<TopicPartition> partitions = new ArrayList<>(stopAt.keySet());
        reader.assign(partitions);
        reader.seekToBeginning(partitions);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean done = true;
            for (TopicPartition tp : partitions) {
                if (reader.position(tp, timeout) < stopAt.get(tp)) {
                    done = false;
                    break;
                }
            }
            if (done) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("verification could not read "
                        + partitions.get(0).topic() + " up to " + stopAt + " within " + timeout.toSeconds() + " s");
            }
            for (ConsumerRecord<String, byte[]> record : reader.poll(Duration.ofMillis(200))) {
                if (record.offset() < stopAt.get(new TopicPartition(record.topic(), record.partition()))) {
                    sink.accept(record);
                }
            }
        }
    }

    private static boolean isSet(Map<Integer, BitSet> sets, int partition, long offset) {
        BitSet set = sets.get(partition);
        return set != null && offset <= Integer.MAX_VALUE && set.get((int) offset);
    }

    /** {@code "<partition>:<offset>"} as written by {@link StreamProcessor}, or null if the key is not one. */
    static long[] parseKey(String key) {
        if (key == null) {
            return null;
        }
        int colon = key.indexOf(':');
        if (colon <= 0 || colon == key.length() - 1) {
            return null;
        }
        try {
            long partition = Long.parseLong(key.substring(0, colon));
            long offset = Long.parseLong(key.substring(colon + 1));
            return partition < 0 || partition > Integer.MAX_VALUE || offset < 0 ? null : new long[] {partition, offset};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}

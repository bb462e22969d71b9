package io.ombtx.runner.kafka;

import io.ombtx.runner.fault.FaultCluster.RunNames;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A run's transaction coordinator on Kafka before 3.0, which answers neither ListTransactions, DescribeTransactions
 * nor DescribeProducers (KIP-664). The transaction coordinators keep each transactional id's state in the transaction
 * log, {@value #TOPIC}: records keyed by the id, in the partition the id hashes to, whose leader is the id's
 * coordinator. So the log is read from its beginning to its end, the run's ids picked from its keys as
 * {@link FaultTargets} picks them from a listing, and the coordinator of the first (by name) is the leader of the
 * partition its records are in.
 *
 * <p>Which ids are the run's: a STREAM run's are named after its consumer group ({@code -stream-<group>-}); any other
 * run's are those whose transactions held a partition of its first topic, read from the records' values. Only the
 * formats Kafka before 3.0 writes are read: the key (version 0: the id) and the value's version 0 (producer id and
 * epoch, time-out, state, then the partitions by topic); a record in any other format is passed over.
 */
final class TransactionLog {

    static final String TOPIC = "__transaction_state";
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private TransactionLog() {}

    /**
     * The run's first transactional id (by name) in the log, with the log partition its records are in; the
     * partition's leader is its coordinator.
     */
    static Map.Entry<String, Integer> firstRunId(Properties clientSettings, RunNames names) {
        Map<String, Integer> ids = runIds(clientSettings, names);
        if (ids.isEmpty()) {
            throw new IllegalStateException("no transactional id of this run is in the transaction log yet (" + TOPIC
                    + ", read because the cluster answers no ListTransactions: Kafka before 3.0)");
        }
        return ids.entrySet().iterator().next();
    }

    /** The run's transactional ids in the log, sorted by name, each with the log partition its records are in. */
    static Map<String, Integer> runIds(Properties clientSettings, RunNames names) {
        String marker = names.streaming() && !names.groups().isEmpty()
                ? "-stream-" + names.groups().get(0) + "-"
                : null;
        String topic = names.topics().isEmpty() ? null : names.topics().get(0);
        Map<String, Integer> ids = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = reader(clientSettings)) {
            List<TopicPartition> partitions = consumer.partitionsFor(TOPIC, READ_TIMEOUT).stream()
                    .map(p -> new TopicPartition(TOPIC, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, READ_TIMEOUT);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!readTo(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "reading " + TOPIC + " to its end took over " + READ_TIMEOUT.toSeconds() + " s");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    String id = transactionalId(r.key());
                    if (id != null
                            && (marker != null
                                    ? id.contains(marker)
                                    : topic != null && !id.contains("-stream-") && holds(r.value(), topic))) {
                        ids.put(id, r.partition());
                    }
                }
            }
        }
        return ids;
    }

    /** A consumer of the log with {@code clientSettings} (a secured cluster's too): no group, every record. */
    static KafkaConsumer<byte[], byte[]> reader(Properties clientSettings) {
        Properties props = new Properties();
        props.putAll(clientSettings);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Whether {@code consumer} has read every partition of {@code end} up to its offset there. */
    static boolean readTo(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), READ_TIMEOUT) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** The transactional id a log key names (key version 0: the id as a string), or null for another format. */
    static String transactionalId(byte[] key) {
        if (key == null) {
            return null;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(key);
            if (b.getShort() != 0) {
                return null;
            }
            return string(b);
        } catch (BufferUnderflowException | IllegalArgumentException malformed) {
            return null;
        }
    }

    /**
     * The transaction state a log value records ({@code TransactionStatus}: 2 a commit prepared, 3 an abort prepared),
     * or -1 for a tombstone (the id expired) or another format. Versions 0 and 1 (1 is flexible, its additions tagged
     * fields at the end) put it after the producer id (int64), epoch (int16) and time-out (int32).
     */
    static int status(byte[] value) {
        if (value == null || value.length < STATUS_AT + 1) {
            return -1;
        }
        int version = ByteBuffer.wrap(value).getShort();
        return version == 0 || version == 1 ? value[STATUS_AT] : -1;
    }

    /**
     * When the state a log value records was entered ({@code TransactionLastUpdateTimestampMs}, the coordinator's
     * clock): for a PrepareCommit or PrepareAbort, when the coordinator received the EndTxn that ends the
     * transaction. -1 for another format or a value cut short. It follows the status and the transaction's partitions
     * (version 0: an int32-counted array of int16-length topics and int32-counted partition ids; version 1: the same
     * as compact arrays and strings, each element ending in tagged fields).
     */
    static long updateMillis(byte[] value) {
        if (status(value) < 0) {
            return -1;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(value);
            boolean flexible = b.getShort() == 1;
            b.position(STATUS_AT + 1);
            int topics = flexible ? unsignedVarint(b) - 1 : b.getInt();
            for (int t = 0; t < topics; t++) {
                int nameLength = flexible ? unsignedVarint(b) - 1 : b.getShort();
                b.position(b.position() + Math.max(0, nameLength));
                int partitions = flexible ? unsignedVarint(b) - 1 : b.getInt();
                b.position(b.position() + Math.max(0, partitions) * Integer.BYTES);
                if (flexible) {
                    skipTaggedFields(b);
                }
            }
            return b.getLong();
        } catch (BufferUnderflowException | IllegalArgumentException malformed) {
            return -1;
        }
    }

    private static int unsignedVarint(ByteBuffer b) {
        return KafkaWire.unsignedVarint(() -> b.get() & 0xff);
    }

    private static void skipTaggedFields(ByteBuffer b) {
        int fields = unsignedVarint(b);
        for (int f = 0; f < fields; f++) {
            unsignedVarint(b); // the tag
            int size = unsignedVarint(b);
            b.position(b.position() + size);
        }
    }

    /** Where a log value's status is: after its version, producer id, epoch and time-out. */
    private static final int STATUS_AT = Short.BYTES + Long.BYTES + Short.BYTES + Integer.BYTES;

    /** The status of a transaction whose commit, or abort, the coordinator has begun ({@link #status}). */
    static final int PREPARE_COMMIT = 2;

    static final int PREPARE_ABORT = 3;

    /** Whether a log value (version 0) lists a partition of {@code topic} in its transaction. */
    static boolean holds(byte[] value, String topic) {
        if (value == null) {
            return false; // the id expired
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(value);
            if (b.getShort() != 0) {
                return false;
            }
            b.position(b.position() + Long.BYTES + Short.BYTES + Integer.BYTES + Byte.BYTES);
            int topics = b.getInt();
            for (int t = 0; t < topics; t++) {
                String name = string(b);
                int partitionCount = b.getInt();
                if (topic.equals(name) && partitionCount > 0) {
                    return true;
                }
                b.position(b.position() + partitionCount * Integer.BYTES);
            }
            return false;
        } catch (BufferUnderflowException | IllegalArgumentException malformed) {
            return false;
        }
    }

    /** A string as Kafka's non-flexible formats write it: its length (int16), then its UTF-8 bytes. */
    private static String string(ByteBuffer b) {
        int length = b.getShort();
        if (length < 0 || length > b.remaining()) {
            throw new IllegalArgumentException("string of length " + length);
        }
        String s = new String(b.array(), b.arrayOffset() + b.position(), length, StandardCharsets.UTF_8);
        b.position(b.position() + length);
        return s;
    }
}

package io.ombtx.bench;

import io.ombtx.runner.stats.Histograms;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The seeds' closed loops written bare on kafka-clients, one per closed-loop scenario, from the seeds' own
 * descriptions (seed 000's "What do the tests do?", seed 001's benchmarks, seed 003's bulk insert): the calls in the
 * seeds' order, one operation after another on one thread, nothing between two operations but the loop itself.
 * {@code bin/bench fidelity} runs each in a fresh JVM and compares it with omb-tx's run of the matching workload on
 * the same broker.
 *
 * <p>The topology is the omb-tx workload's (e.g. one topic of two partitions for the writes, where seed 000 used two
 * topics of one), so the two sides differ only in the loop. Each operation is timed from just before its first call
 * to just after its last, in µs into an HdrHistogram as the runner's are ({@link Histograms}); the file written holds
 * the measured operations' histogram, encoded.
 *
 * <p>Run as {@code SeedLoop SCENARIO BOOTSTRAP CLIENT_PROPERTIES REPLICATION WARMUP MEASURE OUTPUT}, where the
 * client properties are the driver file's (common, producer and consumer settings, prefixed {@code producer.} and
 * {@code consumer.}).
 */
public final class SeedLoop {

    /** The scenarios, by the name of the omb-tx workload each mirrors. */
    static final List<String> SCENARIOS = List.of(
            "base-writes",
            "tx-writes",
            "tx-writes-ack-first",
            "base-streaming",
            "base-streaming-ack-first",
            "tx-streaming",
            "tx-streaming-ack-first",
            "tx-send-offsets",
            "tx-fetch",
            "bulk-tx",
            "bulk-acks-all");

    private static final Duration POLL = Duration.ofMillis(100);

    private final Properties producerSettings;
    private final Properties consumerSettings;
    private final String bootstrap;
    private final short replication;
    private final String run = "seed-loop-" + Long.toString(System.nanoTime(), 36);
    private final int warmup;
    private final Histogram measured = Histograms.create();
    private int ran;
    private long started;

    private SeedLoop(Properties clientSettings, String bootstrap, short replication, int warmup) {
        this.producerSettings = settings(clientSettings, "producer.", bootstrap);
        this.consumerSettings = settings(clientSettings, "consumer.", bootstrap);
        this.bootstrap = bootstrap;
        this.replication = replication;
        this.warmup = warmup;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println(
                    "usage: SeedLoop SCENARIO BOOTSTRAP CLIENT_PROPERTIES REPLICATION WARMUP MEASURE OUTPUT");
            System.exit(2);
        }
        Properties client = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[2]))) {
            client.load(in);
        }
        int warmup = Integer.parseInt(args[4]);
        SeedLoop loop = new SeedLoop(client, args[1], Short.parseShort(args[3]), warmup);
        loop.run(args[0], warmup + Integer.parseInt(args[5]));
        Files.writeString(Path.of(args[6]), Histograms.encode(loop.measured));
    }

    /** Runs {@code n} operations of {@code scenario}, the first {@link #warmup} unmeasured. */
    private void run(String scenario, int n) throws Exception {
        switch (scenario) {
            case "base-writes" -> writes(false, null, 2, 6, n);
            case "tx-writes" -> writes(true, Order.AFTER_COMMIT, 2, 6, n);
            case "tx-writes-ack-first" -> writes(true, Order.BEFORE_COMMIT, 2, 6, n);
            case "bulk-tx" -> writes(true, Order.AFTER_COMMIT, 1000, 100, n);
            case "bulk-acks-all" -> writes(false, null, 1000, 100, n);
            case "base-streaming" -> streaming(false, Order.AFTER_COMMIT, n);
            case "base-streaming-ack-first" -> streaming(false, Order.BEFORE_COMMIT, n);
            case "tx-streaming" -> streaming(true, Order.AFTER_COMMIT, n);
            case "tx-streaming-ack-first" -> streaming(true, Order.BEFORE_SEND_OFFSETS, n);
            case "tx-send-offsets" -> sendOffsets(n);
            case "tx-fetch" -> fetch(n);
            default ->
                throw new IllegalArgumentException("unknown scenario '" + scenario + "', expected one of " + SCENARIOS);
        }
    }

    /** Where a transaction waits for its sends' acks (the workloads' {@code awaitAcks}). */
    enum Order {
        BEFORE_SEND_OFFSETS,
        BEFORE_COMMIT,
        AFTER_COMMIT
    }

    private void start() {
        started = System.nanoTime();
    }

    private void end() {
        long micros = (System.nanoTime() - started) / 1000;
        if (++ran > warmup) {
            measured.recordValue(Histograms.clamp(micros));
        }
    }

    /**
     * Seed 000's BaseWritesBench and TxWritesBench, seed 003's bulk insert: {@code messages} sends round-robin over
     * the topic's two (bulk: one) partitions, then wait for the acks; in a transaction, begin first and commit before
     * (seeds) or after (ack-first) the wait.
     */
    private void writes(boolean transactional, Order order, int messages, int size, int operations) throws Exception {
        int partitions = messages == 2 ? 2 : 1;
        String topic = topic("writes", partitions);
        byte[] payload = new byte[size];
        try (KafkaProducer<byte[], byte[]> producer = producer(transactional ? run : null)) {
            if (transactional) {
                producer.initTransactions();
            }
            List<Future<RecordMetadata>> acks = new ArrayList<>(messages);
            for (int op = 0; op < operations; op++) {
                start();
                if (transactional) {
                    producer.beginTransaction();
                }
                for (int i = 0; i < messages; i++) {
                    acks.add(producer.send(new ProducerRecord<>(topic, i % partitions, null, payload)));
                }
                if (transactional && order == Order.AFTER_COMMIT) {
                    producer.commitTransaction();
                }
                for (Future<RecordMetadata> ack : acks) {
                    ack.get();
                }
                if (transactional && order == Order.BEFORE_COMMIT) {
                    producer.commitTransaction();
                }
                acks.clear();
                end();
            }
        }
    }

    /**
     * Seed 000's BaseStreamingBench and TxStreamingBench (seed 001's StreamBench): the source topic is filled first,
     * then read in batches; for each record of a batch, send it to the target topic and commit its offset
     * ({@code commitSync}, or {@code sendOffsetsToTransaction} with the consumer's group metadata inside a
     * transaction), waiting for the send's ack where {@code order} says. Only this write path is timed.
     */
    private void streaming(boolean transactional, Order order, int operations) throws Exception {
        String source = topic("source", 1);
        String target = topic("target", 1);
        fill(source, operations, 6);
        Properties consumerProps = new Properties();
        consumerProps.putAll(consumerSettings);
        consumerProps.setProperty(ConsumerConfig.GROUP_ID_CONFIG, run);
        consumerProps.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerProps.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaProducer<byte[], byte[]> producer = producer(transactional ? run : null);
                KafkaConsumer<byte[], byte[]> consumer =
                        new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            if (transactional) {
                producer.initTransactions();
            }
            consumer.subscribe(List.of(source));
            int done = 0;
            while (done < operations) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    if (done == operations) {
                        break;
                    }
                    Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(
                            new TopicPartition(record.topic(), record.partition()),
                            new OffsetAndMetadata(record.offset() + 1));
                    start();
                    if (transactional) {
                        producer.beginTransaction();
                    }
                    Future<RecordMetadata> ack =
                            producer.send(new ProducerRecord<>(target, 0, record.key(), record.value()));
                    if (order == Order.BEFORE_SEND_OFFSETS || (order == Order.BEFORE_COMMIT && !transactional)) {
                        ack.get();
                    }
                    if (transactional) {
                        producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                        producer.commitTransaction();
                    } else {
                        consumer.commitSync(offsets);
                    }
                    if (order == Order.AFTER_COMMIT) {
                        ack.get();
                    }
                    end();
                    done++;
                }
            }
        }
    }

    /**
     * Seed 001's TxSendOffsetsBench: a transaction holding only {@code sendOffsetsToTransaction}, a larger offset of
     * one partition of the loop's own consumer group each time, so every commit is a change the coordinator writes.
     */
    private void sendOffsets(int operations) throws Exception {
        TopicPartition partition = new TopicPartition(topic("offsets", 1), 0);
        ConsumerGroupMetadata group = new ConsumerGroupMetadata(run);
        try (KafkaProducer<byte[], byte[]> producer = producer(run)) {
            producer.initTransactions();
            for (int op = 0; op < operations; op++) {
                start();
                producer.beginTransaction();
                producer.sendOffsetsToTransaction(Map.of(partition, new OffsetAndMetadata(op + 1)), group);
                producer.commitTransaction();
                end();
            }
        }
    }

    /**
     * Seed 001's FetchBench: write one message in a transaction, commit, then poll with {@code read_committed} until
     * that message is read.
     */
    private void fetch(int operations) throws Exception {
        String topic = topic("fetch", 1);
        Properties consumerProps = new Properties();
        consumerProps.putAll(consumerSettings);
        consumerProps.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerProps.remove(ConsumerConfig.GROUP_ID_CONFIG);
        byte[] payload = new byte[6];
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaProducer<byte[], byte[]> producer = producer(run);
                KafkaConsumer<byte[], byte[]> consumer =
                        new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            producer.initTransactions();
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            consumer.poll(Duration.ZERO);
            for (int op = 0; op < operations; op++) {
                start();
                producer.beginTransaction();
                Future<RecordMetadata> ack = producer.send(new ProducerRecord<>(topic, 0, null, payload));
                producer.commitTransaction();
                long offset = ack.get().offset();
                boolean seen = false;
                while (!seen) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                        seen |= record.offset() == offset;
                    }
                }
                end();
            }
        }
    }

    /** {@code messages} plain records on {@code topic}, all acknowledged. */
    private void fill(String topic, int messages, int size) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer(null)) {
            List<Future<RecordMetadata>> acks = new ArrayList<>(messages);
            for (int i = 0; i < messages; i++) {
                acks.add(producer.send(new ProducerRecord<>(topic, 0, null, new byte[size])));
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        }
    }

    private String topic(String role, int partitions) throws Exception {
        String name = run + "-" + role;
        Bench.createTopic(bootstrap, name, partitions, replication);
        return name;
    }

    private KafkaProducer<byte[], byte[]> producer(String transactionalId) {
        Properties props = new Properties();
        props.putAll(producerSettings);
        if (transactionalId != null) {
            props.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The settings for one kind of client: the common ones (no prefix) and that kind's (prefix stripped). */
    private static Properties settings(Properties all, String prefix, String bootstrap) {
        Properties props = new Properties();
        for (String key : all.stringPropertyNames()) {
            if (key.startsWith(prefix)) {
                props.setProperty(key.substring(prefix.length()), all.getProperty(key));
            } else if (!key.startsWith("producer.") && !key.startsWith("consumer.")) {
                props.setProperty(key, all.getProperty(key));
            }
        }
        props.setProperty("bootstrap.servers", bootstrap);
        return props;
    }
}

package io.ombtx.bench;

import io.ombtx.driver.api.LoopListener;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
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
 * topics of one), so the two sides differ only in the loop. Each operation is timed from just before its first
 * call to just after its last, and its phases are laps of the same clock; the file written holds one line per
 * measured operation: the whole operation's nanoseconds, then each phase's.
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
    private final Properties adminSettings;
    private final short replication;
    private final String run = Long.toString(System.nanoTime(), 36);
    private final Laps laps;

    private SeedLoop(Properties clientSettings, String bootstrap, short replication, int operations, String... phases) {
        this.producerSettings = settings(clientSettings, "producer.", bootstrap);
        this.consumerSettings = settings(clientSettings, "consumer.", bootstrap);
        this.adminSettings = new Properties();
        adminSettings.setProperty("bootstrap.servers", bootstrap);
        this.replication = replication;
        this.laps = new Laps(operations, phases);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println(
                    "usage: SeedLoop SCENARIO BOOTSTRAP CLIENT_PROPERTIES REPLICATION WARMUP MEASURE OUTPUT");
            System.exit(2);
        }
        String scenario = args[0];
        Properties client = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[2]))) {
            client.load(in);
        }
        short replication = Short.parseShort(args[3]);
        int warmup = Integer.parseInt(args[4]);
        int measure = Integer.parseInt(args[5]);
        Laps laps = run(scenario, client, args[1], replication, warmup, measure);
        laps.write(Path.of(args[6]), warmup);
    }

    /** Runs {@code warmup + measure} operations of {@code scenario}; the laps of all of them. */
    static Laps run(String scenario, Properties client, String bootstrap, short replication, int warmup, int measure)
            throws Exception {
        int n = warmup + measure;
        return switch (scenario) {
            case "base-writes" ->
                new SeedLoop(client, bootstrap, replication, n, "send", "resolve").writes(false, null, 2, 6, n);
            case "tx-writes" ->
                new SeedLoop(client, bootstrap, replication, n, "begin", "send", "commit", "resolve")
                        .writes(true, Order.AFTER_COMMIT, 2, 6, n);
            case "tx-writes-ack-first" ->
                new SeedLoop(client, bootstrap, replication, n, "begin", "send", "resolve", "commit")
                        .writes(true, Order.BEFORE_COMMIT, 2, 6, n);
            case "bulk-tx" ->
                new SeedLoop(client, bootstrap, replication, n, "begin", "send", "commit", "resolve")
                        .writes(true, Order.AFTER_COMMIT, 1000, 100, n);
            case "bulk-acks-all" ->
                new SeedLoop(client, bootstrap, replication, n, "send", "resolve").writes(false, null, 1000, 100, n);
            case "base-streaming" ->
                new SeedLoop(client, bootstrap, replication, n, "send", "commit", "resolve")
                        .streaming(false, Order.AFTER_COMMIT, n);
            case "base-streaming-ack-first" ->
                new SeedLoop(client, bootstrap, replication, n, "send", "resolve", "commit")
                        .streaming(false, Order.BEFORE_COMMIT, n);
            case "tx-streaming" ->
                new SeedLoop(client, bootstrap, replication, n, "begin", "send", "sendOffsets", "commit", "resolve")
                        .streaming(true, Order.AFTER_COMMIT, n);
            case "tx-streaming-ack-first" ->
                new SeedLoop(client, bootstrap, replication, n, "begin", "send", "resolve", "sendOffsets", "commit")
                        .streaming(true, Order.BEFORE_SEND_OFFSETS, n);
            case "tx-send-offsets" ->
                new SeedLoop(client, bootstrap, replication, n, "begin", "sendOffsets", "commit").sendOffsets(n);
            case "tx-fetch" ->
                new SeedLoop(client, bootstrap, replication, n, "begin", "send", "commit", "resolve", "fetch").fetch(n);
            default ->
                throw new IllegalArgumentException("unknown scenario '" + scenario + "', expected one of " + SCENARIOS);
        };
    }

    /** Where a transaction waits for its sends' acks (the workloads' {@code awaitAcks}). */
    enum Order {
        BEFORE_SEND_OFFSETS,
        BEFORE_COMMIT,
        AFTER_COMMIT
    }

    /**
     * Seed 000's BaseWritesBench and TxWritesBench, seed 003's bulk insert: {@code messages} sends round-robin over
     * the topic's two (bulk: one) partitions, then wait for the acks; in a transaction, begin first and commit before
     * (seeds) or after (ack-first) the wait.
     */
    private Laps writes(boolean transactional, Order order, int messages, int size, int operations) throws Exception {
        int partitions = messages == 2 ? 2 : 1;
        String topic = topic("writes", partitions);
        byte[] payload = new byte[size];
        try (KafkaProducer<byte[], byte[]> producer = producer(transactional ? "seed-loop-" + run : null)) {
            if (transactional) {
                producer.initTransactions();
            }
            List<Future<RecordMetadata>> acks = new ArrayList<>(messages);
            for (int op = 0; op < operations; op++) {
                laps.start();
                if (transactional) {
                    begin(producer);
                    laps.lap();
                }
                if (!transactional && LoopListener.ON && ackedNanos != 0) {
                    LoopListener.INSTALLED.gap(System.nanoTime() - ackedNanos);
                }
                for (int i = 0; i < messages; i++) {
                    acks.add(producer.send(new ProducerRecord<>(topic, i % partitions, null, payload)));
                }
                laps.lap();
                if (transactional && order == Order.AFTER_COMMIT) {
                    commit(producer);
                    laps.lap();
                }
                for (Future<RecordMetadata> ack : acks) {
                    ack.get();
                }
                if (!transactional && LoopListener.ON) {
                    ackedNanos = System.nanoTime();
                }
                laps.lap();
                if (transactional && order == Order.BEFORE_COMMIT) {
                    commit(producer);
                    laps.lap();
                }
                acks.clear();
                laps.end();
            }
        }
        return laps;
    }

    /**
     * Seed 000's BaseStreamingBench and TxStreamingBench (seed 001's StreamBench): the source topic is filled first,
     * then read in batches; for each record of a batch, send it to the target topic and commit its offset
     * ({@code commitSync}, or {@code sendOffsetsToTransaction} with the consumer's group metadata inside a
     * transaction), waiting for the send's ack where {@code order} says. Only this write path is timed.
     */
    private Laps streaming(boolean transactional, Order order, int operations) throws Exception {
        String source = topic("source", 1);
        String target = topic("target", 1);
        fill(source, operations, 6);
        Properties consumerProps = new Properties();
        consumerProps.putAll(consumerSettings);
        consumerProps.setProperty(ConsumerConfig.GROUP_ID_CONFIG, "seed-loop-" + run);
        consumerProps.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerProps.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaProducer<byte[], byte[]> producer = producer(transactional ? "seed-loop-" + run : null);
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
                    laps.start();
                    if (transactional) {
                        begin(producer);
                        laps.lap();
                    }
                    Future<RecordMetadata> ack =
                            producer.send(new ProducerRecord<>(target, 0, record.key(), record.value()));
                    laps.lap();
                    if (order == Order.BEFORE_SEND_OFFSETS || (order == Order.BEFORE_COMMIT && !transactional)) {
                        ack.get();
                        laps.lap();
                    }
                    if (transactional) {
                        producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                        laps.lap();
                        commit(producer);
                    } else {
                        consumer.commitSync(offsets);
                    }
                    laps.lap();
                    if (order == Order.AFTER_COMMIT) {
                        ack.get();
                        laps.lap();
                    }
                    laps.end();
                    done++;
                }
            }
        }
        return laps;
    }

    /**
     * Seed 001's TxSendOffsetsBench: a transaction holding only {@code sendOffsetsToTransaction}, a larger offset of
     * one partition of the loop's own consumer group each time, so every commit is a change the coordinator writes.
     */
    private Laps sendOffsets(int operations) throws Exception {
        TopicPartition partition = new TopicPartition(topic("offsets", 1), 0);
        ConsumerGroupMetadata group = new ConsumerGroupMetadata("seed-loop-" + run);
        try (KafkaProducer<byte[], byte[]> producer = producer("seed-loop-" + run)) {
            producer.initTransactions();
            for (int op = 0; op < operations; op++) {
                laps.start();
                begin(producer);
                laps.lap();
                producer.sendOffsetsToTransaction(Map.of(partition, new OffsetAndMetadata(op + 1)), group);
                laps.lap();
                commit(producer);
                laps.lap();
                laps.end();
            }
        }
        return laps;
    }

    /**
     * Seed 001's FetchBench: write one message in a transaction, commit, then poll with {@code read_committed} until
     * that message is read.
     */
    private Laps fetch(int operations) throws Exception {
        String topic = topic("fetch", 1);
        Properties consumerProps = new Properties();
        consumerProps.putAll(consumerSettings);
        consumerProps.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerProps.remove(ConsumerConfig.GROUP_ID_CONFIG);
        byte[] payload = new byte[6];
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaProducer<byte[], byte[]> producer = producer("seed-loop-" + run);
                KafkaConsumer<byte[], byte[]> consumer =
                        new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            producer.initTransactions();
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            consumer.poll(Duration.ZERO);
            for (int op = 0; op < operations; op++) {
                laps.start();
                begin(producer);
                laps.lap();
                Future<RecordMetadata> ack = producer.send(new ProducerRecord<>(topic, 0, null, payload));
                laps.lap();
                commit(producer);
                laps.lap();
                long offset = ack.get().offset();
                laps.lap();
                boolean seen = false;
                while (!seen) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                        seen |= record.offset() == offset;
                    }
                }
                laps.lap();
                laps.end();
            }
        }
        return laps;
    }

    /** When the last commit returned, for {@link LoopListener}; 0 before the first. */
    private long committedNanos;
    /** Plain writes: when the last write's acks were all in, for {@link LoopListener}; 0 before the first. */
    private long ackedNanos;

    private void begin(KafkaProducer<byte[], byte[]> producer) {
        if (LoopListener.ON && committedNanos != 0) {
            LoopListener.INSTALLED.gap(System.nanoTime() - committedNanos);
        }
        producer.beginTransaction();
    }

    private void commit(KafkaProducer<byte[], byte[]> producer) {
        producer.commitTransaction();
        if (LoopListener.ON) {
            committedNanos = System.nanoTime();
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
        String name = "seed-loop-" + run + "-" + role;
        try (Admin admin = Admin.create(adminSettings)) {
            admin.createTopics(List.of(new NewTopic(name, partitions, replication)))
                    .all()
                    .get();
        }
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

    /** Each operation's length and its phases' laps, in nanoseconds, from one clock. */
    static final class Laps {
        private final String[] phases;
        private final long[][] values; // [operation][0: whole, 1..: phases]
        private int operation = -1;
        private int phase;
        private long started;
        private long last;

        Laps(int operations, String... phases) {
            this.phases = phases;
            this.values = new long[operations][phases.length + 1];
        }

        void start() {
            operation++;
            phase = 1;
            started = System.nanoTime();
            last = started;
        }

        void lap() {
            long now = System.nanoTime();
            values[operation][phase++] = now - last;
            last = now;
        }

        void end() {
            values[operation][0] = last - started;
        }

        /** A header line naming the columns, then one line per operation after the first {@code skip}. */
        void write(Path file, int skip) throws IOException {
            try (BufferedWriter out = Files.newBufferedWriter(file)) {
                out.write("operation," + String.join(",", phases));
                out.newLine();
                for (int op = skip; op <= operation; op++) {
                    StringBuilder line = new StringBuilder();
                    for (int i = 0; i < values[op].length; i++) {
                        line.append(i == 0 ? "" : ",").append(values[op][i]);
                    }
                    out.write(line.toString());
                    out.newLine();
                }
            }
        }
    }
}

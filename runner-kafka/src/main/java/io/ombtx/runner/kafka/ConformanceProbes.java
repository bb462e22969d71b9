package io.ombtx.runner.kafka;

import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.Guarantee;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.result.RunResult.Conformance.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The guarantees a Kafka-API broker is probed for with clients of the probe's own, after a run's measurement, on a
 * topic of one partition created for the probe and deleted after it (docs/conformance.md):
 *
 * <ul>
 *   <li>{@code open-transaction-holds-lso}: committed records, then a transaction left open, then more committed
 *       records; a {@code read_committed} reader must get the records before the open transaction and nothing from
 *       its first offset on (the last stable offset), for the whole hold, and everything once it commits;
 *   <li>{@code timeout-aborts}: a transaction left open past its producer's {@code transaction.timeout.ms}; the
 *       broker must abort it (the last stable offset passes it), its records must never be visible to
 *       {@code read_committed}, and the producer's late commit must be refused.
 * </ul>
 *
 * Each is bounded in time: a broker that never ends a transaction is a failed verdict, not a hang.
 */
final class ConformanceProbes {

    /** Records each transaction of the probes writes. */
    static final int RECORDS = 5;
    /** How long the open transaction is held while its reader is watched. */
    static final Duration HOLD = Duration.ofSeconds(3);
    /** How long, once the open transaction committed, its records and those behind it may take to reach the reader. */
    static final Duration RELEASE = Duration.ofSeconds(10);
    /** The timed-out transaction's {@code transaction.timeout.ms}. */
    static final int TIMEOUT_MS = 2_000;
    /**
     * How long after its timeout the broker may take to abort it: Kafka looks for timed-out transactions every
     * {@code transaction.abort.timed.out.transaction.cleanup.interval.ms} (10 s by default), plus a margin.
     */
    static final Duration ABORT_WITHIN = Duration.ofSeconds(30);

    private final Properties common;
    private final int replicationFactor;
    private final Consumer<String> log;
    private final String id = UUID.randomUUID().toString().substring(0, 8);

    private ConformanceProbes(DriverFile driver, Consumer<String> log) {
        this.common = driver.properties("commonConfig");
        this.replicationFactor = driver.replicationFactor();
        this.log = log;
    }

    /** The verdict of the probe for {@code g}, or null when {@code g} is not judged by a probe. */
    static RunResult.Conformance probe(Guarantee g, DriverFile driver, Consumer<String> log) throws Exception {
        ConformanceProbes probes = new ConformanceProbes(driver, log);
        return switch (g) {
            case OPEN_TRANSACTION_HOLDS_LSO -> probes.openTransactionHoldsLso(g);
            case TIMEOUT_ABORTS -> probes.timeoutAborts(g);
            default -> null;
        };
    }

    private RunResult.Conformance openTransactionHoldsLso(Guarantee g) throws Exception {
        String topic = "omb-tx-conformance-lso-" + id;
        TopicPartition tp = new TopicPartition(topic, 0);
        Map<String, Long> counts = new LinkedHashMap<>();
        List<String> violations = new ArrayList<>();
        try (Admin admin = Admin.create(common)) {
            createTopic(admin, topic);
            try (KafkaProducer<String, String> open = producer("lso-open", null);
                    KafkaProducer<String, String> committer = producer("lso-committer", null);
                    KafkaConsumer<String, String> reader = consumer("read_committed");
                    KafkaConsumer<String, String> uncommitted = consumer("read_uncommitted")) {
                open.initTransactions();
                committer.initTransactions();
                committed(committer, topic, "before");
                open.beginTransaction();
                long openFirst = send(open, topic, "open");
                open.flush();
                long afterLast = committed(committer, topic, "after");
                reader.assign(List.of(tp));
                reader.seekToBeginning(List.of(tp));
                long holdStart = System.nanoTime();
                long deliveredBefore = 0;
                long visibleWhileOpen = 0;
                while (System.nanoTime() - holdStart < HOLD.toNanos()) {
                    for (ConsumerRecord<String, String> r : reader.poll(Duration.ofMillis(100))) {
                        if (r.value().startsWith("before")) {
                            deliveredBefore++;
                        } else {
                            visibleWhileOpen++;
                            if (visibleWhileOpen == 1) {
                                violations.add(String.format(
                                        Locale.ROOT,
                                        "%s-0@%d ('%s') returned to a read_committed reader %.1f s into the hold,"
                                                + " while the transaction from offset %d was still open",
                                        topic,
                                        r.offset(),
                                        r.value(),
                                        (System.nanoTime() - holdStart) / 1e9,
                                        openFirst));
                            }
                        }
                    }
                }
                long position = reader.position(tp);
                long lso = reader.endOffsets(List.of(tp)).get(tp);
                long highWatermark = uncommitted.endOffsets(List.of(tp)).get(tp);
                counts.put("committedBefore", (long) RECORDS);
                counts.put("deliveredBefore", deliveredBefore);
                counts.put("heldRecords", 2L * RECORDS);
                counts.put("visibleWhileOpen", visibleWhileOpen);
                counts.put("openFirstOffset", openFirst);
                counts.put("lastStableOffset", lso);
                counts.put("highWatermark", highWatermark);
                counts.put("readerPosition", position);
                counts.put("holdMillis", HOLD.toMillis());
                if (lso != openFirst) {
                    violations.add("ListOffsets (read_committed) answered a last stable offset of " + lso
                            + " while the transaction from offset " + openFirst + " was open (high watermark "
                            + highWatermark + ", the reader held at " + position + ")");
                }
                if (position > openFirst) {
                    violations.add("the read_committed reader's position reached " + position
                            + ", past the open transaction's first offset " + openFirst);
                }
                if (deliveredBefore != RECORDS) {
                    violations.add("the reader got " + deliveredBefore + " of the " + RECORDS
                            + " records committed before the open transaction");
                }
                open.commitTransaction();
                long ended = System.nanoTime();
                long released = 0;
                while (released < 2L * RECORDS && System.nanoTime() - ended < RELEASE.toNanos()) {
                    released += reader.poll(Duration.ofMillis(50)).count();
                }
                counts.put("releasedAfterEnd", released);
                counts.put("releaseMillis", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - ended));
                if (released != 2L * RECORDS) {
                    violations.add("once the open transaction committed, " + released + " of the " + 2 * RECORDS
                            + " records it held back reached the reader within " + RELEASE.toSeconds() + " s (last"
                            + " offset " + afterLast + ")");
                }
            } finally {
                deleteTopic(admin, topic);
            }
        }
        return verdict(g, counts, violations, null);
    }

    private RunResult.Conformance timeoutAborts(Guarantee g) throws Exception {
        String topic = "omb-tx-conformance-timeout-" + id;
        TopicPartition tp = new TopicPartition(topic, 0);
        Map<String, Long> counts = new LinkedHashMap<>();
        List<String> violations = new ArrayList<>();
        String note;
        try (Admin admin = Admin.create(common)) {
            createTopic(admin, topic);
            try (KafkaProducer<String, String> late = producer("timeout-late", TIMEOUT_MS);
                    KafkaProducer<String, String> committer = producer("timeout-committer", null);
                    KafkaConsumer<String, String> watcher = consumer("read_committed")) {
                late.initTransactions();
                committer.initTransactions();
                late.beginTransaction();
                long first = send(late, topic, "timed-out");
                late.flush();
                long last = first + RECORDS - 1;
                long sent = System.nanoTime();
                long abortedAfter = -1;
                long lso = -1;
                long position = 0;
                long visibleWhileOpen = 0;
                watcher.assign(List.of(tp));
                watcher.seekToBeginning(List.of(tp));
                // Ended when the last stable offset passes its records, or a read_committed reader is let past them
                // (either alone could be a broker's mistake; both are recorded).
                while (System.nanoTime() - sent
                        < Duration.ofMillis(TIMEOUT_MS).plus(ABORT_WITHIN).toNanos()) {
                    for (ConsumerRecord<String, String> r : watcher.poll(Duration.ofMillis(100))) {
                        if (r.value().startsWith("timed-out") && visibleWhileOpen++ == 0) {
                            violations.add(tp + "@" + r.offset() + " ('" + r.value() + "'), a record of the"
                                    + " transaction left open, returned to a read_committed reader");
                        }
                    }
                    position = watcher.position(tp);
                    lso = watcher.endOffsets(List.of(tp)).get(tp);
                    if (lso > last || position > last) {
                        abortedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
                        break;
                    }
                }
                counts.put("visibleWhileOpen", visibleWhileOpen);
                counts.put("timeoutMillis", (long) TIMEOUT_MS);
                counts.put("abortedAfterMillis", abortedAfter);
                counts.put("records", (long) RECORDS);
                if (abortedAfter < 0) {
                    violations.add(String.format(
                            Locale.ROOT,
                            "the transaction from offset %d was still open %d s after its %d ms timeout (last stable"
                                    + " offset %d, a read_committed reader held at %d)",
                            first,
                            ABORT_WITHIN.toSeconds(),
                            TIMEOUT_MS,
                            lso,
                            position));
                }
                committed(committer, topic, "after");
                Read read = readAll(tp);
                counts.put("visibleAfterAbort", read.timedOut());
                counts.put("committedAfterVisible", read.after());
                if (read.timedOut() > 0) {
                    violations.add(read.first());
                }
                if (read.after() != RECORDS) {
                    violations.add("a read_committed reader got " + read.after() + " of the " + RECORDS
                            + " records committed after the timed-out transaction");
                }
                boolean refused;
                try {
                    late.commitTransaction();
                    refused = false;
                    note = "the late commit was accepted";
                    violations.add("the producer's commit of its timed-out transaction was accepted");
                } catch (KafkaException e) {
                    refused = true;
                    note = "the late commit was refused: " + e.getClass().getSimpleName();
                }
                counts.put("commitRefused", refused ? 1L : 0L);
                Read again = readAll(tp);
                counts.put("visibleAfterLateCommit", again.timedOut());
                if (again.timedOut() > 0 && read.timedOut() == 0) {
                    violations.add("after the late commit: " + again.first());
                }
            } finally {
                deleteTopic(admin, topic);
            }
        }
        return verdict(g, counts, violations, note);
    }

    /** What a new read_committed reader gets of the topic, from its beginning to its last stable offset. */
    private record Read(long timedOut, long after, String first) {}

    private Read readAll(TopicPartition tp) {
        try (KafkaConsumer<String, String> reader = consumer("read_committed")) {
            reader.assign(List.of(tp));
            reader.seekToBeginning(List.of(tp));
            long end = reader.endOffsets(List.of(tp)).get(tp);
            long timedOut = 0;
            long after = 0;
            String first = null;
            long start = System.nanoTime();
            while (reader.position(tp) < end && System.nanoTime() - start < RELEASE.toNanos()) {
                for (ConsumerRecord<String, String> r : reader.poll(Duration.ofMillis(100))) {
                    if (r.value().startsWith("timed-out")) {
                        if (timedOut++ == 0) {
                            first = tp + "@" + r.offset() + " ('" + r.value() + "'), a record of the transaction"
                                    + " past its timeout, returned to a read_committed reader";
                        }
                    } else {
                        after++;
                    }
                }
            }
            return new Read(timedOut, after, first);
        }
    }

    private static RunResult.Conformance verdict(
            Guarantee g, Map<String, Long> counts, List<String> violations, String note) {
        return new RunResult.Conformance(
                g.id(),
                g.title(),
                violations.isEmpty() ? Verdict.PASS : Verdict.FAIL,
                counts,
                violations.isEmpty() ? null : violations.get(0),
                note);
    }

    /** One committed transaction of {@link #RECORDS} records {@code prefix-i}; the offset of its last record. */
    private static long committed(KafkaProducer<String, String> producer, String topic, String prefix)
            throws Exception {
        producer.beginTransaction();
        long first = send(producer, topic, prefix);
        producer.commitTransaction();
        return first + RECORDS - 1;
    }

    /** Sends {@link #RECORDS} records {@code prefix-i} to partition 0; the offset of the first, once acknowledged. */
    private static long send(KafkaProducer<String, String> producer, String topic, String prefix) throws Exception {
        List<java.util.concurrent.Future<RecordMetadata>> acks = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            acks.add(producer.send(new ProducerRecord<>(topic, 0, null, prefix + "-" + i)));
        }
        producer.flush();
        return acks.get(0).get(30, TimeUnit.SECONDS).offset();
    }

    private void createTopic(Admin admin, String topic) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) replicationFactor)))
                .all()
                .get(30, TimeUnit.SECONDS);
        log.accept("Probe topic " + topic + " created");
    }

    private static void deleteTopic(Admin admin, String topic) {
        try {
            admin.deleteTopics(List.of(topic)).all().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // Best effort: a probe topic left behind holds a few records and nothing else.
        }
    }

    /** @param timeoutMs its transaction.timeout.ms, or null for the client's default */
    private KafkaProducer<String, String> producer(String role, Integer timeoutMs) {
        Properties p = new Properties();
        p.putAll(common);
        p.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "omb-tx-conformance-" + role + "-" + id);
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.setProperty(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        if (timeoutMs != null) {
            p.setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Integer.toString(timeoutMs));
        }
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private KafkaConsumer<String, String> consumer(String isolation) {
        Properties p = new Properties();
        p.putAll(common);
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.junit.EmbeddedKafkaExtension;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.LiveCheckReport.Kind;
import io.ombtx.driver.api.LiveCheckReport.Violation;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live check ({@code operation.liveCheck}) on a real broker: a transactional stream with aborts on purpose passes
 * it, and each deliberately broken variant is caught, with the offsets of what broke it: a checker reading
 * read_uncommitted sees the aborted records; records written into the output by a plain producer are a duplicate,
 * outputs whose offsets were never committed, and a record out of source order; a processor that commits its offsets
 * outside its transaction and is restarted before it does writes duplicates of uncommitted outputs.
 */
@Tag("integration")
class LiveCheckTest {

    private static final long WAIT_SECONDS = 120;
    private static final double RATIO = 0.3;
    private static final long SEED = 31;

    @RegisterExtension
    static final EmbeddedKafkaExtension kafka = new EmbeddedKafkaExtension();

    @TempDir
    Path dir;

    private KafkaTxBenchmarkDriver driver() throws Exception {
        KafkaTxBenchmarkDriver driver = TestDrivers.driver(TestDrivers.yaml(dir, kafka.bootstrapServers(), null));
        driver.configureOperation(new OperationSpec(OperationKind.STREAM, true, 1, 1, false, true, null, RATIO, SEED));
        return driver;
    }

    /** Source and target topics of one partition each, the source filled with {@code records} plain records. */
    private static String prefilledSource(KafkaTxBenchmarkDriver driver, String name, int records) throws Exception {
        String source = TestDrivers.topic(name);
        driver.createTopic(source, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
        driver.createTopic(driver.streamTargetTopic(source), 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
        BenchmarkProducer feeder = driver.createProducer(source).get(WAIT_SECONDS, TimeUnit.SECONDS);
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            sends.add(feeder.sendAsync(Optional.empty(), ("in-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        feeder.close();
        return source;
    }

    /** Runs one processor until {@code records} source records are committed, then closes it; its aborts. */
    private static long process(KafkaTxBenchmarkDriver driver, String source, String group, int records)
            throws Exception {
        RecordingCallback callback = new RecordingCallback();
        BenchmarkConsumer processor =
                driver.createConsumer(source, group, callback).get(WAIT_SECONDS, TimeUnit.SECONDS);
        callback.awaitReceived(records, Duration.ofSeconds(WAIT_SECONDS));
        processor.close();
        assertEquals(records, callback.received());
        return callback.operations.stream()
                .filter(t -> t.outcome() == Outcome.ABORTED)
                .count();
    }

    @Test
    void aTransactionalStreamWithAbortsOnPurposePassesTheLiveCheck() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver()) {
            String source = prefilledSource(driver, "live", 300);
            driver.startLiveCheck(source, "live").get(WAIT_SECONDS, TimeUnit.SECONDS);
            long aborts = process(driver, source, "live", 300);
            assertTrue(aborts > 0, "the run aborted on purpose");

            LiveCheckReport report = driver.stopLiveCheck(source, "live").get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertEquals(new LiveCheckReport(300, 0, 0, 0, 0, 0, true, List.of()), report);
            assertEquals(
                    new ExactlyOnceReport(300, 0, 0, 0, 0),
                    driver.verifyExactlyOnce(source, "live").get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
    }

    /** The broken variant: a checker reading read_uncommitted reports every aborted record, where it is. */
    @Test
    void aCheckerThatReadsUncommittedRecordsSeesTheAbortedOnesAtTheirOffsets() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver()) {
            String source = prefilledSource(driver, "leaky", 100);
            long aborts = process(driver, source, "leaky", 100);
            assertTrue(aborts > 0);
            String target = driver.streamTargetTopic(source);
            List<Long> markedOffsets =
                    TestDrivers.awaitWritten(kafka.bootstrapServers(), target, 100 + (int) aborts).stream()
                            .filter(r -> r.headers().lastHeader(ExactlyOnceReport.ABORTED_HEADER) != null)
                            .map(ConsumerRecord::offset)
                            .toList();
            assertEquals(aborts, markedOffsets.size());

            driver.startLiveCheck(source, "leaky", "read_uncommitted").get(WAIT_SECONDS, TimeUnit.SECONDS);
            LiveCheckReport leaky = driver.stopLiveCheck(source, "leaky").get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertEquals(100 + aborts, leaky.outputsRead());
            assertEquals(aborts, leaky.abortedSeen(), "every aborted record read is flagged: " + leaky);
            assertEquals(0, leaky.duplicates() + leaky.uncommitted() + leaky.outOfOrder() + leaky.unknownSource());
            assertFalse(leaky.passed());
            assertEquals(
                    markedOffsets.subList(0, Math.min(markedOffsets.size(), LiveCheckReport.MAX_VIOLATIONS)),
                    leaky.violations().stream().map(Violation::offset).toList());
            assertTrue(leaky.violations().stream()
                    .allMatch(v -> v.kind() == Kind.ABORTED && v.topic().equals(target)));
        }
    }

    /**
     * The broken variant: while the check runs, a plain producer writes into the output a second copy of source record
     * 0:5, then outputs of 0:150 and 0:120, which no transaction committed (the group's offset stays at 100); 0:120
     * also comes after 0:150.
     */
    @Test
    void recordsInjectedIntoTheOutputAreCaughtWithTheirOffsets() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver()) {
            String source = prefilledSource(driver, "injected", 100);
            driver.startLiveCheck(source, "injected").get(WAIT_SECONDS, TimeUnit.SECONDS);
            process(driver, source, "injected", 100);
            String target = driver.streamTargetTopic(source);
            long duplicateAt;
            long laterAt;
            long earlierAt;
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            try (KafkaProducer<String, byte[]> plain = new KafkaProducer<>(props)) {
                duplicateAt = inject(plain, target, "0:5");
                laterAt = inject(plain, target, "0:150");
                earlierAt = inject(plain, target, "0:120");
            }

            LiveCheckReport report = driver.stopLiveCheck(source, "injected").get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertEquals(103, report.outputsRead());
            assertEquals(1, report.duplicates(), report.toString());
            assertEquals(2, report.uncommitted(), "0:150 and 0:120, beyond the committed 100: " + report);
            assertEquals(1, report.outOfOrder(), report.toString());
            assertEquals(0, report.abortedSeen() + report.unknownSource());
            assertTrue(report.readToEnd());

            Violation duplicate = only(report, Kind.DUPLICATE);
            assertEquals(List.of(target, 0, duplicateAt, 0, 5L), where(duplicate));
            Violation outOfOrder = only(report, Kind.OUT_OF_ORDER);
            assertEquals(List.of(target, 0, earlierAt, 0, 120L), where(outOfOrder));
            List<Violation> uncommitted = report.violations().stream()
                    .filter(v -> v.kind() == Kind.UNCOMMITTED)
                    .toList();
            // Flagged at the first reading of the committed offsets after each was seen: one reading after both
            // (the first flagged is 0:120), or one between them too (0:150, then 0:120); each names the output of the
            // highest source offset then seen, 0:150's.
            assertTrue(
                    uncommitted.stream().allMatch(v -> v.offset() == laterAt && v.partition() == 0),
                    uncommitted.toString());
            List<Long> firstFlagged =
                    uncommitted.stream().map(Violation::sourceOffset).toList();
            assertTrue(
                    firstFlagged.equals(List.of(120L)) || firstFlagged.equals(List.of(150L, 120L)),
                    firstFlagged.toString());
            assertTrue(duplicate.seenEpochMillis() > 0 && duplicate.seenEpochMillis() <= System.currentTimeMillis());
        }
    }

    /**
     * The broken variant Kafka's matrix guards against: a processor that commits its offsets outside its transaction
     * (its outputs committed first, its offsets to follow with commitSync) and crashes in between, then is restarted
     * and processes the same records again. The live check sees each output twice, and both copies visible while the
     * group had committed nothing.
     */
    @Test
    void aProcessorCommittingItsOffsetsOutsideItsTransactionIsCaught() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver()) {
            String source = prefilledSource(driver, "outside", 10);
            String target = driver.streamTargetTopic(source);
            driver.startLiveCheck(source, "outside").get(WAIT_SECONDS, TimeUnit.SECONDS);
            List<Long> first = processOutsideTheTransaction(source, target, "outside", "outside-1");
            List<Long> again = processOutsideTheTransaction(source, target, "outside", "outside-2");

            LiveCheckReport report = driver.stopLiveCheck(source, "outside").get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertEquals(20, report.outputsRead());
            assertEquals(10, report.duplicates(), report.toString());
            assertEquals(10, report.uncommitted(), "every source offset seen, none committed: " + report);
            assertEquals(0, report.abortedSeen() + report.outOfOrder() + report.unknownSource());
            List<Violation> duplicates = report.violations().stream()
                    .filter(v -> v.kind() == Kind.DUPLICATE)
                    .toList();
            assertEquals(again, duplicates.stream().map(Violation::offset).toList(), "the second copies' offsets");
            assertEquals(
                    List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L),
                    duplicates.stream().map(Violation::sourceOffset).toList());
            assertTrue(first.get(9) < again.get(0));
        }
    }

    /**
     * One life of the broken processor: reads the source's 10 records from the group's committed offsets (none: the
     * beginning), writes their outputs in one transaction and commits it, and dies before committing the offsets.
     * Returns the outputs' offsets.
     */
    private List<Long> processOutsideTheTransaction(String source, String target, String group, String transactionalId)
            throws Exception {
        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        producerProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        List<ConsumerRecord<String, byte[]>> inputs = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps);
                KafkaProducer<String, byte[]> producer = new KafkaProducer<>(producerProps)) {
            consumer.subscribe(List.of(source));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (inputs.size() < 10 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(inputs::add);
            }
            assertEquals(10, inputs.size());
            producer.initTransactions();
            producer.beginTransaction();
            List<java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>> sent =
                    new ArrayList<>();
            for (ConsumerRecord<String, byte[]> input : inputs) {
                sent.add(producer.send(new ProducerRecord<>(
                        target,
                        input.partition(),
                        StreamProcessor.sourceKey(input.partition(), input.offset()),
                        input.value())));
            }
            producer.commitTransaction();
            List<Long> offsets = new ArrayList<>();
            for (var future : sent) {
                offsets.add(future.get(WAIT_SECONDS, TimeUnit.SECONDS).offset());
            }
            return offsets; // the crash: consumer.commitSync(offsets) never runs
        }
    }

    private static long inject(KafkaProducer<String, byte[]> plain, String target, String key) throws Exception {
        return plain.send(new ProducerRecord<>(target, 0, key, new byte[1]))
                .get(WAIT_SECONDS, TimeUnit.SECONDS)
                .offset();
    }

    private static Violation only(LiveCheckReport report, Kind kind) {
        List<Violation> found =
                report.violations().stream().filter(v -> v.kind() == kind).toList();
        assertEquals(1, found.size(), report.toString());
        return found.get(0);
    }

    private static List<Object> where(Violation v) {
        return List.of(v.topic(), v.partition(), v.offset(), v.sourcePartition(), v.sourceOffset());
    }
}

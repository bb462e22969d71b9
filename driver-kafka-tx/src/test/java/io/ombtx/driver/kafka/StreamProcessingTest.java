package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.junit.EmbeddedKafkaExtension;
import io.ombtx.driver.api.CallbackProducer;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.ombtx.driver.api.Phase;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Consume-transform-produce through the SPI, and the exactly-once checker, against one real embedded broker. */
@Tag("integration")
class StreamProcessingTest {

    private static final long WAIT_SECONDS = 120;

    @RegisterExtension
    static final EmbeddedKafkaExtension kafka = new EmbeddedKafkaExtension();

    @TempDir
    Path dir;

    /** Creates source and target topics and fills the source through the driver's (plain) STREAM producer. */
    private static String prefilledSource(KafkaTxBenchmarkDriver driver, String name, int partitions, int records)
            throws Exception {
        String source = TestDrivers.topic(name);
        driver.createTopic(source, partitions).get(WAIT_SECONDS, TimeUnit.SECONDS);
        driver.createTopic(driver.streamTargetTopic(source), partitions).get(WAIT_SECONDS, TimeUnit.SECONDS);
        BenchmarkProducer feeder = driver.createProducer(source).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals(null, ((KafkaTxProducer) feeder).transactionalId(), "STREAM producers only feed the source");
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            sends.add(feeder.sendAsync(Optional.of("k" + i), ("in-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        feeder.close();
        return source;
    }

    /** A driver on the test broker, configured for {@code spec}. */
    private KafkaTxBenchmarkDriver driver(OperationSpec spec, String transactionsBlock) throws Exception {
        KafkaTxBenchmarkDriver driver =
                TestDrivers.driver(TestDrivers.yaml(dir, kafka.bootstrapServers(), transactionsBlock));
        driver.configureOperation(spec);
        return driver;
    }

    /** Runs one processor in {@code group} until it has processed {@code records} source records, then closes it. */
    private static RecordingCallback process(KafkaTxBenchmarkDriver driver, String source, String group, int records)
            throws Exception {
        RecordingCallback callback = new RecordingCallback();
        BenchmarkConsumer processor =
                driver.createConsumer(source, group, callback).get(WAIT_SECONDS, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (callback.operations.stream()
                                .filter(t -> t.outcome() != Outcome.FAILED)
                                .mapToInt(OperationTimings::messages)
                                .sum()
                        < records
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        processor.close();
        return callback;
    }

    @Test
    void transactionalStreamingProcessesEveryRecordExactlyOnce() throws Exception {
        try (KafkaTxBenchmarkDriver driver =
                driver(new OperationSpec(OperationKind.STREAM, true, 1, 1, true, true), null)) {
            String source = prefilledSource(driver, "txstream", 2, 500);
            RecordingCallback callback = process(driver, source, "processors", 500);

            assertEquals(500, callback.operations.size(), "one transaction per record");
            for (OperationTimings timings : callback.operations) {
                assertEquals(Outcome.COMMITTED, timings.outcome());
                for (Phase phase : List.of(Phase.BEGIN, Phase.SEND, Phase.RESOLVE, Phase.SEND_OFFSETS, Phase.COMMIT)) {
                    assertTrue(timings.nanos(phase) >= 0, phase + " missing in " + timings);
                }
            }
            assertEquals(500, callback.received(), "every source record reported as received");

            ExactlyOnceReport report =
                    driver.verifyExactlyOnce(source, "processors").get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertEquals(new ExactlyOnceReport(500, 0, 0, 0), report);
            assertTrue(report.passed());

            List<ConsumerRecord<String, byte[]>> output =
                    TestDrivers.readCommitted(kafka.bootstrapServers(), driver.streamTargetTopic(source), 500);
            ConsumerRecord<String, byte[]> first = output.get(0);
            assertTrue(
                    first.key().matches(first.partition() + ":\\d+"), "keyed by the source identity: " + first.key());
            assertTrue(new String(first.value(), StandardCharsets.UTF_8).startsWith("in-"));
        }
    }

    @Test
    void naiveStreamingSendsWaitsAndCommitsSync() throws Exception {
        try (KafkaTxBenchmarkDriver driver =
                driver(new OperationSpec(OperationKind.STREAM, false, 1, 1, false, true), null)) {
            String source = prefilledSource(driver, "naive", 1, 200);
            RecordingCallback callback = process(driver, source, "naive-group", 200);

            assertEquals(200, callback.operations.size());
            for (OperationTimings timings : callback.operations) {
                assertEquals(Outcome.ACKNOWLEDGED, timings.outcome());
                assertTrue(timings.nanos(Phase.SEND) >= 0 && timings.nanos(Phase.RESOLVE) >= 0);
                assertTrue(timings.nanos(Phase.COMMIT) >= 0, "commitSync is timed as COMMIT");
                assertEquals(-1, timings.nanos(Phase.BEGIN));
            }
            assertEquals(
                    new ExactlyOnceReport(200, 0, 0, 0),
                    driver.verifyExactlyOnce(source, "naive-group").get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
    }

    /**
     * A source prefilled as unconsumed (the runner's prefill: {@code CallbackProducer.send} with {@code consumed}
     * false) holds records without the publish-time header, and the processor's outputs, which copy an input's
     * headers, carry none either: the processor reads and writes the records a bare loop's fill and sends would.
     */
    @Test
    void anUnstampedSourceIsWrittenOnWithoutThePublishTimeHeader() throws Exception {
        try (KafkaTxBenchmarkDriver driver =
                driver(new OperationSpec(OperationKind.STREAM, false, 1, 1, false, true), null)) {
            String source = TestDrivers.topic("unstamped");
            driver.createTopic(source, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
            driver.createTopic(driver.streamTargetTopic(source), 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
            BenchmarkProducer feeder = driver.createProducer(source).get(WAIT_SECONDS, TimeUnit.SECONDS);
            CompletableFuture<Void> acked = new CompletableFuture<>();
            AtomicInteger left = new AtomicInteger(50);
            for (int i = 0; i < 50; i++) {
                ((CallbackProducer) feeder)
                        .send(null, ("in-" + i).getBytes(StandardCharsets.UTF_8), false, 0, 0, (error, b, x, y) -> {
                            if (error != null) {
                                acked.completeExceptionally(error);
                            } else if (left.decrementAndGet() == 0) {
                                acked.complete(null);
                            }
                        });
            }
            acked.get(WAIT_SECONDS, TimeUnit.SECONDS);
            feeder.close();
            process(driver, source, "unstamped-group", 50);

            List<ConsumerRecord<String, byte[]>> inputs =
                    TestDrivers.readCommitted(kafka.bootstrapServers(), source, 50);
            List<ConsumerRecord<String, byte[]>> outputs =
                    TestDrivers.readCommitted(kafka.bootstrapServers(), driver.streamTargetTopic(source), 50);
            assertEquals(50, inputs.size());
            assertEquals(50, outputs.size());
            for (ConsumerRecord<String, byte[]> record : inputs) {
                assertEquals(0, record.headers().toArray().length, "a prefilled input's headers: " + record);
                assertEquals(null, record.key());
            }
            for (ConsumerRecord<String, byte[]> record : outputs) {
                assertEquals(0, record.headers().toArray().length, "an output's headers: " + record);
                assertTrue(record.key().matches("0:\\d+"), "keyed by the source identity: " + record.key());
            }
            assertEquals(
                    new ExactlyOnceReport(50, 0, 0, 0),
                    driver.verifyExactlyOnce(source, "unstamped-group").get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void batchesOfSeveralRecordsShareOneTransactionWhereverTheAcksAreAwaited(boolean resolveBeforeCommit)
            throws Exception {
        OperationSpec spec = new OperationSpec(OperationKind.STREAM, true, 10, 1, true, true);
        try (KafkaTxBenchmarkDriver driver =
                driver(spec, "transactions:\n  resolveBeforeCommit: " + resolveBeforeCommit)) {
            String source = prefilledSource(driver, "batched", 1, 100);
            RecordingCallback callback = process(driver, source, "batched", 100);

            assertEquals(
                    100,
                    callback.operations.stream()
                            .mapToInt(OperationTimings::messages)
                            .sum());
            assertTrue(callback.operations.size() < 100, "several records per transaction");
            for (OperationTimings timings : callback.operations) {
                assertEquals(Outcome.COMMITTED, timings.outcome());
                for (Phase phase : List.of(Phase.BEGIN, Phase.SEND, Phase.RESOLVE, Phase.SEND_OFFSETS, Phase.COMMIT)) {
                    assertTrue(timings.nanos(phase) >= 0, phase + " missing in " + timings);
                }
                if (timings.fatalErrors() == 0) { // replacing a producer is the one time in no phase
                    assertEquals(timings.totalNanos(), TestDrivers.sumOfPhases(timings), "phases add up: " + timings);
                }
            }
            assertEquals(100, callback.received());
            assertEquals(
                    new ExactlyOnceReport(100, 0, 0, 0),
                    driver.verifyExactlyOnce(source, "batched").get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
    }

    @Test
    void theCheckerCountsDuplicatesMissingAndUnexpectedOutputs() throws Exception {
        try (KafkaTxBenchmarkDriver driver =
                driver(new OperationSpec(OperationKind.STREAM, true, 1, 1, true, true), null)) {
            String source = prefilledSource(driver, "checker", 1, 10);
            String target = driver.streamTargetTopic(source);
            // Pretend a processor committed offsets up to 10 but wrote 0:0 twice, skipped 0:1, and wrote 0:42.
            try (var admin = org.apache.kafka.clients.admin.Admin.create(
                    java.util.Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                admin.alterConsumerGroupOffsets(
                                "fake-group",
                                java.util.Map.of(
                                        new org.apache.kafka.common.TopicPartition(source, 0),
                                        new org.apache.kafka.clients.consumer.OffsetAndMetadata(10)))
                        .all()
                        .get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            try (KafkaProducer<String, byte[]> producer =
                    new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
                for (String key :
                        List.of("0:0", "0:0", "0:2", "0:3", "0:4", "0:5", "0:6", "0:7", "0:8", "0:9", "0:42", "junk")) {
                    producer.send(new ProducerRecord<>(target, 0, key, new byte[1]))
                            .get();
                }
            }
            assertEquals(
                    new ExactlyOnceReport(10, 1, 1, 2),
                    driver.verifyExactlyOnce(source, "fake-group").get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
    }

    /**
     * A processor still running while the checker reads (a run whose input kept coming): a transaction that commits
     * between the checker's two reads of the offsets is left out, not counted as unexpected; an output beyond the
     * second read still is.
     */
    @Test
    void theCheckerLeavesOutTransactionsCommittedWhileItReads() throws Exception {
        try (KafkaTxBenchmarkDriver driver =
                driver(new OperationSpec(OperationKind.STREAM, true, 1, 1, true, true), null)) {
            String source = prefilledSource(driver, "live", 1, 20);
            String target = driver.streamTargetTopic(source);
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            try (KafkaProducer<String, byte[]> producer =
                    new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
                for (int offset = 0; offset < 15; offset++) {
                    producer.send(new ProducerRecord<>(target, 0, "0:" + offset, new byte[1]))
                            .get();
                }
                producer.send(new ProducerRecord<>(target, 0, "0:17", new byte[1]))
                        .get();
            }
            Properties readers = new Properties();
            readers.put("bootstrap.servers", kafka.bootstrapServers());
            try (var admin = org.apache.kafka.clients.admin.Admin.create(readers)) {
                // The offsets move from 10 to 15 between the checker's reads, as a live processor's would.
                java.util.Iterator<Long> offsets = List.of(10L, 15L).iterator();
                ExactlyOnceVerifier verifier =
                        new ExactlyOnceVerifier(admin, readers, java.time.Duration.ofSeconds(60)) {
                            @Override
                            java.util.Map<Integer, Long> committedOffsets(String topic, String group) {
                                return java.util.Map.of(0, offsets.next());
                            }
                        };
                assertEquals(
                        new ExactlyOnceReport(10, 0, 0, 1),
                        verifier.verify(source, target, "any-group"),
                        "0..9 checked, 10..14 committed meanwhile, 17 beyond both reads");
            }
        }
    }
}

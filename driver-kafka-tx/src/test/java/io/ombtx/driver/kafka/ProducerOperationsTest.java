package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.junit.EmbeddedKafkaExtension;
import io.ombtx.driver.api.CallbackProducer;
import io.ombtx.driver.api.FinishedOperation;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.OperationTimings.Outcome;
import io.ombtx.driver.api.Phase;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The driver's producer side through the SPI, against one real embedded Kafka broker. */
@Tag("integration")
class ProducerOperationsTest {

    private static final long WAIT_SECONDS = 60;

    @RegisterExtension
    static final EmbeddedKafkaExtension kafka = new EmbeddedKafkaExtension();

    @TempDir
    Path dir;

    private KafkaTxBenchmarkDriver driver(String transactionsBlock) throws Exception {
        return TestDrivers.driver(TestDrivers.yaml(dir, kafka.bootstrapServers(), transactionsBlock));
    }

    /** Configures the driver for {@code spec}, creates a topic and a producer for it. */
    private static Target target(KafkaTxBenchmarkDriver driver, OperationSpec spec, String name, int partitions)
            throws Exception {
        driver.configureOperation(spec);
        String topic = TestDrivers.topic(name);
        driver.createTopic(topic, partitions).get(WAIT_SECONDS, TimeUnit.SECONDS);
        return new Target(topic, (KafkaTxProducer) driver.createProducer(topic).get(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    private record Target(String topic, KafkaTxProducer producer) {}

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The call-back fast path: one call-back serves every message, and each message's acknowledgement hands back its
     * size and the two times given to {@code send} (what kafka-clients' own call-back, the one object per message,
     * carries). Each message is told once.
     */
    @Test
    void theCallBackFastPathHandsBackEachMessagesSizeAndTimesOnce() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver(null)) {
            String topic = TestDrivers.topic("callback");
            driver.createTopic(topic, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
            KafkaTxProducer producer =
                    (KafkaTxProducer) driver.createProducer(topic).get(WAIT_SECONDS, TimeUnit.SECONDS);
            Map<Long, Long> sendByIntended = new ConcurrentHashMap<>();
            Map<Long, Integer> bytesByIntended = new ConcurrentHashMap<>();
            AtomicInteger calls = new AtomicInteger();
            AtomicInteger errors = new AtomicInteger();
            CallbackProducer.SendCallback callback = (error, payloadBytes, intendedNanos, sendNanos) -> {
                calls.incrementAndGet();
                errors.addAndGet(error == null ? 0 : 1);
                sendByIntended.put(intendedNanos, sendNanos);
                bytesByIntended.put(intendedNanos, payloadBytes);
            };
            int messages = 50;
            for (int i = 0; i < messages; i++) {
                producer.send(i % 3 == 0 ? null : "k" + i, new byte[10 + i], i % 2 == 0, i, 1_000L + i, callback);
            }
            producer.close(); // flushes: every call-back has run once it returns
            assertEquals(messages, calls.get(), "told once per message");
            assertEquals(0, errors.get());
            for (long i = 0; i < messages; i++) {
                assertEquals(1_000L + i, sendByIntended.get(i), "message " + i + "'s send time handed back");
                assertEquals(10 + (int) i, bytesByIntended.get(i), "message " + i + "'s size handed back");
            }
        }
    }

    @Test
    void plainPublishRoundTripsThroughTheSpiWithMicrosecondPublishTimes() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver(null)) {
            String topic = TestDrivers.topic("plain");
            driver.createTopic(topic, 2).get(WAIT_SECONDS, TimeUnit.SECONDS);
            RecordingCallback precise = new RecordingCallback();
            OmbOnlyCallback omb = new OmbOnlyCallback();
            BenchmarkConsumer preciseConsumer =
                    driver.createConsumer(topic, "precise", precise).get(WAIT_SECONDS, TimeUnit.SECONDS);
            BenchmarkConsumer ombConsumer =
                    driver.createConsumer(topic, "omb", omb).get(WAIT_SECONDS, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer(topic).get(WAIT_SECONDS, TimeUnit.SECONDS);

            long beforeMicros = PublishTime.nowEpochMicros();
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                sends.add(producer.sendAsync(Optional.of("k" + i), bytes("message-" + i)));
            }
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
            long afterMicros = PublishTime.nowEpochMicros();

            precise.awaitReceived(20, Duration.ofSeconds(WAIT_SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (omb.payloads.size() < 20 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            producer.close();
            preciseConsumer.close();
            ombConsumer.close();

            assertEquals(20, precise.preciseLengths.size(), "a precise callback gets microsecond publish times");
            assertTrue(precise.payloads.isEmpty());
            assertTrue(precise.preciseLengths.stream()
                    .allMatch(len -> len == "message-1".length() || len == "message-10".length()));
            assertTrue(
                    precise.publishMicros.stream().allMatch(us -> us >= beforeMicros && us <= afterMicros),
                    "publish time taken at send: " + precise.publishMicros + " not in [" + beforeMicros + ", "
                            + afterMicros + "]");

            assertEquals(20, omb.payloads.size(), "OMB's callback gets the payload and the record timestamp");
            List<String> texts = omb.payloads.stream()
                    .map(b -> new String(b, StandardCharsets.UTF_8))
                    .sorted()
                    .toList();
            for (int i = 0; i < 20; i++) {
                assertTrue(texts.contains("message-" + i));
            }
            assertTrue(
                    omb.publishMillis.stream().allMatch(ms -> ms >= beforeMicros / 1000 && ms <= afterMicros / 1000));
        }
    }

    @Test
    void transactionalWriteOfTwoMessagesOverTwoPartitionsTimesEveryPhaseAndIsVisibleOnce() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver(null)) {
            Target target =
                    target(driver, new OperationSpec(OperationKind.WRITE, true, 2, 2, false, true), "txwrite", 2);
            String topic = target.topic();
            KafkaTxProducer producer = target.producer();
            assertTrue(producer.transactionalId().startsWith("omb-tx-"), producer.transactionalId());

            int operations = 200;
            long phaseSum = 0;
            long totalSum = 0;
            for (int i = 0; i < operations; i++) {
                OperationTimings timings = producer.runOperation(Optional.empty(), bytes("op-" + i))
                        .get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertEquals(Outcome.COMMITTED, timings.outcome());
                assertEquals(2, timings.messages());
                for (Phase phase : List.of(Phase.BEGIN, Phase.SEND, Phase.RESOLVE, Phase.COMMIT, Phase.TRANSACTION)) {
                    assertTrue(timings.nanos(phase) >= 0, phase + " missing in " + timings);
                }
                assertEquals(-1, timings.nanos(Phase.SEND_OFFSETS));
                totalSum += timings.totalNanos();
                phaseSum += timings.phaseNanos().entrySet().stream()
                        .filter(e -> e.getKey() != Phase.TRANSACTION)
                        .mapToLong(Map.Entry::getValue)
                        .sum();
            }
            producer.close();
            double ratio = (double) phaseSum / totalSum;
            assertTrue(ratio >= 0.9 && ratio <= 1.02, "phases add up to the transaction: ratio " + ratio);

            List<ConsumerRecord<String, byte[]>> visible =
                    TestDrivers.readCommitted(kafka.bootstrapServers(), topic, 2 * operations);
            assertEquals(2 * operations, visible.size(), "every committed message visible exactly once");
            Map<String, List<Integer>> partitionsByPayload = new HashMap<>();
            for (ConsumerRecord<String, byte[]> record : visible) {
                partitionsByPayload
                        .computeIfAbsent(new String(record.value(), StandardCharsets.UTF_8), k -> new ArrayList<>())
                        .add(record.partition());
                assertNotNull(record.headers().lastHeader(PublishTime.HEADER));
            }
            assertEquals(operations, partitionsByPayload.size());
            partitionsByPayload.forEach((payload, partitions) -> assertEquals(
                    List.of(0, 1), partitions.stream().sorted().toList(), payload + " once per partition"));
        }
    }

    @Test
    void inlineWritesNobodyConsumesCarryNoPublishTimeHeaderAndConsumedOnesDo() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver(null)) {
            for (boolean transactional : List.of(true, false)) {
                Target target = target(
                        driver,
                        new OperationSpec(OperationKind.WRITE, transactional, 2, 2, false, true),
                        "inline" + transactional,
                        2);
                KafkaTxProducer producer = target.producer();
                for (int i = 0; i < 10; i++) {
                    boolean consumed = i % 2 == 1;
                    FinishedOperation done = producer.runOperationInline(
                            Optional.empty(), bytes((consumed ? "consumed-" : "unconsumed-") + i), consumed);
                    assertEquals(
                            transactional ? Outcome.COMMITTED : Outcome.ACKNOWLEDGED,
                            done.timings().outcome());
                }
                producer.close();
                List<ConsumerRecord<String, byte[]>> visible =
                        TestDrivers.readCommitted(kafka.bootstrapServers(), target.topic(), 20);
                assertEquals(20, visible.size());
                for (ConsumerRecord<String, byte[]> record : visible) {
                    String value = new String(record.value(), StandardCharsets.UTF_8);
                    assertEquals(
                            value.startsWith("consumed-"),
                            record.headers().lastHeader(PublishTime.HEADER) != null,
                            value + " (transactional " + transactional + ")");
                }
            }
        }
    }

    /**
     * The closed loop's run-ahead path: each call commits the transaction the last one began and begins its own up to
     * its quiet point (records handed over, offsets sent). The caller's time between two calls is in neither
     * transaction's timings; the last is finished by {@code finishAhead}, and one begun but never finished is aborted
     * by the close.
     */
    @Test
    void runningAheadCommitsEachTransactionOnceAndLeavesTheCallersTimeOutOfItsTimings() throws Exception {
        // The acks awaited before the offsets (the default: the first half ends with the sends), and after the commit
        // (the offsets sent in the first half).
        runAhead(null, List.of(Phase.BEGIN, Phase.SEND, Phase.RESOLVE, Phase.SEND_OFFSETS, Phase.COMMIT));
        runAhead(
                "transactions:\n  resolveBeforeCommit: false\n",
                List.of(Phase.BEGIN, Phase.SEND, Phase.SEND_OFFSETS, Phase.COMMIT, Phase.RESOLVE));
    }

    private void runAhead(String transactionsBlock, List<Phase> sequence) throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver(transactionsBlock)) {
            Target target = target(driver, new OperationSpec(OperationKind.WRITE, true, 2, 2, true, true), "ahead", 2);
            KafkaTxProducer producer = target.producer();
            assertTrue(producer.runsAhead());
            long callersMillis = 200;
            List<FinishedOperation> done = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                FinishedOperation previous = producer.runAhead(Optional.empty(), bytes("ahead-" + i), false);
                long returned = System.nanoTime();
                assertEquals(i == 0, previous == null, "operation " + i + " returns the one before it");
                if (previous != null) {
                    done.add(previous);
                    assertEquals(Outcome.COMMITTED, previous.outcome());
                    // The caller's sleep after it began is no part of it: its whole is at most what is left.
                    long wall = returned - previous.startNanos();
                    assertTrue(
                            previous.timings().totalNanos() <= wall - TimeUnit.MILLISECONDS.toNanos(callersMillis),
                            "operation " + (i - 1) + ": " + previous.timings() + " within " + wall + " ns");
                }
                Thread.sleep(callersMillis); // the caller's own work at the quiet point
            }
            FinishedOperation last = producer.finishAhead();
            assertEquals(Outcome.COMMITTED, last.outcome());
            done.add(last);
            assertNull(producer.finishAhead(), "nothing is held any more");
            for (FinishedOperation operation : done) {
                OperationTimings timings = operation.timings();
                assertEquals(sequence, timings.sequence());
                assertEquals(timings.totalNanos(), TestDrivers.sumOfPhases(timings), "phases add up: " + timings);
            }
            // One more begun and never finished: the close aborts it.
            assertNull(producer.runAhead(Optional.empty(), bytes("ahead-open"), false));
            // Its records in the log first (an abort drops what the client has not sent yet), then the close.
            assertEquals(
                    22,
                    TestDrivers.awaitWritten(kafka.bootstrapServers(), target.topic(), 22)
                            .size());
            producer.close();
            List<String> visible = TestDrivers.readCommitted(kafka.bootstrapServers(), target.topic(), 20).stream()
                    .map(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .sorted()
                    .toList();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                expected.add("ahead-" + i);
                expected.add("ahead-" + i);
            }
            assertEquals(expected.stream().sorted().toList(), visible, "each committed once, the open one aborted");
        }
    }

    @Test
    void withTheAcksAwaitedAfterTheCommitAWriteResolvesLastAndItsPhasesAddUp() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver("transactions:\n  resolveBeforeCommit: false\n")) {
            OperationSpec spec = new OperationSpec(OperationKind.WRITE, true, 2, 2, true, true);
            Target target = target(driver, spec, "aftercommit", 2);
            for (int i = 0; i < 20; i++) {
                OperationTimings timings = target.producer()
                        .runOperation(Optional.empty(), bytes("a" + i))
                        .get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertEquals(Outcome.COMMITTED, timings.outcome());
                for (Phase phase : List.of(Phase.BEGIN, Phase.SEND, Phase.SEND_OFFSETS, Phase.COMMIT, Phase.RESOLVE)) {
                    assertTrue(timings.nanos(phase) >= 0, phase + " missing in " + timings);
                }
                if (timings.fatalErrors() == 0) { // replacing a producer is the one time in no phase
                    assertEquals(timings.totalNanos(), TestDrivers.sumOfPhases(timings), "phases add up: " + timings);
                }
            }
            target.producer().close();
            assertEquals(
                    40,
                    TestDrivers.readCommitted(kafka.bootstrapServers(), target.topic(), 40)
                            .size());
        }
    }

    @Test
    void plainWriteSendsAndResolvesWithoutTransactionPhases() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver(null)) {
            Target target =
                    target(driver, new OperationSpec(OperationKind.WRITE, false, 2, 2, false, false), "write", 2);
            String topic = target.topic();
            KafkaTxProducer producer = target.producer();
            assertEquals(null, producer.transactionalId());
            for (int i = 0; i < 20; i++) {
                OperationTimings timings =
                        producer.runOperation(Optional.empty(), bytes("w" + i)).get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertEquals(Outcome.ACKNOWLEDGED, timings.outcome());
                assertEquals(
                        Map.of(Phase.SEND, true, Phase.RESOLVE, true, Phase.TRANSACTION, true),
                        Map.of(
                                Phase.SEND,
                                timings.nanos(Phase.SEND) >= 0,
                                Phase.RESOLVE,
                                timings.nanos(Phase.RESOLVE) >= 0,
                                Phase.TRANSACTION,
                                timings.totalNanos() >= 0));
                assertEquals(3, timings.phaseNanos().size(), "no begin or commit: " + timings);
            }
            producer.close();
            assertEquals(
                    40,
                    TestDrivers.readCommitted(kafka.bootstrapServers(), topic, 40)
                            .size());
        }
    }

    /**
     * A closed loop's plain write hands back its timings unbuilt: they, and the driver's report of them, are made
     * when first read (by the loop's recorder, off the loop's thread), once, not between one write's ack and the
     * next send.
     */
    @Test
    void inlinePlainWritesAreReportedWhenTheirTimingsAreReadAndOnlyOnce() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        try (KafkaTxBenchmarkDriver driver =
                TestDrivers.driver(TestDrivers.yaml(dir, kafka.bootstrapServers(), null), stats)) {
            Target target =
                    target(driver, new OperationSpec(OperationKind.WRITE, false, 2, 2, false, false), "inlineplain", 2);
            KafkaTxProducer producer = target.producer();
            List<FinishedOperation> done = new ArrayList<>();
            AtomicInteger quietPoints = new AtomicInteger();
            for (int i = 0; i < 5; i++) {
                done.add(producer.runOperationInline(
                        Optional.empty(), bytes("p" + i), false, quietPoints::incrementAndGet));
                assertEquals(Outcome.ACKNOWLEDGED, done.get(i).outcome());
            }
            assertEquals(5, quietPoints.get(), "one quiet point per write");
            assertEquals(0, stats.events("tx/send"), "nothing reported before the timings are read");
            for (FinishedOperation operation : done) {
                OperationTimings timings = operation.timings();
                assertEquals(Outcome.ACKNOWLEDGED, timings.outcome());
                assertEquals(2, timings.messages());
                assertEquals(timings.totalNanos(), TestDrivers.sumOfPhases(timings), "phases add up: " + timings);
                assertSame(timings, operation.timings(), "built once");
            }
            assertEquals(5, stats.events("tx/send"));
            assertEquals(5, stats.events("tx/resolve"));
            producer.close();
            assertEquals(
                    10,
                    TestDrivers.readCommitted(kafka.bootstrapServers(), target.topic(), 10)
                            .size());
        }
    }

    @Test
    void sendOffsetsTransactionsCommitTheRunsGroupOffsets() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver(null)) {
            Target target =
                    target(driver, new OperationSpec(OperationKind.SEND_OFFSETS, true, 0, 1, true, true), "offsets", 1);
            String topic = target.topic();
            KafkaTxProducer producer = target.producer();
            for (int i = 0; i < 5; i++) {
                OperationTimings timings =
                        producer.runOperation(Optional.empty(), new byte[0]).get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertEquals(Outcome.COMMITTED, timings.outcome());
                assertTrue(timings.nanos(Phase.SEND_OFFSETS) >= 0);
                assertEquals(-1, timings.nanos(Phase.SEND), "nothing is sent");
                assertEquals(0, timings.messages());
            }
            producer.close();
            try (Admin admin = admin()) {
                Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(
                                driver.sendOffsetsGroupId())
                        .partitionsToOffsetAndMetadata()
                        .get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertEquals(
                        5,
                        offsets.get(new TopicPartition(topic, 0)).offset(),
                        "one increment per committed transaction");
            }
        }
    }

    @Test
    void stockOmbSendAsyncJoinsTransactionsAndCompletesAtCommit() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        // A 10-minute commit interval: only the message bound can commit this transaction.
        Path yaml = TestDrivers.yaml(
                dir,
                kafka.bootstrapServers(),
                "transactions:\n  enabled: true\n  messagesPerTransaction: 5\n  commitIntervalMs: 600000\n");
        try (KafkaTxBenchmarkDriver driver = TestDrivers.driver(yaml, stats)) {
            String topic = TestDrivers.topic("stock");
            driver.createTopic(topic, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer(topic).get(WAIT_SECONDS, TimeUnit.SECONDS);

            List<CompletableFuture<Void>> firstFour = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                firstFour.add(producer.sendAsync(Optional.empty(), bytes("s" + i)));
            }
            assertEquals(
                    4,
                    TestDrivers.awaitWritten(kafka.bootstrapServers(), topic, 4).size());
            assertTrue(
                    firstFour.stream().noneMatch(CompletableFuture::isDone),
                    "written to the broker, the sends complete only when their transaction commits");
            CompletableFuture<Void> fifth = producer.sendAsync(Optional.empty(), bytes("s4"));
            fifth.get(WAIT_SECONDS, TimeUnit.SECONDS);
            for (CompletableFuture<Void> f : firstFour) {
                assertTrue(f.isDone() && !f.isCompletedExceptionally());
            }
            producer.close();

            assertEquals(
                    5,
                    TestDrivers.readCommitted(kafka.bootstrapServers(), topic, 5)
                            .size());
            assertEquals(1, stats.counter("tx/committed"), "reported through OMB's StatsLogger");
            assertEquals(1, stats.events("tx/commit"));
            assertEquals(1, stats.events("tx/transaction"));
            assertEquals(1, stats.events("tx/send"), "one send phase per transaction, summing its sends");
            assertEquals(0, stats.counter("tx/aborted"));
        }
    }

    @Test
    void stockOmbSendAsyncCommitsAPartlyFilledTransactionAfterCommitIntervalMs() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        Path yaml = TestDrivers.yaml(
                dir,
                kafka.bootstrapServers(),
                "transactions:\n  enabled: true\n  messagesPerTransaction: 5\n  commitIntervalMs: 1000\n");
        try (KafkaTxBenchmarkDriver driver = TestDrivers.driver(yaml, stats)) {
            String topic = TestDrivers.topic("partly");
            driver.createTopic(topic, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer(topic).get(WAIT_SECONDS, TimeUnit.SECONDS);

            List<CompletableFuture<Void>> two = List.of(
                    producer.sendAsync(Optional.empty(), bytes("s5")),
                    producer.sendAsync(Optional.empty(), bytes("s6")));
            CompletableFuture.allOf(two.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertEquals(1, stats.counter("tx/committed"), "committed by the interval, before close");
            producer.close();

            assertEquals(
                    2,
                    TestDrivers.readCommitted(kafka.bootstrapServers(), topic, 2)
                            .size());
            assertEquals(1, stats.counter("tx/committed"));
            assertEquals(List.of(2L), stats.values("tx/messagesPerTransaction"));
        }
    }

    @Test
    void closeCommitsTheOpenTransactionInsteadOfLeavingItHanging() throws Exception {
        Path yaml = TestDrivers.yaml(
                dir,
                kafka.bootstrapServers(),
                "transactions:\n  enabled: true\n  messagesPerTransaction: 100\n  commitIntervalMs: 600000\n");
        try (KafkaTxBenchmarkDriver driver = TestDrivers.driver(yaml)) {
            String topic = TestDrivers.topic("close");
            driver.createTopic(topic, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer(topic).get(WAIT_SECONDS, TimeUnit.SECONDS);
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                sends.add(producer.sendAsync(Optional.empty(), bytes("c" + i)));
            }
            producer.close();
            for (CompletableFuture<Void> send : sends) {
                send.get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
            assertEquals(
                    3,
                    TestDrivers.readCommitted(kafka.bootstrapServers(), topic, 3)
                            .size());
            assertTrue(producer.sendAsync(Optional.empty(), bytes("late")).isCompletedExceptionally());
        }
    }

    @Test
    void aFencedProducerIsReplacedCountedAsFatalAndLosesNothing() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        try (KafkaTxBenchmarkDriver driver =
                TestDrivers.driver(TestDrivers.yaml(dir, kafka.bootstrapServers(), null), stats)) {
            Target target =
                    target(driver, new OperationSpec(OperationKind.WRITE, true, 2, 2, false, true), "fenced", 2);
            String topic = target.topic();
            KafkaTxProducer producer = target.producer();
            List<OperationTimings> results = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                results.add(producer.runOperation(Optional.empty(), bytes("before-" + i))
                        .get(WAIT_SECONDS, TimeUnit.SECONDS));
            }

            // A second producer with the same transactional id fences the driver's one.
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, producer.transactionalId());
            try (KafkaProducer<String, byte[]> intruder =
                    new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
                intruder.initTransactions();
            }

            for (int i = 0; i < 5; i++) {
                results.add(producer.runOperation(Optional.empty(), bytes("after-" + i))
                        .get(WAIT_SECONDS, TimeUnit.SECONDS));
            }
            producer.close();

            assertTrue(results.stream().allMatch(t -> t.outcome() == Outcome.COMMITTED), results.toString());
            int fatal = results.stream().mapToInt(OperationTimings::fatalErrors).sum();
            assertTrue(fatal >= 1, "the fencing was seen and counted: " + results);
            assertEquals(fatal, stats.counter("tx/fatal"));
            assertEquals(
                    0,
                    results.subList(0, 5).stream()
                            .mapToInt(OperationTimings::fatalErrors)
                            .sum());

            List<ConsumerRecord<String, byte[]>> visible =
                    TestDrivers.readCommitted(kafka.bootstrapServers(), topic, 20);
            assertEquals(20, visible.size(), "ten operations of two messages, each exactly once");
            Map<String, Integer> copies = new HashMap<>();
            visible.forEach(r -> copies.merge(new String(r.value(), StandardCharsets.UTF_8), 1, Integer::sum));
            assertEquals(10, copies.size());
            assertTrue(copies.values().stream().allMatch(c -> c == 2));
        }
    }

    @Test
    void environmentReportsClientClusterAndSettingsReadBack() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver(null)) {
            Map<String, Object> environment = driver.environment();
            assertEquals("4.1.1", environment.get("kafkaClientsVersion"));
            assertEquals(1, environment.get("brokerCount"));
            assertNotNull(environment.get("clusterId"));
            @SuppressWarnings("unchecked")
            Map<String, String> broker = (Map<String, String>) environment.get("brokerSettings");
            assertEquals(
                    kafka.cluster().settings().get("group.coordinator.append.linger.ms"),
                    broker.get("group.coordinator.append.linger.ms"));
            assertEquals("1", broker.get("transaction.state.log.replication.factor"));
            @SuppressWarnings("unchecked")
            Map<String, String> producer = (Map<String, String>) environment.get("producerSettings");
            assertEquals("all", producer.get("acks"));
            assertEquals("0", producer.get("retry.backoff.ms"));
            assertEquals("true", producer.get("enable.idempotence"));
            assertFalse(environment.toString().contains("password"));
        }
    }

    @Test
    void replicationFactorAboveTheBrokerCountFailsClearly() throws Exception {
        Path yaml = TestDrivers.yaml(dir, kafka.bootstrapServers(), null);
        java.nio.file.Files.writeString(
                yaml, java.nio.file.Files.readString(yaml).replace("replicationFactor: 1", "replicationFactor: 3"));
        try (KafkaTxBenchmarkDriver driver = TestDrivers.driver(yaml)) {
            var failure = org.junit.jupiter.api.Assertions.assertThrows(
                    java.util.concurrent.ExecutionException.class,
                    () -> driver.createTopic(TestDrivers.topic("rf"), 1).get(WAIT_SECONDS, TimeUnit.SECONDS));
            assertTrue(
                    failure.getCause().getMessage().contains("replicationFactor 3 needs at least that many brokers"),
                    failure.getCause().getMessage());
        }
    }

    private static Admin admin() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return Admin.create(props);
    }
}

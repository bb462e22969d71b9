package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ombtx.broker.junit.EmbeddedKafkaExtension;
import io.ombtx.driver.api.AwaitAcks;
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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The workload's order of the ack wait (operation.awaitAcks) reaches the driver through {@link OperationSpec} and
 * decides the phase sequence each operation runs, on a real embedded broker; each operation's timings name the
 * sequence it ran (the runner counts them into the result).
 */
@Tag("integration")
class OperationOrderTest {

    private static final long WAIT_SECONDS = 120;
    private static final int OPERATIONS = 10;

    @RegisterExtension
    static final EmbeddedKafkaExtension kafka = new EmbeddedKafkaExtension();

    @TempDir
    Path dir;

    private KafkaTxBenchmarkDriver driver(OperationSpec spec, String transactionsBlock) throws Exception {
        KafkaTxBenchmarkDriver driver =
                TestDrivers.driver(TestDrivers.yaml(dir, kafka.bootstrapServers(), transactionsBlock));
        driver.configureOperation(spec);
        return driver;
    }

    /** Runs {@link #OPERATIONS} operations of a WRITE (or SEND_OFFSETS) spec and returns their timings. */
    private static List<OperationTimings> write(KafkaTxBenchmarkDriver driver, String name) throws Exception {
        String topic = TestDrivers.topic(name);
        driver.createTopic(topic, 2).get(WAIT_SECONDS, TimeUnit.SECONDS);
        KafkaTxProducer producer =
                (KafkaTxProducer) driver.createProducer(topic).get(WAIT_SECONDS, TimeUnit.SECONDS);
        List<OperationTimings> timings = new ArrayList<>();
        for (int i = 0; i < OPERATIONS; i++) {
            timings.add(producer.runOperation(Optional.empty(), ("v" + i).getBytes(StandardCharsets.UTF_8))
                    .get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
        producer.close();
        return timings;
    }

    /** Asserts every operation committed (or was acknowledged) and ran exactly {@code expected}, in that order. */
    private static void assertSequence(List<Phase> expected, List<OperationTimings> timings, Outcome outcome) {
        for (OperationTimings t : timings) {
            assertEquals(outcome, t.outcome(), t.toString());
            if (t.abortedAttempts() == 0 && t.fatalErrors() == 0) { // a retried attempt repeats phases
                assertEquals(expected, t.sequence(), "phase sequence of " + t);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Object reportedOrder(KafkaTxBenchmarkDriver driver) {
        return ((Map<String, Object>) driver.environment().get("transactions")).get("awaitAcks");
    }

    @ParameterizedTest
    @EnumSource(AwaitAcks.class)
    void aTransactionalWriteWithSendOffsetsRunsThePhasesInTheWorkloadsOrder(AwaitAcks order) throws Exception {
        OperationSpec spec = new OperationSpec(OperationKind.WRITE, true, 2, 2, true, true, order);
        List<Phase> expected = order.phases(true, true, true);
        try (KafkaTxBenchmarkDriver driver = driver(spec, null)) {
            assertSequence(expected, write(driver, "order-" + order.key()), Outcome.COMMITTED);
            assertEquals(order.key(), reportedOrder(driver));
        }
    }

    @Test
    void theThreeOrdersAreThreeDifferentSequences() {
        assertEquals(
                List.of(Phase.BEGIN, Phase.SEND, Phase.RESOLVE, Phase.SEND_OFFSETS, Phase.COMMIT),
                AwaitAcks.BEFORE_SEND_OFFSETS.phases(true, true, true));
        assertEquals(
                List.of(Phase.BEGIN, Phase.SEND, Phase.SEND_OFFSETS, Phase.RESOLVE, Phase.COMMIT),
                AwaitAcks.BEFORE_COMMIT.phases(true, true, true));
        assertEquals(
                List.of(Phase.BEGIN, Phase.SEND, Phase.SEND_OFFSETS, Phase.COMMIT, Phase.RESOLVE),
                AwaitAcks.AFTER_COMMIT.phases(true, true, true));
    }

    @ParameterizedTest
    @EnumSource(AwaitAcks.class)
    void aTransactionalStreamBatchRunsThePhasesInTheWorkloadsOrder(AwaitAcks order) throws Exception {
        OperationSpec spec = new OperationSpec(OperationKind.STREAM, true, 1, 1, false, true, order);
        List<Phase> expected = AwaitAcks.phasesOf(spec);
        assertEquals(order.phases(true, true, true), expected, "a transactional STREAM sends its offsets");
        try (KafkaTxBenchmarkDriver driver = driver(spec, null)) {
            List<OperationTimings> timings = stream(driver, "stream-" + order.key());
            assertSequence(expected, timings, Outcome.COMMITTED);
            assertEquals(order.key(), reportedOrder(driver));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = AwaitAcks.class,
            names = {"BEFORE_COMMIT", "AFTER_COMMIT"})
    void aNaiveStreamWaitsForItsAcksBeforeOrAfterCommitSync(AwaitAcks order) throws Exception {
        OperationSpec spec = new OperationSpec(OperationKind.STREAM, false, 1, 1, false, false, order);
        List<Phase> expected = AwaitAcks.phasesOf(spec);
        assertEquals(
                order == AwaitAcks.AFTER_COMMIT
                        ? List.of(Phase.SEND, Phase.COMMIT, Phase.RESOLVE)
                        : List.of(Phase.SEND, Phase.RESOLVE, Phase.COMMIT),
                expected);
        try (KafkaTxBenchmarkDriver driver = driver(spec, null)) {
            assertSequence(expected, stream(driver, "naive-" + order.key()), Outcome.ACKNOWLEDGED);
        }
    }

    @Test
    void withoutAnOrderFromTheRunnerStockOmbsResolveBeforeCommitDecides() throws Exception {
        OperationSpec spec = new OperationSpec(OperationKind.WRITE, true, 2, 2, true, true);
        try (KafkaTxBenchmarkDriver driver = driver(spec, "transactions:\n  resolveBeforeCommit: true\n")) {
            assertSequence(
                    AwaitAcks.BEFORE_SEND_OFFSETS.phases(true, true, true),
                    write(driver, "stock-true"),
                    Outcome.COMMITTED);
            assertEquals("before-send-offsets", reportedOrder(driver));
        }
        try (KafkaTxBenchmarkDriver driver = driver(spec, "transactions:\n  resolveBeforeCommit: false\n")) {
            assertSequence(
                    AwaitAcks.AFTER_COMMIT.phases(true, true, true), write(driver, "stock-false"), Outcome.COMMITTED);
            assertEquals("after-commit", reportedOrder(driver));
        }
    }

    /** Prefills a source of {@link #OPERATIONS} records and processes them one per batch. */
    private static List<OperationTimings> stream(KafkaTxBenchmarkDriver driver, String name) throws Exception {
        String source = TestDrivers.topic(name);
        driver.createTopic(source, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
        driver.createTopic(driver.streamTargetTopic(source), 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
        BenchmarkProducer feeder = driver.createProducer(source).get(WAIT_SECONDS, TimeUnit.SECONDS);
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < OPERATIONS; i++) {
            sends.add(feeder.sendAsync(Optional.empty(), ("in-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        feeder.close();
        RecordingCallback callback = new RecordingCallback();
        BenchmarkConsumer processor =
                driver.createConsumer(source, name, callback).get(WAIT_SECONDS, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (callback.operations.stream()
                                .filter(t -> t.outcome() != Outcome.FAILED)
                                .mapToInt(OperationTimings::messages)
                                .sum()
                        < OPERATIONS
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        processor.close();
        assertEquals(
                OPERATIONS,
                callback.operations.stream()
                        .filter(t -> t.outcome() != Outcome.FAILED)
                        .mapToInt(OperationTimings::messages)
                        .sum(),
                "every source record processed");
        return List.copyOf(callback.operations);
    }
}

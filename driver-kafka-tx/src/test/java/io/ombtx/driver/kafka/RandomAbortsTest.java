package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.junit.EmbeddedKafkaExtension;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code operation.abortRatio}: transactions aborted on purpose, chosen by a seeded random, are counted apart from
 * failures, re-processed (STREAM) and never visible to read_committed; the checker catches them when they are.
 */
@Tag("integration")
class RandomAbortsTest {

    private static final long WAIT_SECONDS = 120;
    private static final double RATIO = 0.3;
    private static final long SEED = 31;

    @RegisterExtension
    static final EmbeddedKafkaExtension kafka = new EmbeddedKafkaExtension();

    @TempDir
    Path dir;

    /** How many transactions the flow with {@code index} aborts before its {@code committed}-th commit. */
    private static int abortsBefore(int committed, int index) {
        AbortChoice choice = AbortChoice.of(RATIO, SEED, index);
        int aborts = 0;
        for (int commits = 0; commits < committed; ) {
            if (choice.next()) {
                aborts++;
            } else {
                commits++;
            }
        }
        return aborts;
    }

    @Test
    void theSameSeedAbortsTheSameTransactionsAndFlowsDrawApart() {
        AbortChoice a = AbortChoice.of(RATIO, SEED, 0);
        AbortChoice again = AbortChoice.of(RATIO, SEED, 0);
        AbortChoice other = AbortChoice.of(RATIO, SEED, 1);
        StringBuilder first = new StringBuilder();
        StringBuilder second = new StringBuilder();
        StringBuilder third = new StringBuilder();
        int aborts = 0;
        for (int i = 0; i < 10_000; i++) {
            boolean abort = a.next();
            aborts += abort ? 1 : 0;
            first.append(abort ? 'a' : 'c');
            second.append(again.next() ? 'a' : 'c');
            third.append(other.next() ? 'a' : 'c');
        }
        assertEquals(first.toString(), second.toString());
        assertTrue(!first.toString().equals(third.toString()), "another flow draws its own sequence");
        // 10 000 draws at 0.3: the standard deviation is 46, so 2 700..3 300 is more than 6 of them either side.
        assertTrue(aborts > 2_700 && aborts < 3_300, "aborts: " + aborts);
        AbortChoice never = AbortChoice.of(0, SEED, 0);
        AbortChoice always = AbortChoice.of(1, SEED, 0);
        for (int i = 0; i < 1_000; i++) {
            assertTrue(!never.next() && always.next());
        }
    }

    private KafkaTxBenchmarkDriver driver(OperationSpec spec, CountingStatsLogger stats) throws Exception {
        KafkaTxBenchmarkDriver driver =
                TestDrivers.driver(TestDrivers.yaml(dir, kafka.bootstrapServers(), null), stats);
        driver.configureOperation(spec);
        return driver;
    }

    private static OperationSpec stream() {
        return new OperationSpec(OperationKind.STREAM, true, 1, 1, false, true, null, RATIO, SEED);
    }

    /** Source and target topics, the source filled with {@code records} plain records. */
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

    /** Runs one processor until {@code records} source records are committed, then closes it. */
    private static RecordingCallback process(KafkaTxBenchmarkDriver driver, String source, String group, int records)
            throws Exception {
        RecordingCallback callback = new RecordingCallback();
        BenchmarkConsumer processor =
                driver.createConsumer(source, group, callback).get(WAIT_SECONDS, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (count(callback, Outcome.COMMITTED) < records && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        processor.close();
        return callback;
    }

    private static long count(RecordingCallback callback, Outcome outcome) {
        return callback.operations.stream().filter(t -> t.outcome() == outcome).count();
    }

    @Test
    void streamReprocessesAbortedBatchesAndNoAbortedRecordIsVisible() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        try (KafkaTxBenchmarkDriver driver = driver(stream(), stats)) {
            String source = prefilledSource(driver, "aborts", 300);
            RecordingCallback callback = process(driver, source, "aborting", 300);

            // One processor, one record per transaction, no failures: its draws decide everything, so the aborts
            // are exactly those its seed picks before the 300th commit.
            int aborts = abortsBefore(300, 0);
            assertTrue(aborts > 0);
            assertEquals(300, count(callback, Outcome.COMMITTED), "each record committed once");
            assertEquals(aborts, count(callback, Outcome.ABORTED));
            assertEquals(0, count(callback, Outcome.FAILED));
            assertEquals(300 + aborts, callback.operations.size(), "committed + abortedOnPurpose = transactions");
            for (OperationTimings timings : callback.operations) {
                assertEquals(0, timings.abortedAttempts(), "an abort on purpose is no failed attempt: " + timings);
                if (timings.outcome() == Outcome.ABORTED) {
                    assertTrue(timings.nanos(Phase.ABORT) >= 0, "timed as ABORT: " + timings);
                    assertEquals(-1, timings.nanos(Phase.COMMIT));
                    assertEquals(timings.totalNanos(), TestDrivers.sumOfPhases(timings), "phases add up");
                }
            }
            assertEquals(300, callback.received(), "an aborted batch's inputs are received once, when committed");
            assertEquals(300, stats.counter("tx/committed"));
            assertEquals(aborts, stats.counter("tx/abortedOnPurpose"));
            assertEquals(0, stats.counter("tx/aborted"), "no attempt aborted after a failure");

            assertEquals(
                    new ExactlyOnceReport(300, 0, 0, 0, 0),
                    driver.verifyExactlyOnce(source, "aborting").get(WAIT_SECONDS, TimeUnit.SECONDS));

            // The aborted outputs are in the log (acked before the abort), marked, and skipped by read_committed.
            String target = driver.streamTargetTopic(source);
            List<ConsumerRecord<String, byte[]>> written =
                    TestDrivers.awaitWritten(kafka.bootstrapServers(), target, 300 + aborts);
            assertEquals(
                    aborts,
                    written.stream().filter(RandomAbortsTest::marked).count(),
                    "each aborted transaction's record is in the log, marked");
            List<ConsumerRecord<String, byte[]>> visible =
                    TestDrivers.readCommitted(kafka.bootstrapServers(), target, 300);
            assertEquals(300, visible.size());
            assertTrue(visible.stream().noneMatch(RandomAbortsTest::marked));
        }
    }

    /** The broken variant: a checker reading read_uncommitted must report every aborted record it reads. */
    @Test
    void aCheckerThatReadsUncommittedRecordsIsCaughtSeeingTheAbortedOnes() throws Exception {
        try (KafkaTxBenchmarkDriver driver = driver(stream(), new CountingStatsLogger())) {
            String source = prefilledSource(driver, "leaky", 100);
            RecordingCallback callback = process(driver, source, "leaky", 100);
            long aborted = count(callback, Outcome.ABORTED);
            assertEquals(abortsBefore(100, 0), aborted);

            Properties readers = new Properties();
            readers.put("bootstrap.servers", kafka.bootstrapServers());
            try (Admin admin = Admin.create(readers)) {
                ExactlyOnceReport leaky = new ExactlyOnceVerifier(
                                admin, readers, Duration.ofSeconds(60), "read_uncommitted")
                        .verify(source, driver.streamTargetTopic(source), "leaky");
                assertEquals(aborted, leaky.abortedSeen(), "every aborted record read is counted: " + leaky);
                assertTrue(!leaky.passed());
                assertEquals(
                        new ExactlyOnceReport(100, 0, 0, 0, 0),
                        new ExactlyOnceVerifier(admin, readers, Duration.ofSeconds(60))
                                .verify(source, driver.streamTargetTopic(source), "leaky"));
            }
        }
    }

    @Test
    void transactionalWritesAbortTheirShareAndOnlyCommittedOnesAreVisible() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        OperationSpec spec = new OperationSpec(OperationKind.WRITE, true, 5, 1, false, true, null, RATIO, SEED);
        try (KafkaTxBenchmarkDriver driver = driver(spec, stats)) {
            String topic = TestDrivers.topic("writes");
            driver.createTopic(topic, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
            KafkaTxProducer producer =
                    (KafkaTxProducer) driver.createProducer(topic).get(WAIT_SECONDS, TimeUnit.SECONDS);
            int operations = 200;
            List<OperationTimings> done = new ArrayList<>();
            for (int i = 0; i < operations; i++) {
                done.add(producer.runOperation(Optional.empty(), new byte[10]).get(WAIT_SECONDS, TimeUnit.SECONDS));
            }
            producer.close();

            AbortChoice replay = AbortChoice.of(RATIO, SEED, 0); // the driver's first producer
            int aborts = 0;
            for (OperationTimings timings : done) {
                boolean picked = replay.next();
                assertEquals(picked ? Outcome.ABORTED : Outcome.COMMITTED, timings.outcome());
                aborts += picked ? 1 : 0;
            }
            assertTrue(aborts > 0);
            assertEquals(operations - aborts, stats.counter("tx/committed"));
            assertEquals(aborts, stats.counter("tx/abortedOnPurpose"));
            assertEquals(0, stats.counter("tx/failed"));

            List<ConsumerRecord<String, byte[]>> visible =
                    TestDrivers.readCommitted(kafka.bootstrapServers(), topic, 5 * (operations - aborts));
            assertEquals(5 * (operations - aborts), visible.size());
            assertTrue(visible.stream().noneMatch(RandomAbortsTest::marked));
            assertEquals(
                    5L * aborts,
                    TestDrivers.awaitWritten(kafka.bootstrapServers(), topic, 5 * operations).stream()
                            .filter(RandomAbortsTest::marked)
                            .count());
        }
    }

    private static boolean marked(ConsumerRecord<String, byte[]> record) {
        return record.headers().lastHeader(ExactlyOnceReport.ABORTED_HEADER) != null;
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.junit.EmbeddedKafka;
import io.ombtx.runner.Main;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every send rejected by a healthy broker: the run ends failed within seconds, naming the broker's error (the first
 * cause, not the "error state" failures that follow from it) — not "partial, no progress" after the stall time-out,
 * nor "complete" with every count 0.
 */
@Tag("integration")
@EmbeddedKafka
class RejectedSendsTest {

    /** The measurement asked for; a run that ends far short of it was ended by the failure. */
    private static final int TEST_SECONDS = 120;

    /** Generous for a busy 2-core machine: the failure is declared 5 s after the first error, closing takes ≤ 5 s. */
    private static final double BOUND_SECONDS = 60;

    @TempDir
    static Path dir;

    static String bootstrapServers;

    @BeforeAll
    static void connect(EmbeddedKafkaCluster cluster) {
        bootstrapServers = cluster.bootstrapServers();
    }

    private record Run(int code, RunResult result, String log, double seconds) {}

    private static Run run(String name, String topicConfig, String producerConfig, int messageSize) throws Exception {
        Path driver = Files.writeString(
                dir.resolve(name + "-driver.yaml"),
                String.join(
                        "\n",
                        "name: kafka-tx",
                        "driverClass: " + KafkaTxBenchmarkDriver.class.getName(),
                        "replicationFactor: 1",
                        "topicConfig: |",
                        "  " + topicConfig,
                        "commonConfig: |",
                        "  bootstrap.servers=" + bootstrapServers,
                        "producerConfig: |",
                        "  acks=all",
                        "  linger.ms=0",
                        "  " + producerConfig,
                        ""));
        Path workload = Files.writeString(
                dir.resolve(name + ".yaml"),
                String.join(
                        "\n",
                        "name: " + name,
                        "topics: 1",
                        "partitionsPerTopic: 1",
                        "messageSize: " + messageSize,
                        "producersPerTopic: 1",
                        "subscriptionsPerTopic: 0",
                        "loop: closed",
                        "operation: {kind: WRITE, transactional: true, messagesPerOperation: 1}",
                        "reportingIntervalSeconds: 1",
                        "warmupDurationSeconds: 1",
                        "testDurationSeconds: " + TEST_SECONDS,
                        ""));
        Path result = dir.resolve(name + ".json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int code = Main.run(
                new String[] {"-d", driver.toString(), "-o", result.toString(), workload.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Run(code, ResultReader.read(result), out.toString(StandardCharsets.UTF_8), seconds);
    }

    private static void assertFailedNaming(Run run, String firstCause) {
        assertEquals(Main.FAILED, run.code(), run.log());
        RunResult r = run.result();
        assertEquals(RunResult.Status.FAILED, r.status(), run.log());
        assertTrue(
                r.failureReason().startsWith("every operation failed, none succeeded (first error: " + firstCause),
                r.failureReason());
        assertTrue(!r.failureReason().contains("error state"), r.failureReason());
        assertTrue(
                run.log().contains("Run FAILED (every operation failed, none succeeded (first error: " + firstCause),
                run.log());
        assertTrue(run.seconds() < BOUND_SECONDS, "ended " + run.seconds() + " s after it began\n" + run.log());
    }

    /**
     * Compressed, a message's size in the log is not known before it is sent (a plain one too large for the topic is
     * refused at planning, exit 2: BadInputTableTest): the broker rejects every batch.
     */
    @Test
    void aTopicThatRejectsEveryMessageFailsTheRunAtOnceWithTheBrokersError() throws Exception {
        Run run = run("too-large-for-topic", "max.message.bytes=1", "compression.type=lz4", 100);
        assertFailedNaming(run, "RecordTooLargeException: The request included a message larger than the max message");
    }

    /** A message larger than the client's whole buffer ({@code buffer.memory}, 32 MiB), its request size raised. */
    @Test
    void aMessageLargerThanTheClientSendsFailsTheRunNamingRecordTooLarge() throws Exception {
        Run run = run("too-large-for-client", "", "max.request.size=200000000", 40_000_000);
        assertFailedNaming(run, "RecordTooLargeException: The message is ");
    }
}

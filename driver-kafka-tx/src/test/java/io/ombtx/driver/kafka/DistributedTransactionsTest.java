package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.Main;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.worker.WorkerServer;
import io.ombtx.runner.worker.WorkerToken;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A transactional scenario through two HTTP workers on loopback, with the omb-tx extensions over the wire. */
@Tag("integration")
class DistributedTransactionsTest {

    @TempDir
    Path dir;

    /** Also: workers started with a token, which the coordinator reads from --token-file and sends. */
    @Test
    void writeThenFetchRunsOnOneWorkerBecauseItsProducerWaitsForItsConsumer() throws Exception {
        Path home = io.ombtx.runner.OmbTxHome.locate();
        Path tokenFile = Files.writeString(dir.resolve("worker.token"), "d1f0c2a9e4b3f7a6c5d8e1f2a3b4c5d6\n");
        WorkerToken token = WorkerToken.read(tokenFile);
        try (WorkerServer first = new WorkerServer("127.0.0.1", 0, token).start();
                WorkerServer second = new WorkerServer("127.0.0.1", 0, token).start()) {
            Path result = dir.resolve("tx-fetch.json");
            String log = runOnBoth(
                    first,
                    second,
                    result,
                    "--token-file",
                    tokenFile.toString(),
                    "--profile",
                    "quick",
                    home.resolve("workloads/tx-fetch.yaml").toString());
            assertTrue(log.contains("both run on the first worker"), log);
            JsonNode r = new ObjectMapper().readTree(result.toFile());
            assertEquals(200, r.at("/counts/committed").asLong());
            assertEquals(
                    200,
                    Histograms.decode(r.at("/histograms/endToEndLatencyMicros").asText())
                            .getTotalCount(),
                    "every measured transaction was seen by the read_committed consumer");
            assertTrue(r.at("/transactionPhases/commit/count").asLong() == 200, "phases travel over HTTP");
        }
    }

    /**
     * A STREAM's operations run where its consumers are, on the second worker: the phase sequences they ran reach
     * the result through the worker protocol's stats (a typed metric merged with the rest), not the first worker's
     * environment.
     */
    @Test
    void aStreamsPhaseSequencesComeOverHttpFromTheWorkerThatRanThem() throws Exception {
        Path home = io.ombtx.runner.OmbTxHome.locate();
        try (WorkerServer first = new WorkerServer("127.0.0.1", 0).start();
                WorkerServer second = new WorkerServer("127.0.0.1", 0).start()) {
            Path result = dir.resolve("tx-streaming.json");
            String log = runOnBoth(
                    first,
                    second,
                    result,
                    "--profile",
                    "quick",
                    home.resolve("workloads/tx-streaming.yaml").toString());
            JsonNode r = new ObjectMapper().readTree(result.toFile());
            long operations = r.at("/counts/operations").asLong();
            assertEquals(300, operations, r.at("/counts").toString());
            assertEquals(
                    "[\"begin\",\"send\",\"sendOffsets\",\"commit\",\"resolve\"]",
                    r.at("/scenario/phaseSequence").toString());
            long counted = 0;
            for (JsonNode count : r.at("/environment/phaseSequences")) {
                counted += count.asLong();
            }
            assertEquals(operations, counted, "every measured operation counted once: " + r.at("/environment"));
        }
    }

    /**
     * A transactional PUBLISH of twenty producers split over two HTTP workers: the transactions each worker cut and
     * counted reach the result merged (the messages-per-transaction histogram over the wire by its name), with the
     * same invariants as one worker's: the transactions are the operations, each holds at most the workload's
     * messages, and they hold every measured message (plus at most one transaction per producer across the warm-up's
     * end).
     */
    @Test
    void aTransactionalPublishSplitOverTwoWorkersAddsUpTheirTransactions() throws Exception {
        Path workload = Files.writeString(
                dir.resolve("tx-publish.yaml"),
                """
                name: tx-publish
                partitionsPerTopic: 4
                messageSize: 100
                producersPerTopic: 20
                subscriptionsPerTopic: 0
                producerRate: 1000
                operation: {kind: PUBLISH, transactional: true, messagesPerTransaction: 25, commitIntervalMs: 50}
                warmupDurationSeconds: 2
                testDurationSeconds: 4
                """);
        try (WorkerServer first = new WorkerServer("127.0.0.1", 0).start();
                WorkerServer second = new WorkerServer("127.0.0.1", 0).start()) {
            Path result = dir.resolve("tx-publish.json");
            String log = runOnBoth(first, second, result, workload.toString());
            JsonNode r = new ObjectMapper().readTree(result.toFile());
            long committed = r.at("/counts/committed").asLong();
            assertTrue(committed > 0, log);
            assertEquals(committed, r.at("/counts/operations").asLong());
            var held =
                    Histograms.decode(r.at("/histograms/messagesPerTransaction").asText());
            assertEquals(committed, held.getTotalCount(), "both workers' transactions, merged");
            assertTrue(held.getMaxValue() <= 25, "at most the workload's messages: " + held.getMaxValue());
            long inTransactions = Math.round(held.getMean() * held.getTotalCount());
            long sent = r.at("/counts/messagesSent").asLong();
            assertTrue(inTransactions >= sent && inTransactions <= sent + 20 * 25, inTransactions + " vs " + sent);
            assertEquals(1000, r.at("/rate/target").asDouble(), 0);
            // The workers report their CPU over HTTP: the busiest one's share of its cores over the measured phase.
            double cpu = r.at("/rate/loadGeneratorCpu").asDouble(-1);
            assertTrue(cpu > 0 && cpu <= 1, "the busiest worker's CPU: " + r.at("/rate"));
            assertEquals(
                    Runtime.getRuntime().availableProcessors(),
                    r.at("/rate/cores").asInt(),
                    r.at("/rate").toString());
        }
    }

    /**
     * bin/benchmark with the shipped kafka-tx driver over {@code first} and {@code second}, writing {@code result}:
     * exit code 0 asserted, its console returned.
     */
    private static String runOnBoth(WorkerServer first, WorkerServer second, Path result, String... workload) {
        Path home = io.ombtx.runner.OmbTxHome.locate();
        List<String> args = new ArrayList<>(List.of(
                "-d",
                home.resolve("driver-kafka-tx/kafka-tx.yaml").toString(),
                "-w",
                "http://127.0.0.1:" + first.port() + ",http://127.0.0.1:" + second.port(),
                "-o",
                result.toString()));
        args.addAll(List.of(workload));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code =
                Main.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        return log;
    }
}

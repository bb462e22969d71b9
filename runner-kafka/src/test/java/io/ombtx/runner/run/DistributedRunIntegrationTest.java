package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.Main;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.worker.WorkerServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The coordinator with HTTP workers on loopback, against the embedded broker. */
@Tag("integration")
class DistributedRunIntegrationTest {

    @TempDir
    Path dir;

    private Path driver() throws Exception {
        return Files.writeString(
                dir.resolve("driver.yaml"),
                "name: spi-only\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
    }

    private JsonNode run(Path workload, Path output, String... extra) throws Exception {
        String[] base = {"-d", driver().toString(), "-o", output.toString(), "--report-interval", "2"};
        String[] args = new String[base.length + extra.length + 1];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        args[args.length - 1] = workload.toString();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        JsonNode result = Files.exists(output) ? new ObjectMapper().readTree(output.toFile()) : null;
        return new ObjectMapper()
                .createObjectNode()
                .put("code", code)
                .put("err", err.toString(StandardCharsets.UTF_8))
                .put("out", out.toString(StandardCharsets.UTF_8))
                .set("result", result);
    }

    @Test
    void twoWorkersGiveTheSameTotalsAsALocalRun() throws Exception {
        Path workload = Files.writeString(
                dir.resolve("w.yaml"),
                """
                name: split
                topics: 1
                partitionsPerTopic: 2
                messageSize: 200
                producersPerTopic: 2
                subscriptionsPerTopic: 1
                consumerPerSubscription: 2
                producerRate: 4000
                warmupOperations: 2000
                measureOperations: 12000
                """);
        JsonNode local = run(workload, dir.resolve("local.json"));
        assertEquals(0, local.get("code").asInt(), local.get("err").asText());
        try (WorkerServer producerSide = new WorkerServer("127.0.0.1", 0).start();
                WorkerServer consumerSide = new WorkerServer("127.0.0.1", 0).start()) {
            JsonNode distributed = run(
                    workload,
                    dir.resolve("distributed.json"),
                    "-w",
                    "http://127.0.0.1:" + producerSide.port() + ",http://127.0.0.1:" + consumerSide.port());
            assertEquals(
                    0,
                    distributed.get("code").asInt(),
                    distributed.get("err").asText() + distributed.get("out").asText());
            JsonNode l = local.get("result");
            JsonNode d = distributed.get("result");
            assertEquals(12_000, l.at("/counts/messagesSent").asLong());
            assertEquals(12_000, d.at("/counts/messagesSent").asLong(), "the producer worker sent exactly its share");
            assertTrue(
                    d.at("/counts/messagesReceived").asLong() >= 11_800,
                    d.at("/counts").toString());
            long histogramCount = Histograms.decode(
                            d.at("/histograms/publishLatencyMicros").asText())
                    .getTotalCount();
            assertEquals(12_000, histogramCount, "histograms merged from the workers hold every message");
            assertTrue(
                    Histograms.decode(d.at("/histograms/endToEndLatencyMicros").asText())
                                    .getTotalCount()
                            >= 11_800);
        }
    }

    @Test
    void aWorkerThatDiesMidRunEndsTheRunWithAPartialResult() throws Exception {
        Path workload = Files.writeString(
                dir.resolve("long.yaml"),
                """
                name: long
                messageSize: 100
                producerRate: 1000
                warmupDurationSeconds: 0
                testDurationSeconds: 120
                """);
        WorkerServer worker = new WorkerServer("127.0.0.1", 0).start();
        ScheduledExecutorService killer = Executors.newSingleThreadScheduledExecutor();
        // Die once the load has been running for a few reporting periods.
        HttpClient http = HttpClient.newHttpClient();
        URI progress = URI.create("http://127.0.0.1:" + worker.port() + "/omb-tx/progress");
        killer.scheduleWithFixedDelay(
                () -> {
                    try {
                        String body = http.send(
                                        HttpRequest.newBuilder(progress).build(), HttpResponse.BodyHandlers.ofString())
                                .body();
                        if (new ObjectMapper()
                                        .readTree(body)
                                        .path("messagesSent")
                                        .asLong()
                                > 6000) {
                            worker.close();
                        }
                    } catch (Exception notYet) {
                        // not started yet, or already closed
                    }
                },
                1,
                1,
                TimeUnit.SECONDS);
        long start = System.nanoTime();
        JsonNode outcome = run(
                workload,
                dir.resolve("partial.json"),
                "-w",
                "http://127.0.0.1:" + worker.port(),
                "--worker-timeout",
                "5");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        killer.shutdownNow();
        assertEquals(
                1,
                outcome.get("code").asInt(),
                outcome.get("err").asText() + outcome.get("out").asText());
        assertTrue(seconds < 90, "ended promptly, not after the full two minutes: " + seconds + " s");
        JsonNode r = outcome.get("result");
        assertEquals("partial", r.get("status").asText());
        assertTrue(
                r.get("partialReason").asText().contains("127.0.0.1:" + worker.port()),
                r.get("partialReason").asText());
        assertTrue(
                r.at("/counts/messagesSent").asLong() >= 2000,
                "what was measured before the fault is kept: " + r.at("/counts")
                        + outcome.get("out").asText());
    }
}

package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.broker.junit.BootstrapServers;
import io.ombtx.broker.junit.EmbeddedKafka;
import io.ombtx.runner.Main;
import io.ombtx.runner.stats.Histograms;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole runs through the CLI on the embedded broker with a driver that implements only OMB's SPI. */
@Tag("integration")
class LocalRunIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void anOmbOnlyWorkloadRunsUnchangedAndWritesOmbFieldsAndOurs() throws Exception {
        Path payload = Files.write(dir.resolve("payload-100b.data"), new byte[100]);
        // Only OMB's fields, as OMB's own workload files have them (a 10 s run instead of minutes).
        Path workload = Files.writeString(
                dir.resolve("omb-1-topic.yaml"),
                """
                name: 1 topic / 1 partition / 100b
                topics: 1
                partitionsPerTopic: 1
                messageSize: 100
                payloadFile: %s
                subscriptionsPerTopic: 1
                consumerPerSubscription: 1
                producersPerTopic: 1
                producerRate: 10000
                consumerBacklogSizeGB: 0
                testDurationMinutes: 1
                warmupDurationMinutes: 0
                """
                        .formatted(payload));
        Path driver = Files.writeString(
                dir.resolve("driver.yaml"),
                "name: spi-only\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        // testDurationMinutes is OMB's smallest unit; shorten it through the profile mechanism is not OMB's,
        // so run it as written but with a short reporting interval.
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path results = dir.resolve("results");
        int code = Main.run(
                new String[] {
                    "-d", driver.toString(), "-o", results.toString(), "--report-interval", "5", workload.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        assertTrue(log.contains("Pub rate"), log);
        List<Path> files;
        try (var stream = Files.list(results)) {
            files = stream.toList();
        }
        assertEquals(1, files.size());
        JsonNode r = new ObjectMapper().readTree(files.get(0).toFile());
        for (String field : new String[] {
            "workload",
            "driver",
            "messageSize",
            "topics",
            "partitions",
            "producersPerTopic",
            "consumersPerTopic",
            "publishRate",
            "publishErrorRate",
            "consumeRate",
            "backlog",
            "publishLatencyAvg",
            "publishLatency50pct",
            "publishLatency9999pct",
            "publishLatencyMax",
            "publishDelayLatencyAvg",
            "endToEndLatency99pct",
            "aggregatedPublishLatencyAvg",
            "aggregatedPublishLatency999pct",
            "aggregatedPublishDelayLatency50pct",
            "aggregatedEndToEndLatencyMax",
            "aggregatedPublishLatencyQuantiles",
            "aggregatedPublishDelayLatencyQuantiles",
            "aggregatedEndToEndLatencyQuantiles",
            "startTime",
            "endTime",
            "status",
            "runMode",
            "versions",
            "broker",
            "host",
            "driverConfig",
            "counts",
            "summary",
            "histograms"
        }) {
            assertTrue(r.has(field), "result has " + field);
        }
        assertEquals("complete", r.get("status").asText());
        assertEquals("open", r.at("/runMode/loop").asText());
        assertEquals(10000, r.at("/runMode/targetRate").asInt());
        assertTrue(r.at("/broker/embedded").asBoolean());
        assertEquals("kafka", r.at("/broker/system").asText());
        assertEquals(
                "5", r.at("/broker/settings/group.coordinator.append.linger.ms").asText());
        // The machine as the OS tells it: the brokers on loopback, their data on a file system of this machine.
        assertEquals(
                Runtime.getRuntime().availableProcessors(), r.at("/host/cpus").asInt());
        assertEquals("loopback", r.at("/host/network").asText());
        assertTrue(
                r.at("/broker/dataDisk/fileSystem").isTextual(), r.at("/broker").toString());
        long sent = r.at("/counts/messagesSent").asLong();
        // 60 s at 10K msg/s: the rate must essentially be met; the run's edges (the stop is noticed within a
        // poll, in-flight sends are acknowledged after it) may add a few hundred messages.
        assertTrue(sent > 570_000 && sent <= 606_000, "sent " + sent);
        assertTrue(r.at("/counts/messagesReceived").asLong() > 0.95 * sent);
        double meanRate = 0;
        for (JsonNode rate : r.get("publishRate")) {
            meanRate += rate.asDouble() / r.get("publishRate").size();
        }
        assertEquals(10_000, meanRate, 600);
        // Progress every 5 s, OMB's lists on OMB's 10-s period (what its create_charts.py assumes): half as many.
        assertEquals(5, r.at("/runMode/reportingIntervalSeconds").asInt());
        assertEquals(10, r.at("/runMode/ombPeriodSeconds").asInt());
        int periods = r.at("/periods/elapsedSeconds").size();
        assertEquals((periods + 1) / 2, r.get("publishRate").size(), "periods " + r.at("/periods/elapsedSeconds"));
        Histogram publish =
                Histograms.decode(r.at("/histograms/publishLatencyMicros").asText());
        assertEquals(sent, publish.getTotalCount(), "the full histogram holds every measured message");
        assertEquals(
                r.get("aggregatedPublishLatency50pct").asDouble(), publish.getValueAtPercentile(50) / 1000.0, 1e-9);
        assertTrue(r.get("aggregatedEndToEndLatency50pct").asDouble() > 0);
    }

    @Test
    void ombBacklogModeBuildsABacklogWithConsumersPausedThenDrainsIt() throws Exception {
        Path workload = Files.writeString(
                dir.resolve("backlog.yaml"),
                """
                name: backlog
                messageSize: 100
                subscriptionsPerTopic: 1
                producerRate: 5000
                consumerBacklogSizeGB: 0.001
                backlogDrainRatio: 1.0
                warmupDurationSeconds: 0
                testDurationSeconds: 3
                """);
        Path driver = Files.writeString(
                dir.resolve("driver.yaml"),
                "name: spi-only\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path result = dir.resolve("backlog.json");
        int code = Main.run(
                new String[] {
                    "-d", driver.toString(), "-o", result.toString(), "--report-interval", "1", workload.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        int paused = log.indexOf("Consumers paused");
        int built = log.indexOf("consumers resumed to drain it");
        int drained = log.indexOf("Backlog drained");
        assertTrue(paused >= 0 && built > paused && drained > built, log);
        // 1 MiB of 100-byte messages is 10,737 messages: the consumers stayed paused until at least that many waited.
        java.util.regex.Matcher builtLine = java.util.regex.Pattern.compile("Backlog of (\\d+) messages built")
                .matcher(log);
        assertTrue(builtLine.find(), log);
        long backlog = Long.parseLong(builtLine.group(1));
        assertTrue(backlog >= 10_737, builtLine.group());
        // Drained: the consumers read the whole backlog and went on reading. (How far they trail the producer when the
        // run stops after its 3 s is the machine's pace, not the drain's: on a busy CI machine it was 1,434 messages,
        // 0.3 s at 5,000 msg/s.)
        JsonNode r = new ObjectMapper().readTree(result.toFile());
        long received = r.at("/counts/messagesReceived").asLong();
        assertTrue(
                received > backlog && received <= r.at("/counts/messagesSent").asLong(),
                "the backlog of " + backlog + " was drained: " + r.at("/counts"));
    }

    @Test
    void secretBrokerSettingsAreRedactedOnTheConsoleAndInTheResult() throws Exception {
        Path workload = Files.writeString(
                dir.resolve("w.yaml"),
                "name: secret\nmessageSize: 100\nsubscriptionsPerTopic: 0\nmeasureOperations: 20\n"
                        + "brokerSettings: {ssl.truststore.password: trust-secret}\n");
        Path driver = Files.writeString(
                dir.resolve("driver.yaml"),
                "name: spi-only\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path result = dir.resolve("secret.json");
        int code = Main.run(
                new String[] {
                    "-d",
                    driver.toString(),
                    "-o",
                    result.toString(),
                    "--broker-config",
                    "ssl.keystore.password=keystore-secret",
                    workload.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        assertTrue(log.contains("ssl.keystore.password=<redacted>"), log);
        String json = Files.readString(result);
        for (String secret : new String[] {"keystore-secret", "trust-secret"}) {
            assertFalse(log.contains(secret), secret + " on the console: " + log);
            assertFalse(json.contains(secret), secret + " in the result");
        }
        JsonNode settings = new ObjectMapper().readTree(json).at("/broker/settings");
        assertEquals("<redacted>", settings.path("ssl.keystore.password").asText(), settings.toString());
        assertEquals("<redacted>", settings.path("ssl.truststore.password").asText(), settings.toString());
        assertEquals("false", settings.path("auto.create.topics.enable").asText(), "others as set");
    }

    /** Against a cluster the runner did not start (the driver names its bootstrap servers). */
    @Nested
    @EmbeddedKafka
    class OnAnExternalCluster {

        @Test
        void aClusterWithTooFewBrokersIsRefusedAtOnce(@BootstrapServers String external) throws Exception {
            Path driver = Files.writeString(
                    dir.resolve("external.yaml"),
                    "name: spi-only\n"
                            + "driverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n"
                            + "commonConfig: |\n  bootstrap.servers=" + external + "\n");
            Path workload = Files.writeString(
                    dir.resolve("three.yaml"),
                    "name: needs-three\nbrokers: 3\nmessageSize: 10\nproducerRate: 100\ntestDurationSeconds: 5\n");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            long start = System.nanoTime();
            int code = Main.run(
                    new String[] {
                        "-d", driver.toString(), "-o", dir.resolve("none").toString(), workload.toString()
                    },
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            String message = err.toString(StandardCharsets.UTF_8);
            assertEquals(2, code, message);
            assertTrue(
                    message.contains("three.yaml: key 'brokers': 3 broker(s) asked for but the cluster at " + external
                            + " has 1 broker(s)"),
                    message);
            assertTrue(System.nanoTime() - start < 30_000_000_000L, "refused before any load");
            // The output folder is made (and checked) before anything starts; no result lands in it.
            try (var written = Files.list(dir.resolve("none"))) {
                assertEquals(0, written.count(), "no result for a run that never started");
            }
        }
    }
}

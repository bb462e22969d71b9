package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.broker.junit.BootstrapServers;
import io.ombtx.broker.junit.EmbeddedKafka;
import io.ombtx.driver.api.config.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * omb-tx's workers driven the way a stock OMB coordinator drives its own: the requests of {@code omb-protocol/}
 * (method, path and body exactly as OMB sends them) replayed against two {@link WorkerServer}s — the first produces,
 * the second only consumes and, as under OMB, is never sent {@code /start-load} — and every reply checked field by
 * field against the shapes OMB reads ({@code omb-protocol/replies.yaml}), histograms decoded and merged as OMB's
 * {@code PeriodStats.plus} does. The driver is an OMB-SPI-only Kafka driver on the embedded broker.
 */
@EmbeddedKafka
class OmbCoordinatorConformanceTest {

    private static final int PAYLOAD_BYTES = 100;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private WorkerServer producing;
    private WorkerServer consuming;

    @BeforeEach
    void startWorkers() throws IOException {
        producing = new WorkerServer("127.0.0.1", 0).start();
        consuming = new WorkerServer("127.0.0.1", 0).start();
    }

    @AfterEach
    void stopWorkers() {
        producing.close();
        consuming.close();
    }

    @Test
    void aStockCoordinatorsRunMeasuresOnBothWorkersAndEveryReplyHasOmbsShape(@BootstrapServers String kafka)
            throws Exception {
        String driverYaml = "name: spi-only\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n"
                + "commonConfig: |\n  bootstrap.servers=" + kafka + "\n";
        // OMB's DistributedWorkersEnsemble: the driver to everyone, topics by the first worker, consumers before
        // producers, probes to the producing workers, readiness from everyone's counters.
        for (WorkerServer worker : new WorkerServer[] {producing, consuming}) {
            assertEquals(200, post(worker, "/initialize-driver", driverYaml).statusCode());
        }
        HttpResponse<String> topics = post(producing, "/create-topics", fixture("create-topics.json"));
        JsonNode topicList = reply(topics, "/create-topics");
        assertEquals(1, topicList.size());
        Map<String, String> values = Map.of(
                "topic",
                topicList.get(0).asText(),
                "subscription",
                "sub-000-abcdefg",
                "payload",
                Base64.getEncoder().encodeToString(new byte[PAYLOAD_BYTES]));
        assertEquals(
                200,
                post(consuming, "/create-consumers", fixture("create-consumers.json", values))
                        .statusCode());
        assertEquals(
                200,
                post(producing, "/create-producers", fixture("create-producers.json", values))
                        .statusCode());
        assertEquals(200, post(producing, "/probe-producers", "").statusCode());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long received = 0;
        while (received < 1 && System.nanoTime() < deadline) {
            received = received(producing) + received(consuming);
            Thread.sleep(200);
        }
        assertEquals(1, received, "the consumer-only worker counts the probe before any load was started");

        // The load goes to the producing worker only; the consumer-only worker records all the same.
        assertEquals(
                200,
                post(producing, "/start-load", fixture("start-load.json", values))
                        .statusCode());
        Thread.sleep(1_000);
        for (WorkerServer worker : new WorkerServer[] {producing, consuming}) {
            assertEquals(200, post(worker, "/reset-stats", "").statusCode()); // OMB's end of the warm-up
            reply(get(worker, "/period-stats"), "/period-stats"); // OMB reads one period per interval
        }
        awaitMoreReceived(consuming, 100);

        JsonNode sent = reply(get(producing, "/period-stats"), "/period-stats");
        JsonNode got = reply(get(consuming, "/period-stats"), "/period-stats");
        long messagesSent = sent.get("messagesSent").asLong();
        long messagesReceived = got.get("messagesReceived").asLong();
        assertTrue(messagesSent > 0, sent.toString());
        assertTrue(messagesReceived > 0, "the consumer-only worker recorded without a load: " + got);
        assertEquals(PAYLOAD_BYTES * messagesSent, sent.get("bytesSent").asLong());
        assertEquals(PAYLOAD_BYTES * messagesReceived, got.get("bytesReceived").asLong());
        assertEquals(0, sent.get("messageSendErrors").asLong());
        Histogram publish = mergedAsOmbDoes(sent, got, "publishLatency", TimeUnit.SECONDS.toMicros(60));
        Histogram endToEnd = mergedAsOmbDoes(sent, got, "endToEndLatency", TimeUnit.HOURS.toMicros(12));
        assertEquals(messagesSent, publish.getTotalCount(), "one publish latency per message sent");
        assertEquals(messagesReceived, endToEnd.getTotalCount(), "one end-to-end latency per message received");
        // End-to-end latency is taken as OMB takes it: consumer wall clock minus the publish timestamp, in ms.
        assertTrue(
                endToEnd.getMaxValue() < TimeUnit.SECONDS.toMicros(30),
                "from the publish time: " + endToEnd.getMaxValue());
        assertTrue(sent.get("totalMessagesSent").asLong() >= messagesSent);
        assertTrue(got.get("totalMessagesReceived").asLong() >= messagesReceived);

        JsonNode cumulative = reply(get(consuming, "/cumulative-latencies"), "/cumulative-latencies");
        assertTrue(
                decode(cumulative.get("endToEndLatency").asText()).getTotalCount() >= messagesReceived,
                "the cumulative latencies hold every period since the reset");
        reply(get(producing, "/cumulative-latencies"), "/cumulative-latencies");

        assertEquals(
                200,
                post(producing, "/adjust-publish-rate", fixture("adjust-publish-rate.json"))
                        .statusCode());
        for (WorkerServer worker : new WorkerServer[] {producing, consuming}) {
            assertEquals(200, post(worker, "/stop-all", "").statusCode());
        }
        // OMB's next run starts with /initialize-driver on the same workers.
        for (WorkerServer worker : new WorkerServer[] {producing, consuming}) {
            assertEquals(200, post(worker, "/initialize-driver", driverYaml).statusCode());
            assertEquals(200, post(worker, "/stop-all", "").statusCode());
        }
    }

    /** Waits until {@code worker} has received {@code messages} more (a worker counts a message once recorded). */
    private void awaitMoreReceived(WorkerServer worker, long messages) throws Exception {
        long target = received(worker) + messages;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (received(worker) < target) {
            assertTrue(System.nanoTime() < deadline, "the consumer-only worker received fewer than " + messages);
            Thread.sleep(100);
        }
    }

    private long received(WorkerServer worker) throws Exception {
        return reply(get(worker, "/counters-stats"), "/counters-stats")
                .get("messagesReceived")
                .asLong();
    }

    /** OMB's merge: each worker's histogram decoded, then added into a fresh one of OMB's range. */
    private static Histogram mergedAsOmbDoes(JsonNode a, JsonNode b, String field, long highestMicros) {
        Histogram merged = new Histogram(highestMicros, 5);
        merged.add(decode(a.get(field).asText()));
        merged.add(decode(b.get(field).asText()));
        return merged;
    }

    private static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), Long.MIN_VALUE);
        } catch (java.util.zip.DataFormatException e) {
            throw new AssertionError("not a compressed HdrHistogram: " + base64, e);
        }
    }

    /** The reply's body, after checking each field OMB reads has OMB's name and type. */
    private JsonNode reply(HttpResponse<String> response, String endpoint) throws IOException {
        assertEquals(200, response.statusCode(), endpoint + ": " + response.body());
        JsonNode body = json.readTree(response.body());
        JsonNode shape =
                YamlFiles.parse("replies.yaml", fixture("replies.yaml")).get(endpoint);
        if (shape.isTextual()) {
            assertEquals("string list", shape.asText());
            assertTrue(body.isArray(), endpoint + ": " + body);
            body.forEach(element -> assertTrue(element.isTextual(), endpoint + ": " + body));
            return body;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = shape.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode value = body.get(field.getKey());
            String where = endpoint + " field " + field.getKey() + " in " + body;
            switch (field.getValue().asText()) {
                case "integer" -> assertTrue(value != null && value.isIntegralNumber(), where);
                case "histogram" -> {
                    assertTrue(value != null && value.isTextual(), where);
                    decode(value.asText());
                }
                default -> throw new AssertionError("unknown type in replies.yaml: " + field.getValue());
            }
        }
        return body;
    }

    private HttpResponse<String> post(WorkerServer worker, String path, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri(worker, path))
                        .timeout(Duration.ofSeconds(60))
                        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(WorkerServer worker, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri(worker, path))
                        .timeout(Duration.ofSeconds(60))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(WorkerServer worker, String path) {
        return URI.create("http://127.0.0.1:" + worker.port() + path);
    }

    static String fixture(String name) throws IOException {
        try (InputStream in = OmbCoordinatorConformanceTest.class.getResourceAsStream("/omb-protocol/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static String fixture(String name, Map<String, String> values) throws IOException {
        String text = fixture(name);
        for (Map.Entry<String, String> value : values.entrySet()) {
            text = text.replace("${" + value.getKey() + "}", value.getValue());
        }
        return text;
    }
}

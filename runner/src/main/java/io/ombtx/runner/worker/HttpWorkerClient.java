package io.ombtx.runner.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.stats.StatsSnapshot;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A remote worker ({@code bin/benchmark-worker}, or a stock OMB worker for plain workloads) driven over HTTP. Every
 * request has a time-out, so a worker that dies mid-run ends the run with an error instead of a hang.
 */
public final class HttpWorkerClient implements Worker {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final Duration timeout;
    private final HttpClient http;
    private boolean speaksOmbTx = true;

    public HttpWorkerClient(String url, Duration timeout) {
        this.baseUrl = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    public String url() {
        return baseUrl;
    }

    @Override
    public void initializeDriver(String driverYaml, OperationSpec operation) throws Exception {
        boolean plain = operation.kind() == OperationKind.PUBLISH && !operation.transactional();
        if (!plain) {
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("kind", operation.kind().name());
            spec.put("transactional", operation.transactional());
            spec.put("messagesPerOperation", operation.messagesPerOperation());
            spec.put("partitionsPerOperation", operation.partitionsPerOperation());
            spec.put("sendOffsets", operation.sendOffsets());
            spec.put("readCommitted", operation.readCommitted());
            Reply reply = send(WorkerProtocol.CONFIGURE_OPERATION, JSON.writeValueAsBytes(spec), timeout);
            if (reply.status() == 404) {
                throw new WorkerException("worker " + baseUrl + " is a stock OMB worker: it can run plain publish"
                        + " workloads only, not " + operation.kind() + (operation.transactional() ? " (transactional)" : ""));
            }
            reply.check(WorkerProtocol.CONFIGURE_OPERATION);
        }
        post(WorkerProtocol.INITIALIZE_DRIVER, driverYaml.getBytes(StandardCharsets.UTF_8));
        speaksOmbTx = send(WorkerProtocol.PROGRESS, null, timeout).status() != 404;
    }

    @Override
    public List<String> createTopics(int count, int partitions) throws Exception {
        JsonNode names = JSON.readTree(post(WorkerProtocol.CREATE_TOPICS,
                json(Map.of("numberOfTopics", count, "numberOfPartitionsPerTopic", partitions))));
        List<String> topics = new ArrayList<>();
        names.forEach(n -> topics.add(n.asText()));
        return topics;
    }

    @Override
    public void createProducers(List<String> topics) throws Exception {
        post(WorkerProtocol.CREATE_PRODUCERS, json(topics));
    }

    @Override
    public void createConsumers(List<TopicSubscription> subscriptions) throws Exception {
        List<Map<String, String>> list = new ArrayList<>();
        subscriptions.forEach(s -> list.add(Map.of("topic", s.topic(), "subscription", s.subscription())));
        post(WorkerProtocol.CREATE_CONSUMERS, json(Map.of("topicsSubscriptions", list)));
    }

    @Override
    public void probeProducers() throws Exception {
        post(WorkerProtocol.PROBE_PRODUCERS, new byte[0]);
    }

    @Override
    public void prefill(long messages, byte[] payload) throws Exception {
        send(WorkerProtocol.PREFILL, json(Map.of("messages", messages, "payload",
                Base64.getEncoder().encodeToString(payload))), timeout.plusMinutes(5)).check(WorkerProtocol.PREFILL);
    }

    @Override
    public void startLoad(LoadSpec load) throws Exception {
        if (!speaksOmbTx && (load.loop() == io.ombtx.runner.config.LoopMode.CLOSED || load.measureOperations() > 0
                || load.warmupOperations() > 0)) {
            // A stock OMB worker would ignore these and run something else than the workload says.
            throw new WorkerException("worker " + baseUrl + " is a stock OMB worker: it runs open-loop, time-based"
                    + " workloads only, not closed loops or counted runs");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("payloadData", load.payloads()); // OMB: List<byte[]>, base64 in JSON
        body.put("publishRate", load.messagesPerSecond());
        body.put("keyDistributorType", load.keyDistributor().name());
        body.put("loop", load.loop().name());
        body.put("warmupOperations", load.warmupOperations());
        body.put("measureOperations", load.measureOperations());
        body.put("messagesPerOperation", load.messagesPerOperation());
        body.put("waitForConsume", load.waitForConsume());
        post(WorkerProtocol.START_LOAD, json(body));
    }

    @Override
    public void adjustRate(double messagesPerSecond) throws Exception {
        post(WorkerProtocol.ADJUST_PUBLISH_RATE, json(messagesPerSecond));
    }

    @Override
    public void pauseConsumers() throws Exception {
        post(WorkerProtocol.PAUSE_CONSUMERS, new byte[0]);
    }

    @Override
    public void resumeConsumers() throws Exception {
        post(WorkerProtocol.RESUME_CONSUMERS, new byte[0]);
    }

    @Override
    public StatsSnapshot periodStats() throws Exception {
        JsonNode body = JSON.readTree(get(WorkerProtocol.PERIOD_STATS));
        if (body.has(WorkerProtocol.OMB_TX_STATS)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> wire = JSON.convertValue(body.get(WorkerProtocol.OMB_TX_STATS), Map.class);
            return StatsSnapshot.fromWire(wire);
        }
        // A stock OMB worker: its PeriodStats fields.
        StatsSnapshot s = new StatsSnapshot();
        s.putCounter(StatsSnapshot.MESSAGES_SENT, body.path("messagesSent").asLong());
        s.putCounter(StatsSnapshot.PUBLISH_ERRORS, body.path("messageSendErrors").asLong());
        s.putCounter(StatsSnapshot.BYTES_SENT, body.path("bytesSent").asLong());
        s.putCounter(StatsSnapshot.MESSAGES_RECEIVED, body.path("messagesReceived").asLong());
        s.putCounter(StatsSnapshot.BYTES_RECEIVED, body.path("bytesReceived").asLong());
        s.putCounter(StatsSnapshot.OPERATIONS, body.path("messagesSent").asLong());
        putDecoded(s, StatsSnapshot.PUBLISH_LATENCY, body.path("publishLatency"));
        putDecoded(s, StatsSnapshot.PUBLISH_DELAY, body.path("publishDelayLatency"));
        putDecoded(s, StatsSnapshot.END_TO_END, body.path("endToEndLatency"));
        return s;
    }

    private static void putDecoded(StatsSnapshot s, String name, JsonNode data) {
        if (data.isTextual() && !data.asText().isEmpty()) {
            // OMB histograms have a different range and precision; re-record into ours so they merge.
            Histograms.decode(data.asText()).recordedValues().forEach(v ->
                    s.histogram(name).recordValueWithCount(Histograms.clamp(v.getValueIteratedTo()), v.getCountAtValueIteratedTo()));
        }
    }

    @Override
    public Progress progress() throws Exception {
        if (speaksOmbTx) {
            Reply reply = send(WorkerProtocol.PROGRESS, null, timeout);
            if (reply.status() != 404) {
                return JSON.readValue(reply.check(WorkerProtocol.PROGRESS), Progress.class);
            }
            speaksOmbTx = false;
        }
        JsonNode counters = JSON.readTree(get(WorkerProtocol.COUNTERS_STATS));
        long sent = counters.path("messagesSent").asLong();
        return new Progress(sent, sent, sent, counters.path("messagesReceived").asLong(), null);
    }

    @Override
    public void resetStats() throws Exception {
        post(WorkerProtocol.RESET_STATS, new byte[0]);
    }

    @Override
    public void stopAll() throws Exception {
        post(WorkerProtocol.STOP_ALL, new byte[0]);
    }

    @Override
    public Map<String, Object> environment() throws Exception {
        Reply reply = send(WorkerProtocol.ENVIRONMENT, null, timeout);
        if (reply.status() == 404) {
            return Map.of();
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> env = JSON.readValue(reply.check(WorkerProtocol.ENVIRONMENT), Map.class);
        return env;
    }

    @Override
    public ExactlyOnceReport verifyExactlyOnce(String topic, String subscription) throws Exception {
        byte[] reply = send(WorkerProtocol.VERIFY_EXACTLY_ONCE, json(Map.of("topic", topic, "subscription", subscription)),
                timeout.plusMinutes(5)).check(WorkerProtocol.VERIFY_EXACTLY_ONCE);
        return JSON.readValue(reply, ExactlyOnceReport.class);
    }

    @Override
    public void close() {
        try {
            send(WorkerProtocol.CLOSE, new byte[0], Duration.ofSeconds(30));
        } catch (Exception ignored) {
            // The worker may be gone already; nothing to release on this side.
        }
    }

    private record Reply(int status, byte[] body, String url) {
        byte[] check(String path) throws WorkerException {
            if (status != 200) {
                throw new WorkerException("worker " + url + " failed " + path + " (HTTP " + status + "): "
                        + new String(body, StandardCharsets.UTF_8));
            }
            return body;
        }
    }

    private byte[] post(String path, byte[] body) throws Exception {
        return send(path, body, timeout).check(path);
    }

    private byte[] get(String path) throws Exception {
        return send(path, null, timeout).check(path);
    }

    private Reply send(String path, byte[] body, Duration requestTimeout) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(requestTimeout);
        request = body == null ? request.GET()
                : request.POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("Content-Type", "application/json");
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(response.statusCode(), response.body(), baseUrl);
        } catch (ConnectException e) {
            throw new WorkerException("worker " + baseUrl + " is not reachable (" + path + "): connection refused");
        } catch (HttpTimeoutException e) {
            throw new WorkerException("worker " + baseUrl + " did not answer " + path + " within "
                    + requestTimeout.toSeconds() + " s");
        } catch (IOException e) {
            throw new WorkerException("worker " + baseUrl + " failed " + path + ": " + e.getMessage());
        }
    }

    private static byte[] json(Object value) throws IOException {
        return JSON.writeValueAsBytes(value);
    }
}

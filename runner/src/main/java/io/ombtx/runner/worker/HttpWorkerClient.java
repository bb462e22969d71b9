package io.ombtx.runner.worker;

import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.WorkerProtocol.Endpoint;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A remote worker ({@code bin/benchmark-worker}, or a stock OMB worker for plain workloads) driven over HTTP. Every
 * request has a time-out, so a worker that dies mid-run ends the run with an error instead of a hang.
 */
public final class HttpWorkerClient implements Worker {

    private static final int NOT_FOUND = 404;
    private static final int UNAUTHORIZED = 401;

    private final String baseUrl;
    private final Duration timeout;
    private final HttpClient http;
    private final WorkerToken token;
    private boolean speaksOmbTx = true;

    public HttpWorkerClient(String url, Duration timeout) {
        this(url, timeout, null);
    }

    /** @param token sent with every request when not null (a worker started without one ignores it) */
    public HttpWorkerClient(String url, Duration timeout, WorkerToken token) {
        this.token = token;
        this.baseUrl = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.timeout = timeout;
        this.http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    public String url() {
        return baseUrl;
    }

    @Override
    public void initializeDriver(String driverYaml, OperationSpec operation) throws Exception {
        boolean plain = operation.kind() == OperationKind.PUBLISH && !operation.transactional();
        if (!plain) {
            Reply reply = send(WorkerProtocol.CONFIGURE_OPERATION, operation, timeout);
            if (reply.status() == NOT_FOUND) {
                throw new WorkerException(notOmbTx(
                        WorkerProtocol.CONFIGURE_OPERATION,
                        "it can run plain publish workloads only, not " + operation.kind()
                                + (operation.transactional() ? " (transactional)" : "")));
            }
            reply.check(WorkerProtocol.CONFIGURE_OPERATION);
        }
        call(WorkerProtocol.INITIALIZE_DRIVER, driverYaml);
        speaksOmbTx = send(WorkerProtocol.PROGRESS, null, timeout).status() != NOT_FOUND;
    }

    /**
     * What a worker that answered {@code endpoint} (an omb-tx endpoint) with 404 is: a stock OMB worker when it
     * serves OMB's {@code GET /counters-stats} (a JSON object with {@code messagesSent}, as OMB's WorkerHandler
     * answers it at any time), and then {@code whatStockOmbCannot} is said; else something that is no worker.
     */
    private String notOmbTx(Endpoint<?, ?> endpoint, String whatStockOmbCannot) throws Exception {
        Reply counters = send(WorkerProtocol.COUNTERS_STATS, null, timeout);
        boolean omb = false;
        if (counters.status() == 200) {
            try {
                omb = WorkerProtocol.JSON.readTree(counters.body()).has("messagesSent");
            } catch (IOException notJson) {
                omb = false;
            }
        }
        return omb
                ? "worker " + baseUrl + " is a stock OMB worker: " + whatStockOmbCannot
                : "worker " + baseUrl + " does not speak OMB's worker protocol (" + endpoint.path() + " answered"
                        + " HTTP 404, " + WorkerProtocol.COUNTERS_STATS.path() + " HTTP " + counters.status()
                        + (counters.status() == 200 ? " but not OMB's counters" : "") + "): is the URL a worker's?";
    }

    @Override
    public List<String> createTopics(int count, int partitions) throws Exception {
        return call(WorkerProtocol.CREATE_TOPICS, new WorkerProtocol.TopicsInfo(count, partitions));
    }

    @Override
    public List<String> createTopics(int count, int partitions, String runId) throws Exception {
        return call(WorkerProtocol.CREATE_TOPICS, new WorkerProtocol.TopicsInfo(count, partitions, runId));
    }

    @Override
    public void createProducers(List<String> topics) throws Exception {
        call(WorkerProtocol.CREATE_PRODUCERS, topics);
    }

    @Override
    public void createConsumers(List<TopicSubscription> subscriptions) throws Exception {
        call(WorkerProtocol.CREATE_CONSUMERS, new WorkerProtocol.ConsumerAssignment(subscriptions));
    }

    @Override
    public void prefill(long messages, byte[] payload) throws Exception {
        send(WorkerProtocol.PREFILL, new WorkerProtocol.PrefillRequest(messages, payload), timeout.plusMinutes(5))
                .check(WorkerProtocol.PREFILL);
    }

    @Override
    public void startLoad(LoadSpec load) throws Exception {
        if (!speaksOmbTx
                && (load.loop() == LoopMode.CLOSED || load.measureOperations() > 0 || load.warmupOperations() > 0)) {
            // A stock OMB worker would ignore these and run something else than the workload says.
            throw new WorkerException("worker " + baseUrl + " is a stock OMB worker: it runs open-loop, time-based"
                    + " workloads only, not closed loops or counted runs");
        }
        if (!speaksOmbTx && !(load.messagesPerSecond() > 0)) {
            // It would answer HTTP 500 (its rate limiter takes no rate of 0); WorkerGroup sends it no load instead.
            throw new WorkerException("worker " + baseUrl + " is a stock OMB worker: it takes a load only at a rate"
                    + " above 0 msg/s, not " + load.messagesPerSecond());
        }
        call(WorkerProtocol.START_LOAD, load);
    }

    @Override
    public void run(Command command) throws Exception {
        call(WorkerProtocol.endpoint(command), null);
    }

    @Override
    public void adjustRate(double messagesPerSecond) throws Exception {
        call(WorkerProtocol.ADJUST_PUBLISH_RATE, messagesPerSecond);
    }

    @Override
    public StatsSnapshot periodStats() throws Exception {
        WorkerProtocol.PeriodStats body = call(WorkerProtocol.PERIOD_STATS, null);
        if (body.ombTx() != null) {
            return StatsSnapshot.fromWire(body.ombTx());
        }
        // A stock OMB worker: its PeriodStats fields.
        StatsSnapshot s = new StatsSnapshot();
        s.put(Counter.MESSAGES_SENT, body.messagesSent());
        s.put(Counter.PUBLISH_ERRORS, body.messageSendErrors());
        s.put(Counter.BYTES_SENT, body.bytesSent());
        s.put(Counter.MESSAGES_RECEIVED, body.messagesReceived());
        s.put(Counter.BYTES_RECEIVED, body.bytesReceived());
        s.put(Counter.OPERATIONS, body.messagesSent());
        putDecoded(s, Latency.PUBLISH_LATENCY, body.publishLatency());
        putDecoded(s, Latency.PUBLISH_DELAY, body.publishDelayLatency());
        putDecoded(s, Latency.END_TO_END, body.endToEndLatency());
        return s;
    }

    private static void putDecoded(StatsSnapshot s, Latency latency, String data) {
        if (data != null && !data.isEmpty()) {
            // OMB histograms have a different range and precision; re-record into ours so they merge.
            Histograms.decode(data).recordedValues().forEach(v -> s.histogram(latency)
                    .recordValueWithCount(Histograms.clamp(v.getValueIteratedTo()), v.getCountAtValueIteratedTo()));
        }
    }

    @Override
    public Progress progress() throws Exception {
        if (speaksOmbTx) {
            Reply reply = send(WorkerProtocol.PROGRESS, null, timeout);
            if (reply.status() != NOT_FOUND) {
                return reply.read(WorkerProtocol.PROGRESS);
            }
            speaksOmbTx = false;
        }
        WorkerProtocol.CountersStats counters = call(WorkerProtocol.COUNTERS_STATS, null);
        long sent = counters.messagesSent();
        return new Progress(sent, sent, sent, counters.messagesReceived(), null);
    }

    @Override
    public Map<String, Object> environment() throws Exception {
        Reply reply = send(WorkerProtocol.ENVIRONMENT, null, timeout);
        return reply.status() == NOT_FOUND ? Map.of() : reply.read(WorkerProtocol.ENVIRONMENT);
    }

    @Override
    public ExactlyOnceReport verifyExactlyOnce(String topic, String subscription) throws Exception {
        return send(
                        WorkerProtocol.VERIFY_EXACTLY_ONCE,
                        new TopicSubscription(topic, subscription),
                        timeout.plusMinutes(5))
                .read(WorkerProtocol.VERIFY_EXACTLY_ONCE);
    }

    @Override
    public ClientFaults.Report clientFault(ClientFaults.Request request) throws Exception {
        // A kill, stop or pause returns once the client reached its next transaction's decision point.
        return send(WorkerProtocol.CLIENT_FAULT, request, timeout.plusMinutes(5))
                .read(WorkerProtocol.CLIENT_FAULT);
    }

    @Override
    public void startLiveCheck(String topic, String subscription) throws Exception {
        call(WorkerProtocol.START_LIVE_CHECK, new TopicSubscription(topic, subscription));
    }

    @Override
    public LiveCheckReport stopLiveCheck(String topic, String subscription) throws Exception {
        return send(WorkerProtocol.STOP_LIVE_CHECK, new TopicSubscription(topic, subscription), timeout.plusMinutes(5))
                .read(WorkerProtocol.STOP_LIVE_CHECK);
    }

    @Override
    public List<io.ombtx.runner.log.ClientWarnings.Summary> clientWarnings() throws Exception {
        Reply reply = send(WorkerProtocol.CLIENT_WARNINGS, null, timeout);
        if (reply.status() == NOT_FOUND) {
            return List.of(); // a stock OMB worker
        }
        WorkerProtocol.ClientWarningsReply warnings = reply.read(WorkerProtocol.CLIENT_WARNINGS);
        // A worker in this very process shares its tally with the coordinator's: counted once, there.
        return warnings.pid() == ProcessHandle.current().pid() ? List.of() : warnings.warnings();
    }

    @Override
    public io.ombtx.runner.stats.CpuMeter.Sample cpuSample() throws Exception {
        Reply reply = send(WorkerProtocol.CPU, null, timeout);
        return reply.status() == NOT_FOUND ? null : reply.read(WorkerProtocol.CPU);
    }

    @Override
    public void close() {
        try {
            send(WorkerProtocol.CLOSE, null, Duration.ofSeconds(30));
        } catch (Exception ignored) {
            // The worker may be gone already; nothing to release on this side.
        }
    }

    private record Reply(int status, byte[] body, String url) {
        byte[] check(Endpoint<?, ?> endpoint) throws WorkerException {
            if (status != 200) {
                throw new WorkerException("worker " + url + " failed " + endpoint.path() + " (HTTP " + status + "): "
                        + new String(body, StandardCharsets.UTF_8));
            }
            return body;
        }

        <R> R read(Endpoint<?, R> endpoint) throws IOException, WorkerException {
            byte[] data = check(endpoint);
            if (endpoint.reply() == null) {
                return null;
            }
            if (data.length == 0) {
                throw new WorkerException("worker " + url + " sent an empty reply to " + endpoint.path());
            }
            try {
                return WorkerProtocol.JSON.readValue(data, endpoint.reply());
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                throw new WorkerException("worker " + url + " answered " + endpoint.path() + " with HTTP 200 but"
                        + " not the JSON the worker protocol has there (it begins '" + opening(data) + "'): is the"
                        + " URL a worker's?");
            }
        }
    }

    /** The first characters of a reply, printable, for an error message. */
    static String opening(byte[] data) {
        String text = new String(data, 0, Math.min(data.length, 60), StandardCharsets.UTF_8);
        return text.replaceAll("[\\p{Cntrl}]+", " ").strip() + (data.length > 60 ? "…" : "");
    }

    private <Q, R> R call(Endpoint<Q, R> endpoint, Q body) throws Exception {
        return send(endpoint, body, timeout).read(endpoint);
    }

    private <Q> Reply send(Endpoint<Q, ?> endpoint, Q body, Duration requestTimeout) throws Exception {
        String path = endpoint.path();
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(requestTimeout);
        if (endpoint.get()) {
            request.GET();
        } else {
            byte[] bytes = body == null
                    ? new byte[0]
                    : body instanceof String text
                            ? text.getBytes(StandardCharsets.UTF_8)
                            : WorkerProtocol.JSON.writeValueAsBytes(body);
            request.POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header(WorkerToken.HEADER, token.headerValue());
        }
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() == UNAUTHORIZED) {
                throw new WorkerException("worker " + baseUrl + " refused " + path + " (HTTP 401): "
                        + (token == null
                                ? "it was started with a token; give bin/benchmark the same one (--token-file FILE,"
                                        + " or the environment variable " + WorkerToken.ENV + ")"
                                : "the token given is not the worker's"));
            }
            return new Reply(response.statusCode(), response.body(), baseUrl);
        } catch (ConnectException e) {
            throw new WorkerException("worker " + baseUrl + " is not reachable (" + path + "): connection refused");
        } catch (HttpTimeoutException e) {
            throw new WorkerException(
                    "worker " + baseUrl + " did not answer " + path + " within " + requestTimeout.toSeconds() + " s");
        } catch (IOException e) {
            throw new WorkerException("worker " + baseUrl + " failed " + path + ": " + e.getMessage());
        }
    }
}

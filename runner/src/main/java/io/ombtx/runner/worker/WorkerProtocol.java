package io.ombtx.runner.worker;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.stats.StatsSnapshot;
import java.util.List;
import java.util.Map;

/**
 * OMB's worker HTTP endpoints, plus omb-tx's extensions under {@code /omb-tx/}, each with the types of its request
 * and reply bodies. {@link HttpWorkerClient} and {@link WorkerServer} both use these, so a field name exists in one
 * place. Bodies are JSON except {@code /initialize-driver}, which carries the driver YAML as is. Unknown fields are
 * ignored, as stock OMB does, so plain workloads run with either kind of coordinator and worker.
 */
public final class WorkerProtocol {

    /** The JSON mapping both ends use. */
    public static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /**
     * One endpoint.
     *
     * @param path the URL path
     * @param get read with GET (no request body); otherwise POST
     * @param request the request body's type (null: none; {@code String}: raw text)
     * @param reply the reply body's type (null: none)
     */
    public record Endpoint<Q, R>(String path, boolean get, JavaType request, JavaType reply) {}

    /** The driver YAML travels as plain text: a {@code String} request body is never JSON-encoded. */
    public static final Endpoint<String, Void> INITIALIZE_DRIVER =
            new Endpoint<>("/initialize-driver", false, type(String.class), null);

    public static final Endpoint<TopicsInfo, List<String>> CREATE_TOPICS =
            post("/create-topics", type(TopicsInfo.class), type(new TypeReference<List<String>>() {}));
    public static final Endpoint<List<String>, Void> CREATE_PRODUCERS =
            post("/create-producers", type(new TypeReference<List<String>>() {}), null);
    public static final Endpoint<Void, Void> PROBE_PRODUCERS = post("/probe-producers", null, null);
    public static final Endpoint<ConsumerAssignment, Void> CREATE_CONSUMERS =
            post("/create-consumers", type(ConsumerAssignment.class), null);
    public static final Endpoint<Void, Void> PAUSE_CONSUMERS = post("/pause-consumers", null, null);
    public static final Endpoint<Void, Void> RESUME_CONSUMERS = post("/resume-consumers", null, null);
    public static final Endpoint<LoadSpec, Void> START_LOAD = post("/start-load", type(LoadSpec.class), null);
    public static final Endpoint<Double, Void> ADJUST_PUBLISH_RATE =
            post("/adjust-publish-rate", type(Double.class), null);
    public static final Endpoint<Void, Void> STOP_ALL = post("/stop-all", null, null);
    public static final Endpoint<Void, Void> RESET_STATS = post("/reset-stats", null, null);
    public static final Endpoint<Void, PeriodStats> PERIOD_STATS = get("/period-stats", PeriodStats.class);
    public static final Endpoint<Void, CumulativeLatencies> CUMULATIVE_LATENCIES =
            get("/cumulative-latencies", CumulativeLatencies.class);
    public static final Endpoint<Void, CountersStats> COUNTERS_STATS = get("/counters-stats", CountersStats.class);

    /** omb-tx: the operation to configure at the next {@code /initialize-driver}. */
    public static final Endpoint<OperationSpec, Void> CONFIGURE_OPERATION =
            post("/omb-tx/configure-operation", type(OperationSpec.class), null);

    public static final Endpoint<PrefillRequest, Void> PREFILL =
            post("/omb-tx/prefill", type(PrefillRequest.class), null);
    public static final Endpoint<Void, Worker.Progress> PROGRESS = get("/omb-tx/progress", Worker.Progress.class);
    public static final Endpoint<Void, io.ombtx.runner.stats.CpuMeter.Sample> CPU =
            get("/omb-tx/cpu", io.ombtx.runner.stats.CpuMeter.Sample.class);
    public static final Endpoint<Void, ClientWarningsReply> CLIENT_WARNINGS =
            get("/omb-tx/client-warnings", ClientWarningsReply.class);

    /**
     * What the client library warned in a worker's process since its driver was initialized, and which process that
     * is: a worker serving in the coordinator's own JVM (tests, a local child) shares its tally, already counted.
     */
    public record ClientWarningsReply(long pid, List<io.ombtx.runner.log.ClientWarnings.Summary> warnings) {}

    public static final Endpoint<Void, Map<String, Object>> ENVIRONMENT =
            new Endpoint<>("/omb-tx/environment", true, null, type(new TypeReference<Map<String, Object>>() {}));
    public static final Endpoint<Worker.TopicSubscription, ExactlyOnceReport> VERIFY_EXACTLY_ONCE =
            post("/omb-tx/verify-exactly-once", type(Worker.TopicSubscription.class), type(ExactlyOnceReport.class));
    public static final Endpoint<Worker.TopicSubscription, Void> START_LIVE_CHECK =
            post("/omb-tx/start-live-check", type(Worker.TopicSubscription.class), null);
    public static final Endpoint<Worker.TopicSubscription, LiveCheckReport> STOP_LIVE_CHECK =
            post("/omb-tx/stop-live-check", type(Worker.TopicSubscription.class), type(LiveCheckReport.class));
    public static final Endpoint<Void, Void> CLOSE = post("/omb-tx/close", null, null);
    public static final Endpoint<ClientFaults.Request, ClientFaults.Report> CLIENT_FAULT =
            post("/omb-tx/client-fault", type(ClientFaults.Request.class), type(ClientFaults.Report.class));

    /**
     * OMB's {@code TopicsInfo}, and omb-tx's {@code runId}: the planned run's id, which the topic names carry (absent,
     * from a stock OMB coordinator: the worker draws one).
     */
    public record TopicsInfo(
            int numberOfTopics,
            int numberOfPartitionsPerTopic,
            @JsonInclude(JsonInclude.Include.NON_NULL) String runId) {

        public TopicsInfo(int numberOfTopics, int numberOfPartitionsPerTopic) {
            this(numberOfTopics, numberOfPartitionsPerTopic, null);
        }
    }

    /** OMB's {@code ConsumerAssignment}. */
    public record ConsumerAssignment(List<Worker.TopicSubscription> topicsSubscriptions) {}

    /** omb-tx: fill a STREAM source. */
    public record PrefillRequest(long messages, byte[] payload) {}

    /**
     * OMB's {@code PeriodStats} (histograms as base64 compressed HdrHistograms), plus omb-tx's complete snapshot
     * under {@code ombTx}, absent from a stock OMB worker's reply.
     */
    public record PeriodStats(
            long messagesSent,
            long messageSendErrors,
            long bytesSent,
            long messagesReceived,
            long bytesReceived,
            long totalMessagesSent,
            long totalMessageSendErrors,
            long totalMessagesReceived,
            String publishLatency,
            String publishDelayLatency,
            String endToEndLatency,
            StatsSnapshot.Wire ombTx) {}

    /** OMB's {@code CumulativeLatencies}. */
    public record CumulativeLatencies(String publishLatency, String publishDelayLatency, String endToEndLatency) {}

    /** OMB's {@code CountersStats}. */
    public record CountersStats(long messagesSent, long messagesReceived, long messageSendErrors) {}

    private WorkerProtocol() {}

    /** The endpoint of a step that carries no data. */
    public static Endpoint<Void, Void> endpoint(Worker.Command command) {
        return switch (command) {
            case PROBE_PRODUCERS -> PROBE_PRODUCERS;
            case PAUSE_CONSUMERS -> PAUSE_CONSUMERS;
            case RESUME_CONSUMERS -> RESUME_CONSUMERS;
            case RESET_STATS -> RESET_STATS;
            case STOP_ALL -> STOP_ALL;
        };
    }

    private static JavaType type(Class<?> type) {
        return JSON.constructType(type);
    }

    private static JavaType type(TypeReference<?> type) {
        return JSON.getTypeFactory().constructType(type);
    }

    private static <Q, R> Endpoint<Q, R> post(String path, JavaType request, JavaType reply) {
        return new Endpoint<>(path, false, request, reply);
    }

    private static <R> Endpoint<Void, R> get(String path, Class<R> reply) {
        return new Endpoint<>(path, true, null, type(reply));
    }
}

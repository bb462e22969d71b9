package io.ombtx.runner.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.config.KeyDistributorType;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.stats.StatsSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.HdrHistogram.Histogram;

/**
 * {@code bin/benchmark-worker}: serves OMB's worker protocol over HTTP for a {@link LocalWorker}, so an OMB or
 * omb-tx coordinator can drive it. One run at a time; a new {@code /initialize-driver} starts afresh.
 */
public final class WorkerServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private LocalWorker worker = new LocalWorker();
    private OperationSpec pendingOperation = OperationSpec.publish();
    private final StatsSnapshot cumulative = new StatsSnapshot();

    public WorkerServer(String bindAddress, int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bindAddress, port), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        route(WorkerProtocol.CONFIGURE_OPERATION, body -> {
            JsonNode n = JSON.readTree(body);
            pendingOperation = new OperationSpec(OperationKind.valueOf(n.path("kind").asText("PUBLISH")),
                    n.path("transactional").asBoolean(), n.path("messagesPerOperation").asInt(1),
                    n.path("partitionsPerOperation").asInt(1), n.path("sendOffsets").asBoolean(),
                    n.path("readCommitted").asBoolean());
            return null;
        });
        route(WorkerProtocol.INITIALIZE_DRIVER, body -> {
            worker.close();
            worker = new LocalWorker();
            cumulative.clear();
            worker.initializeDriver(new String(body, StandardCharsets.UTF_8), pendingOperation);
            pendingOperation = OperationSpec.publish();
            return null;
        });
        route(WorkerProtocol.CREATE_TOPICS, body -> {
            JsonNode n = JSON.readTree(body);
            return worker.createTopics(n.path("numberOfTopics").asInt(), n.path("numberOfPartitionsPerTopic").asInt());
        });
        route(WorkerProtocol.CREATE_PRODUCERS, body -> {
            worker.createProducers(JSON.readValue(body, JSON.getTypeFactory().constructCollectionType(List.class, String.class)));
            return null;
        });
        route(WorkerProtocol.PROBE_PRODUCERS, body -> {
            worker.probeProducers();
            return null;
        });
        route(WorkerProtocol.CREATE_CONSUMERS, body -> {
            List<Worker.TopicSubscription> subscriptions = new ArrayList<>();
            for (JsonNode s : JSON.readTree(body).path("topicsSubscriptions")) {
                subscriptions.add(new Worker.TopicSubscription(s.path("topic").asText(), s.path("subscription").asText()));
            }
            worker.createConsumers(subscriptions);
            return null;
        });
        route(WorkerProtocol.PREFILL, body -> {
            JsonNode n = JSON.readTree(body);
            worker.prefill(n.path("messages").asLong(), Base64.getDecoder().decode(n.path("payload").asText()));
            return null;
        });
        route(WorkerProtocol.START_LOAD, body -> {
            JsonNode n = JSON.readTree(body);
            List<byte[]> payloads = new ArrayList<>();
            for (JsonNode p : n.path("payloadData")) {
                payloads.add(p.binaryValue());
            }
            worker.startLoad(new LoadSpec(
                    LoopMode.valueOf(n.path("loop").asText("OPEN")),
                    n.path("publishRate").asDouble(),
                    payloads,
                    KeyDistributorType.valueOf(n.path("keyDistributorType").asText("NO_KEY")),
                    n.path("warmupOperations").asLong(0),
                    n.path("measureOperations").asLong(0),
                    n.path("messagesPerOperation").asInt(1),
                    n.path("waitForConsume").asBoolean(false)));
            return null;
        });
        route(WorkerProtocol.ADJUST_PUBLISH_RATE, body -> {
            worker.adjustRate(JSON.readTree(body).asDouble());
            return null;
        });
        route(WorkerProtocol.PAUSE_CONSUMERS, body -> {
            worker.pauseConsumers();
            return null;
        });
        route(WorkerProtocol.RESUME_CONSUMERS, body -> {
            worker.resumeConsumers();
            return null;
        });
        route(WorkerProtocol.STOP_ALL, body -> {
            worker.stopAll();
            return null;
        });
        route(WorkerProtocol.RESET_STATS, body -> {
            worker.resetStats();
            cumulative.clear();
            return null;
        });
        route(WorkerProtocol.PERIOD_STATS, body -> periodStats());
        route(WorkerProtocol.CUMULATIVE_LATENCIES, body -> {
            Map<String, Object> latencies = new LinkedHashMap<>();
            putOmbHistograms(latencies, cumulative);
            return latencies;
        });
        route(WorkerProtocol.COUNTERS_STATS, body -> {
            Worker.Progress p = worker.progress();
            return Map.of("messagesSent", p.messagesSent(), "messagesReceived", p.messagesReceived(),
                    "messageSendErrors", cumulative.counter(StatsSnapshot.PUBLISH_ERRORS));
        });
        route(WorkerProtocol.PROGRESS, body -> worker.progress());
        route(WorkerProtocol.ENVIRONMENT, body -> worker.environment());
        route(WorkerProtocol.VERIFY_EXACTLY_ONCE, body -> {
            JsonNode n = JSON.readTree(body);
            ExactlyOnceReport r = worker.verifyExactlyOnce(n.path("topic").asText(), n.path("subscription").asText());
            return r;
        });
        route(WorkerProtocol.CLOSE, body -> {
            worker.close();
            worker = new LocalWorker();
            return null;
        });
    }

    /** OMB's PeriodStats fields, plus omb-tx's complete snapshot under {@code ombTx}. */
    private Map<String, Object> periodStats() {
        StatsSnapshot s = worker.periodStats();
        cumulative.add(s);
        Worker.Progress totals = worker.progress();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("messagesSent", s.counter(StatsSnapshot.MESSAGES_SENT));
        body.put("messageSendErrors", s.counter(StatsSnapshot.PUBLISH_ERRORS));
        body.put("bytesSent", s.counter(StatsSnapshot.BYTES_SENT));
        body.put("messagesReceived", s.counter(StatsSnapshot.MESSAGES_RECEIVED));
        body.put("bytesReceived", s.counter(StatsSnapshot.BYTES_RECEIVED));
        body.put("totalMessagesSent", totals.messagesSent());
        body.put("totalMessageSendErrors", cumulative.counter(StatsSnapshot.PUBLISH_ERRORS));
        body.put("totalMessagesReceived", totals.messagesReceived());
        putOmbHistograms(body, s);
        body.put(WorkerProtocol.OMB_TX_STATS, s.toWire());
        return body;
    }

    private static void putOmbHistograms(Map<String, Object> body, StatsSnapshot s) {
        body.put("publishLatency", encoded(s.histogram(StatsSnapshot.PUBLISH_LATENCY)));
        body.put("publishDelayLatency", encoded(s.histogram(StatsSnapshot.PUBLISH_DELAY)));
        body.put("endToEndLatency", encoded(s.histogram(StatsSnapshot.END_TO_END)));
    }

    private static String encoded(Histogram h) {
        return io.ombtx.runner.stats.Histograms.encode(h);
    }

    private interface Handler {
        Object handle(byte[] body) throws Exception;
    }

    private void route(String path, Handler handler) {
        server.createContext(path, exchange -> {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                Object reply;
                synchronized (this) {
                    reply = handler.handle(body);
                }
                respond(exchange, 200, reply == null ? new byte[0] : JSON.writeValueAsBytes(reply));
            } catch (Exception e) {
                String message = e.getMessage() == null ? e.toString() : e.getMessage();
                respond(exchange, 500, message.getBytes(StandardCharsets.UTF_8));
            }
        });
    }

    private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", status == 200 ? "application/json" : "text/plain");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    public WorkerServer start() {
        server.start();
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        worker.close();
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}

package io.ombtx.runner.worker;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.metrics.LiveMetrics;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * {@code bin/benchmark-worker}: serves OMB's worker protocol over HTTP for a {@link LocalWorker}, so an OMB or
 * omb-tx coordinator can drive it. One run at a time; a new {@code /initialize-driver} starts afresh. Started with a
 * {@link WorkerToken}, it answers 401 to every request that does not carry it, before reading the request.
 */
public final class WorkerServer implements AutoCloseable {

    private final HttpServer server;
    private volatile LocalWorker worker = new LocalWorker();
    private OperationSpec pendingOperation = OperationSpec.publish();
    private final StatsSnapshot cumulative = new StatsSnapshot();
    private final WorkerToken token;
    /** Fed from the coordinator's requests; null: no live metrics. */
    private final WorkerMetrics metrics;
    /** What the client library warned in this process since the last {@code /initialize-driver}. */
    private volatile io.ombtx.runner.log.ClientWarnings.Window warnings;

    /** A worker that serves anyone who can reach it (stock OMB's way). */
    public WorkerServer(String bindAddress, int port) throws IOException {
        this(bindAddress, port, null);
    }

    /** @param token the token every request must carry; null: none asked */
    public WorkerServer(String bindAddress, int port, WorkerToken token) throws IOException {
        this(bindAddress, port, token, null);
    }

    /**
     * @param token the token every request must carry; null: none asked
     * @param liveMetrics the live metrics to feed from the coordinator's requests ({@code --metrics-port}); null: none
     */
    public WorkerServer(String bindAddress, int port, WorkerToken token, LiveMetrics liveMetrics) throws IOException {
        this.token = token;
        this.metrics = liveMetrics == null ? null : new WorkerMetrics(liveMetrics);
        server = HttpServer.create(new InetSocketAddress(bindAddress, port), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        act(WorkerProtocol.CONFIGURE_OPERATION, operation -> pendingOperation = operation);
        route(WorkerProtocol.INITIALIZE_DRIVER, yaml -> {
            worker.close();
            worker = new LocalWorker();
            cumulative.clear();
            if (warnings != null) {
                warnings.close();
            }
            warnings = io.ombtx.runner.log.ClientWarnings.global().open();
            worker.initializeDriver(yaml, pendingOperation);
            pendingOperation = OperationSpec.publish();
            if (metrics != null) {
                metrics.driverInitialized(yaml);
            }
            return null;
        });
        route(WorkerProtocol.CREATE_TOPICS, info -> {
            List<String> topics = info.runId() == null
                    ? worker.createTopics(info.numberOfTopics(), info.numberOfPartitionsPerTopic())
                    : worker.createTopics(info.numberOfTopics(), info.numberOfPartitionsPerTopic(), info.runId());
            if (metrics != null) {
                metrics.topicsCreated(info.runId());
            }
            return topics;
        });
        act(WorkerProtocol.CREATE_PRODUCERS, topics -> worker.createProducers(topics));
        act(WorkerProtocol.CREATE_CONSUMERS, assignment -> worker.createConsumers(assignment.topicsSubscriptions()));
        act(WorkerProtocol.PREFILL, prefill -> worker.prefill(prefill.messages(), prefill.payload()));
        act(WorkerProtocol.START_LOAD, load -> {
            worker.startLoad(load);
            if (metrics != null) {
                metrics.loadStarted(load);
            }
        });
        act(WorkerProtocol.ADJUST_PUBLISH_RATE, rate -> worker.adjustRate(rate));
        for (Worker.Command command : Worker.Command.values()) {
            act(WorkerProtocol.endpoint(command), none -> {
                worker.run(command);
                if (command == Worker.Command.RESET_STATS) {
                    cumulative.clear();
                }
                if (metrics != null && command == Worker.Command.RESET_STATS) {
                    metrics.statsReset();
                } else if (metrics != null && command == Worker.Command.STOP_ALL) {
                    metrics.stopped();
                }
            });
        }
        route(WorkerProtocol.PERIOD_STATS, none -> periodStats());
        route(
                WorkerProtocol.CUMULATIVE_LATENCIES,
                none -> new WorkerProtocol.CumulativeLatencies(
                        encoded(cumulative, Latency.PUBLISH_LATENCY),
                        encoded(cumulative, Latency.PUBLISH_DELAY),
                        encoded(cumulative, Latency.END_TO_END)));
        route(WorkerProtocol.COUNTERS_STATS, none -> {
            Worker.Progress p = worker.progress();
            return new WorkerProtocol.CountersStats(
                    p.messagesSent(), p.messagesReceived(), cumulative.counter(Counter.PUBLISH_ERRORS));
        });
        route(WorkerProtocol.PROGRESS, none -> worker.progress());
        route(WorkerProtocol.CPU, none -> io.ombtx.runner.stats.CpuMeter.sample(), false);
        route(
                WorkerProtocol.CLIENT_WARNINGS,
                none -> new WorkerProtocol.ClientWarningsReply(
                        ProcessHandle.current().pid(), warnings == null ? List.of() : warnings.snapshot()),
                false);
        route(WorkerProtocol.ENVIRONMENT, none -> worker.environment());
        route(WorkerProtocol.VERIFY_EXACTLY_ONCE, s -> worker.verifyExactlyOnce(s.topic(), s.subscription()));
        // Not under the server's lock: a client fault waits for the client (its next transaction, a new instance's
        // initTransactions) while the coordinator keeps polling this worker's progress and statistics.
        route(WorkerProtocol.CLIENT_FAULT, request -> worker.clientFault(request), false);
        route(WorkerProtocol.START_LIVE_CHECK, s -> {
            worker.startLiveCheck(s.topic(), s.subscription());
            return null;
        });
        route(WorkerProtocol.STOP_LIVE_CHECK, s -> worker.stopLiveCheck(s.topic(), s.subscription()));
        route(WorkerProtocol.CLOSE, none -> {
            worker.close();
            worker = new LocalWorker();
            return null;
        });
    }

    /** OMB's PeriodStats fields, plus omb-tx's complete snapshot. */
    private WorkerProtocol.PeriodStats periodStats() {
        StatsSnapshot s = worker.periodStats();
        cumulative.add(s);
        if (metrics != null) {
            metrics.period(s);
        }
        Worker.Progress totals = worker.progress();
        return new WorkerProtocol.PeriodStats(
                s.counter(Counter.MESSAGES_SENT),
                s.counter(Counter.PUBLISH_ERRORS),
                s.counter(Counter.BYTES_SENT),
                s.counter(Counter.MESSAGES_RECEIVED),
                s.counter(Counter.BYTES_RECEIVED),
                totals.messagesSent(),
                cumulative.counter(Counter.PUBLISH_ERRORS),
                totals.messagesReceived(),
                encoded(s, Latency.PUBLISH_LATENCY),
                encoded(s, Latency.PUBLISH_DELAY),
                encoded(s, Latency.END_TO_END),
                s.toWire());
    }

    private static String encoded(StatsSnapshot s, Latency latency) {
        return Histograms.encode(s.histogram(latency));
    }

    private interface Handler<Q, R> {
        R handle(Q request) throws Exception;
    }

    private interface Action<Q> {
        void run(Q request) throws Exception;
    }

    /** An endpoint whose reply has no body. */
    private <Q> void act(WorkerProtocol.Endpoint<Q, Void> endpoint, Action<Q> action) {
        route(endpoint, request -> {
            action.run(request);
            return null;
        });
    }

    /**
     * Serves {@code endpoint}. A failure (an exception, or a linkage error such as a driver compiled against another
     * client release) is answered with 500 and its message, printed on this worker's console, and the exchange is
     * closed only after the answer is written: closing it first would leave the caller an empty reply.
     */
    private <Q, R> void route(WorkerProtocol.Endpoint<Q, R> endpoint, Handler<Q, R> handler) {
        route(endpoint, handler, true);
    }

    /** @param locked whether the request holds the server's lock (every endpoint but one that may wait long) */
    private <Q, R> void route(WorkerProtocol.Endpoint<Q, R> endpoint, Handler<Q, R> handler, boolean locked) {
        server.createContext(endpoint.path(), exchange -> {
            try {
                if (!admitted(exchange)) {
                    return;
                }
                int status;
                byte[] body;
                try {
                    Q request = decode(endpoint, exchange.getRequestBody().readAllBytes());
                    Object reply;
                    if (locked) {
                        synchronized (this) {
                            reply = handler.handle(request);
                        }
                    } else {
                        reply = handler.handle(request);
                    }
                    status = 200;
                    body = reply == null ? new byte[0] : WorkerProtocol.JSON.writeValueAsBytes(reply);
                } catch (Exception | LinkageError e) {
                    status = 500;
                    body = failure(endpoint, e).getBytes(StandardCharsets.UTF_8);
                }
                respond(exchange, status, body);
            } finally {
                exchange.close();
            }
        });
    }

    /**
     * Whether the request carries the token (or none is asked). One that does not is answered 401, unread, and
     * logged on the worker's console with where it came from.
     */
    private boolean admitted(HttpExchange exchange) throws IOException {
        if (token == null) {
            return true;
        }
        String header = exchange.getRequestHeaders().getFirst(WorkerToken.HEADER);
        if (token.admits(header)) {
            return true;
        }
        System.err.println("worker: refused " + exchange.getRequestMethod() + " "
                + exchange.getRequestURI().getPath() + " from "
                + exchange.getRemoteAddress().getAddress().getHostAddress() + ": "
                + (header == null ? "no worker token" : "a wrong worker token"));
        exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"omb-tx worker\"");
        respond(
                exchange,
                401,
                "this worker needs its token (Authorization: Bearer TOKEN): give the coordinator the worker's"
                        .concat(" --token-file, or set " + WorkerToken.ENV)
                        .getBytes(StandardCharsets.UTF_8));
        return false;
    }

    /** What a failed request answers: the first cause's type and message. Also printed on the worker's console. */
    static String failure(WorkerProtocol.Endpoint<?, ?> endpoint, Throwable error) {
        String message = error.getMessage() == null ? error.toString() : error.getMessage();
        if (error instanceof LinkageError) {
            message = error.getClass().getSimpleName() + ": " + message;
        }
        System.err.println("worker: " + endpoint.path() + " failed: " + message);
        return message;
    }

    @SuppressWarnings("unchecked")
    private static <Q> Q decode(WorkerProtocol.Endpoint<Q, ?> endpoint, byte[] body) throws IOException {
        if (endpoint.request() == null) {
            return null;
        }
        if (endpoint.request().getRawClass() == String.class) {
            return (Q) new String(body, StandardCharsets.UTF_8);
        }
        return WorkerProtocol.JSON.readValue(body, endpoint.request());
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

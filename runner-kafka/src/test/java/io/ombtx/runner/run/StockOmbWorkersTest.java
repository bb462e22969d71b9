package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.PlanOptions;
import io.ombtx.runner.plan.Planner;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.worker.HttpWorkerClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The omb-tx coordinator with workers that behave as stock OMB workers do: an HTTP server per worker that speaks only
 * OMB's endpoints (404 for omb-tx's), refuses what a stock worker refuses — a second {@code /initialize-driver}
 * before {@code /stop-all}, any step before the driver is initialized, a {@code /start-load} at a rate of 0 (HTTP
 * 500, {@code opsPerSec must be greater then 0}) — and answers OMB's JSON. Messages "travel" through a counter the
 * two workers share; each published message is reported with a 2 ms publish latency and a 5 ms end-to-end latency.
 *
 * <p>Its statistics follow OMB's {@code WorkerStats}: {@code /period-stats} hands out and clears the message counts
 * and the interval latencies, {@code /reset-stats} clears only the latencies (the counts go on accumulating until the
 * next {@code /period-stats}), and {@code /stop-all} clears everything, running totals included.
 */
@Tag("integration")
class StockOmbWorkersTest {

    private static final long PUBLISH_MICROS = 2_000;
    private static final long END_TO_END_MICROS = 5_000;

    @TempDir
    Path dir;

    private final List<FakeOmbWorker> workers = new ArrayList<>();

    @AfterEach
    void stop() {
        workers.forEach(w -> w.server.stop(0));
    }

    /** What a stock worker keeps between requests, and the calls it received. */
    static final class FakeOmbWorker {
        final HttpServer server;
        final AtomicLong wire;
        final List<String> calls = new ArrayList<>();
        final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        volatile String refuseStartLoad;
        /** How long {@code /stop-all} takes, as when a consumer's close runs into its time-out. */
        volatile Duration stopAllTakes = Duration.ZERO;

        boolean driver;
        int producers;
        int consumers;
        double rate;
        long loadNanos;
        // OMB's WorkerStats: running totals, counts since the last /period-stats, latencies since it or /reset-stats.
        long sentTotal;
        long receivedTotal;
        long sentInPeriod;
        long receivedInPeriod;
        long publishLatencies;
        long endToEndLatencies;
        /** Messages sent up to the last {@code /reset-stats}, and up to the last {@code /stop-all}. */
        long sentAtReset;

        long sentAtStop;
        /**
         * The running total at the first {@code /period-stats} after the last {@code /reset-stats} (-1 until then), and
         * at the last {@code /period-stats} while the driver was up (one after {@code /stop-all} changes neither).
         */
        long sentAtFirstStatsAfterReset = -1;

        long sentAtLastStats;

        FakeOmbWorker(AtomicLong wire) throws IOException {
            this.wire = wire;
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", this::handle);
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        synchronized List<String> paths() {
            return calls.stream().map(c -> c.split(" ")[1]).toList();
        }

        private void handle(HttpExchange exchange) throws IOException {
            if (exchange.getRequestURI().getPath().equals("/stop-all")) {
                try {
                    Thread.sleep(stopAllTakes.toMillis()); // the close being slow, not a wait for anything
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            synchronized (this) {
                handleNow(exchange);
            }
        }

        private void handleNow(HttpExchange exchange) throws IOException {
            try (exchange) {
                String path = exchange.getRequestURI().getPath();
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                calls.add(exchange.getRequestMethod() + " " + path + " " + body);
                try {
                    reply(exchange, 200, answer(exchange.getRequestMethod(), path, body));
                } catch (NotFound e) {
                    reply(exchange, 404, "Not found");
                } catch (RuntimeException e) {
                    reply(exchange, 500, e.getMessage());
                }
            }
        }

        private static final class NotFound extends RuntimeException {}

        private String answer(String method, String path, String body) throws IOException {
            boolean get = method.equals("GET");
            publish();
            if (!path.equals("/initialize-driver") && !path.equals("/stop-all") && !get && !driver) {
                throw new IllegalStateException("no driver: " + path + " before /initialize-driver");
            }
            switch (path) {
                case "/initialize-driver" -> {
                    if (driver) {
                        throw new IllegalArgumentException(); // OMB: Preconditions.checkArgument(benchmarkDriver ==
                        // null)
                    }
                    driver = true;
                    return "";
                }
                case "/create-topics" -> {
                    JsonNode info = json.readTree(body);
                    List<String> names = new ArrayList<>();
                    for (int i = 0; i < info.get("numberOfTopics").asInt(); i++) {
                        names.add("test-topic-" + i);
                    }
                    assertTrue(info.get("numberOfPartitionsPerTopic").asInt() > 0);
                    return json.writeValueAsString(names);
                }
                case "/create-producers" -> {
                    producers += json.readTree(body).size();
                    return "";
                }
                case "/create-consumers" -> {
                    consumers += json.readTree(body).get("topicsSubscriptions").size();
                    return "";
                }
                case "/probe-producers" -> {
                    wire.addAndGet(producers);
                    sentTotal += producers;
                    sentInPeriod += producers;
                    publishLatencies += producers;
                    return "";
                }
                case "/start-load" -> {
                    JsonNode load = json.readTree(body);
                    if (refuseStartLoad != null) {
                        throw new IllegalStateException(refuseStartLoad);
                    }
                    if (!(load.get("publishRate").asDouble() > 0)) {
                        throw new IllegalArgumentException("opsPerSec must be greater then 0"); // OMB's wording
                    }
                    assertFalse(load.get("payloadData").isEmpty());
                    rate = load.get("publishRate").asDouble();
                    loadNanos = System.nanoTime();
                    return "";
                }
                case "/adjust-publish-rate" -> {
                    rate = Double.parseDouble(body.trim());
                    return "";
                }
                case "/reset-stats" -> {
                    // OMB's LocalWorker.resetStats: WorkerStats.resetLatencies, the message counts are kept.
                    deliver();
                    sentAtReset = sentTotal;
                    sentAtFirstStatsAfterReset = -1;
                    publishLatencies = 0;
                    endToEndLatencies = 0;
                    return "";
                }
                case "/pause-consumers", "/resume-consumers" -> {
                    return "";
                }
                case "/stop-all" -> {
                    // OMB's LocalWorker.stopAll: WorkerStats.reset, totals included, then the clients are closed.
                    sentAtStop = sentTotal;
                    driver = false;
                    producers = 0;
                    consumers = 0;
                    rate = 0;
                    sentTotal = 0;
                    receivedTotal = 0;
                    sentInPeriod = 0;
                    receivedInPeriod = 0;
                    publishLatencies = 0;
                    endToEndLatencies = 0;
                    return "";
                }
                case "/counters-stats" -> {
                    deliver();
                    return json.writeValueAsString(Map.of(
                            "messagesSent", sentTotal, "messagesReceived", receivedTotal, "messageSendErrors", 0));
                }
                case "/period-stats" -> {
                    if (driver) {
                        if (sentAtFirstStatsAfterReset < 0) {
                            sentAtFirstStatsAfterReset = sentTotal;
                        }
                        sentAtLastStats = sentTotal;
                    }
                    return periodStats();
                }
                default -> throw new NotFound();
            }
        }

        /** Records what the producers sent, at the load's rate, since the last request: a worker sends all along. */
        private void publish() {
            if (rate > 0) {
                long sent = (long) (rate * (System.nanoTime() - loadNanos) / 1e9);
                loadNanos += (long) (sent / rate * 1e9);
                wire.addAndGet(sent);
                sentTotal += sent;
                sentInPeriod += sent;
                publishLatencies += sent;
            }
        }

        /**
         * Moves what is on the wire into this worker's consumers (if it has any). Both {@code /counters-stats} and
         * {@code /period-stats} do, in whatever order the coordinator asks; what arrived belongs to the period either
         * way, so it is kept until the next {@code /period-stats} takes it.
         */
        private long deliver() {
            long taken = consumers > 0 ? wire.getAndSet(0) : 0;
            receivedTotal += taken;
            receivedInPeriod += taken;
            endToEndLatencies += taken;
            return taken;
        }

        /** OMB's WorkerStats.toPeriodStats: the counts and interval latencies since the last call, then cleared. */
        private String periodStats() {
            deliver();
            long sent = sentInPeriod;
            long received = receivedInPeriod;
            long published = publishLatencies;
            long endToEnd = endToEndLatencies;
            sentInPeriod = 0;
            receivedInPeriod = 0;
            publishLatencies = 0;
            endToEndLatencies = 0;
            ObjectNode stats = json.createObjectNode()
                    .put("messagesSent", sent)
                    .put("messageSendErrors", 0)
                    .put("bytesSent", sent * 100)
                    .put("messagesReceived", received)
                    .put("bytesReceived", received * 100)
                    .put("totalMessagesSent", sentTotal)
                    .put("totalMessageSendErrors", 0)
                    .put("totalMessagesReceived", receivedTotal);
            stats.put("publishLatency", histogram(PUBLISH_MICROS, published, 60));
            stats.put("publishDelayLatency", histogram(0, published, 60));
            stats.put("endToEndLatency", histogram(END_TO_END_MICROS, endToEnd, 12 * 3600));
            return stats.toString();
        }

        /** An OMB histogram (its range, 5 digits) holding {@code count} values of {@code micros}, as OMB encodes it. */
        private static String histogram(long micros, long count, long highestSeconds) {
            Histogram h = new Histogram(highestSeconds * 1_000_000, 5);
            if (count > 0) {
                h.recordValueWithCount(micros, count);
            }
            ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            int length = h.encodeIntoCompressedByteBuffer(buffer);
            return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
        }

        private static void reply(HttpExchange exchange, int status, String text) throws IOException {
            byte[] bytes = text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
        }
    }

    private List<FakeOmbWorker> twoWorkers() throws IOException {
        AtomicLong wire = new AtomicLong();
        for (int i = 0; i < 2; i++) {
            workers.add(new FakeOmbWorker(wire));
        }
        return workers;
    }

    private RunCoordinator.Outcome run(String workload) throws Exception {
        return run(workload, 1);
    }

    private RunCoordinator.Outcome run(String workload, int reportingIntervalSeconds) throws Exception {
        Path driver = Files.writeString(
                dir.resolve("omb-kafka.yaml"),
                "name: Kafka\n"
                        + "driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver\n"
                        + "commonConfig: |\n  bootstrap.servers=h1:9092\n");
        Path file = Files.writeString(dir.resolve("w.yaml"), workload);
        RunSpec spec = Planner.plan(
                        List.of(DriverFile.load(driver)),
                        WorkloadLoader.load(file, null),
                        PlanOptions.builder()
                                .reportingIntervalSeconds(reportingIntervalSeconds)
                                .workerUrls(
                                        workers.stream().map(FakeOmbWorker::url).toList())
                                .teardownTimeoutSeconds(10)
                                .build())
                .get(0);
        RunCoordinator coordinator = new RunCoordinator(
                new RunOptions(dir.resolve("out"), null, false),
                new PrintStream(new ByteArrayOutputStream()),
                url -> new HttpWorkerClient(url, Duration.ofSeconds(10)),
                new Interruption());
        return coordinator.execute(spec, spec.driver(), RunResult.Broker.external(1, "h1:9092"));
    }

    private static final String PLAIN =
            """
            name: plain
            messageSize: 100
            producerRate: 1000
            warmupDurationSeconds: 1
            testDurationSeconds: 3
            """;

    @Test
    void aPlainRunCompletesAndTheConsumerOnlyWorkerIsNeverSentAZeroRateLoad() throws Exception {
        List<FakeOmbWorker> pair = twoWorkers();
        RunCoordinator.Outcome outcome = run(PLAIN);
        FakeOmbWorker producer = pair.get(0);
        FakeOmbWorker consumer = pair.get(1);
        assertTrue(
                outcome.complete(), outcome.result().partialReason() + "\n" + producer.calls + "\n" + consumer.calls);
        assertFalse(consumer.paths().contains("/start-load"), "consumer-only: " + consumer.calls);
        assertEquals(1, producer.paths().stream().filter("/start-load"::equals).count());
        String startLoad = producer.calls.stream()
                .filter(c -> c.startsWith("POST /start-load"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                1000.0,
                new ObjectMapper()
                        .readTree(startLoad.substring("POST /start-load ".length()))
                        .get("publishRate")
                        .asDouble());
        for (FakeOmbWorker worker : pair) {
            List<String> paths = worker.paths();
            assertTrue(paths.indexOf("/stop-all") > paths.indexOf("/initialize-driver"), worker.calls.toString());
        }
        RunResult r = outcome.result();
        assertTrue(r.consumeRate().stream().anyMatch(rate -> rate > 0), "consume rate " + r.consumeRate());
        assertEquals(END_TO_END_MICROS / 1000.0, r.aggregatedEndToEndLatency().p50(), 0.01);
        assertEquals(PUBLISH_MICROS / 1000.0, r.aggregatedPublishLatency().p50(), 0.01);
        assertTrue(r.counts().messagesReceived() > 0);

        // The stock workers were stopped, so the next run can initialize them again.
        assertTrue(run(PLAIN).complete());
    }

    private static final String WARMED_UP =
            """
            name: warmed-up
            messageSize: 100
            producerRate: 1000
            warmupDurationSeconds: 3
            testDurationSeconds: 2
            """;

    @Test
    void theMeasuredCountsHoldNoWarmUpMessagesThoughAStockResetKeepsThem() throws Exception {
        FakeOmbWorker producer = twoWorkers().get(0);
        // One period per phase, so no warm-up period is closed on the way: unless the coordinator drains the
        // warm-up's counts before its reset, all 3 s of them (~3,000 messages) land in the measured period.
        RunCoordinator.Outcome outcome = run(WARMED_UP, 10);
        RunResult r = outcome.result();
        assertTrue(outcome.complete(), r.partialReason());
        assertEquals(1, r.publishRate().size(), "periods: " + r.publishRate());
        assertTrue(producer.sentAtReset > 0, "the producer sent while warming up");
        assertTrue(producer.sentAtStop > producer.sentAtReset, "the producer sent after the reset");
        // The measured phase runs from the first /period-stats after the reset (the coordinator reads and drops what
        // was counted meanwhile) to the last one before /stop-all; what was sent before it (the warm-up's 3 s) and
        // after it (while the workers are being stopped) is not measured. The bookkeeping is exact: the same counter
        // on both sides, however long a request takes on a busy machine.
        long measuredOnTheWorker = producer.sentAtLastStats - producer.sentAtFirstStatsAfterReset;
        assertTrue(producer.sentAtFirstStatsAfterReset >= producer.sentAtReset, "read after the reset");
        assertTrue(measuredOnTheWorker > 0, "the producer sent while measured");
        assertEquals(
                measuredOnTheWorker,
                r.counts().messagesSent(),
                "measured messages; " + r.publishRate() + " msg/s over "
                        + r.summary().durationSeconds() + " s; sent at the reset " + producer.sentAtReset
                        + ", at the stop " + producer.sentAtStop);
    }

    @Test
    void aConsumerCloseThatTakesItsTimeOutIsNotPartOfTheMeasuredDuration() throws Exception {
        List<FakeOmbWorker> pair = twoWorkers();
        Duration close = Duration.ofSeconds(6);
        pair.get(1).stopAllTakes = close; // the consumer worker's close runs into a time-out
        RunCoordinator.Outcome outcome = run(WARMED_UP);
        RunResult r = outcome.result();
        assertTrue(outcome.complete(), r.partialReason());
        double seconds = r.summary().durationSeconds();
        assertEquals(
                (r.endTime().toEpochMilli() - r.startTime().toEpochMilli()) / 1000.0,
                seconds,
                0.001,
                "the summary's duration is the measured phase's");
        // 2 s measured, and however late the last poll, not the 6 s of the close after it.
        assertTrue(seconds >= 2 && seconds < 2 + close.toSeconds(), "durationSeconds " + seconds);
    }

    @Test
    void aWorkerThatRefusesASetUpStepEndsTheRunWithAPartialResultAndEveryWorkerStopped() throws Exception {
        List<FakeOmbWorker> pair = twoWorkers();
        pair.get(0).refuseStartLoad = "no producers were created";
        RunCoordinator.Outcome outcome = run(PLAIN);
        assertTrue(outcome.partial());
        String reason = outcome.result().partialReason();
        assertTrue(
                reason.startsWith("set-up failed (load start): worker "
                        + pair.get(0).url() + " failed /start-load (HTTP 500): no producers were created"),
                reason);
        assertTrue(Files.exists(outcome.resultFile()), "a result is written");
        for (FakeOmbWorker worker : pair) {
            assertEquals(
                    "/stop-all",
                    worker.paths().stream()
                            .filter(p -> !p.startsWith("/omb-tx/"))
                            .reduce((a, b) -> b)
                            .orElseThrow(),
                    "the last OMB call: " + worker.calls);
        }
        pair.get(0).refuseStartLoad = null;
        assertTrue(run(PLAIN).complete(), "the workers are free for the next run");
    }

    @Test
    void aWorkerThatFailsToInitializeIsStoppedWithTheOthers() throws Exception {
        List<FakeOmbWorker> pair = twoWorkers();
        pair.get(1).driver = true; // a stock worker left initialized by an earlier coordinator that never stopped it
        RunCoordinator.Outcome outcome = run(PLAIN);
        assertTrue(outcome.partial());
        assertTrue(
                outcome.result()
                        .partialReason()
                        .startsWith("set-up failed (driver init): worker "
                                + pair.get(1).url() + " failed /initialize-driver (HTTP 500)"),
                outcome.result().partialReason());
        for (FakeOmbWorker worker : pair) {
            assertTrue(worker.paths().contains("/stop-all"), worker.calls.toString());
        }
        assertTrue(run(PLAIN).complete(), "stopped, the worker takes the next run");
    }
}

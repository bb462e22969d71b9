package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.Phase;
import io.ombtx.driver.api.config.YamlFiles;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.AsRecorded;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Every shape a result takes, built over statistics recorded into real HdrHistograms: what the typed members hold,
 * and that the JSON reads back into an equal result. (That the builder writes what real runs wrote, byte for byte,
 * is {@link RecordedResultsTest}'s check.)
 */
class ResultShapesTest {

    private static final ObjectMapper JSON = ResultWriter.json();
    private static final Instant START = Instant.parse("2026-11-22T03:28:59.815877383Z");
    private static final Instant END = Instant.parse("2026-11-22T03:29:31.002Z");

    /** The recorded statistics of one imagined run. */
    private record Recorded(StatsSnapshot measured, List<Period> periods) {}

    /**
     * {@code periods} reporting periods of latencies drawn from a seeded log-normal distribution (median
     * {@code medianMicros}) into every histogram in {@code histograms}, with counters to match.
     */
    private static Recorded record(
            long seed, int periods, int perPeriod, double medianMicros, List<String> histograms, boolean measuredSpan) {
        Random random = new Random(seed);
        StatsSnapshot measured = new StatsSnapshot();
        List<Period> list = new ArrayList<>();
        double elapsed = 0;
        long backlog = 0;
        for (int i = 0; i < periods; i++) {
            StatsSnapshot period = new StatsSnapshot();
            for (String name : histograms) {
                Histogram h = byName(period, name);
                for (int n = 0; n < perPeriod; n++) {
                    h.recordValue(Histograms.clamp((long) (medianMicros * Math.exp(0.8 * random.nextGaussian()))));
                }
            }
            long sent = perPeriod * 2L + random.nextInt(7);
            period.put(Counter.MESSAGES_SENT, sent)
                    .put(Counter.MESSAGES_RECEIVED, sent - random.nextInt(5))
                    .put(Counter.PUBLISH_ERRORS, random.nextInt(3))
                    .put(Counter.OPERATIONS, perPeriod)
                    .put(Counter.MESSAGES_PROCESSED, perPeriod * 2L)
                    .put(Counter.COMMITTED, perPeriod - 1)
                    .put(Counter.ABORTED, 1)
                    .put(Counter.FAILED, random.nextInt(2))
                    .put(Counter.FATAL_ERRORS, 0);
            if (measuredSpan) {
                period.put(Counter.MEASURED_SPAN_NANOS, 4_987_654_321L * (i + 1));
            }
            double seconds = 5 + random.nextDouble() / 10;
            elapsed += seconds;
            backlog += random.nextInt(40);
            measured.add(period);
            list.add(new Period(seconds, elapsed, period, backlog));
        }
        return new Recorded(measured, list);
    }

    /** A histogram by its wire name: a {@link Latency} key, or phase.KEY. */
    private static Histogram byName(StatsSnapshot s, String name) {
        return name.startsWith(StatsSnapshot.PHASE_PREFIX)
                ? s.histogram(Phase.ofKey(name.substring(StatsSnapshot.PHASE_PREFIX.length())))
                : s.histogram(Latency.ofKey(name));
    }

    private static Workload workload(String yaml, int point) {
        return WorkloadLoader.expand("w.yaml", Path.of("."), (ObjectNode) YamlFiles.parse("w.yaml", yaml), null)
                .get(point);
    }

    private static Map<String, Object> embeddedBroker() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("group.coordinator.append.linger.ms", "5");
        settings.put("transaction.state.log.replication.factor", "1");
        Map<String, Object> broker = new LinkedHashMap<>();
        broker.put("embedded", true);
        broker.put("brokers", 1);
        broker.put("version", "4.1.1");
        broker.put("profile", "default");
        broker.put("settings", settings);
        return broker;
    }

    private static Map<String, Object> externalBroker() {
        Map<String, Object> broker = new LinkedHashMap<>();
        broker.put("embedded", false);
        broker.put("brokers", 3);
        broker.put("bootstrapServers", "10.0.0.1:9092,10.0.0.2:9092");
        return broker;
    }

    private static Map<String, Object> driverConfig() {
        Map<String, Object> transactions = new LinkedHashMap<>();
        transactions.put("enabled", true);
        transactions.put("commitIntervalMs", 100);
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("name", "kafka-tx");
        config.put("replicationFactor", 1);
        config.put("producerConfig", "acks=all\nlinger.ms=0\nsasl.jaas.config=<redacted>\n");
        config.put("transactions", transactions);
        return config;
    }

    /** Builds the result of one imagined run; checks the fields every result has, and that it reads back equal. */
    private static RunResult assertSameJson(
            Workload w,
            int interval,
            Map<String, Object> broker,
            String partialReason,
            ExactlyOnceReport exactlyOnce,
            java.util.function.Supplier<Recorded> recorded)
            throws Exception {
        Map<String, Object> environment = Map.of("clusterId", "INgNjKEsQ2q4XlQhlvYSCQ", "brokerCount", 1);
        Recorded forTyped = recorded.get();
        // As RunCoordinator does: the broker facts arrive as a map from the start of the run.
        RunResult.Broker typedBroker = JSON.convertValue(broker, RunResult.Broker.class);
        ResultBuilder.RunFacts facts = ResultBuilder.RunFacts.builder()
                .workload(AsRecorded.workload(w))
                .driverName("kafka-tx")
                .startTime(START)
                .endTime(END)
                .partialReason(partialReason)
                .runMode(AsRecorded.runMode(w, interval))
                .versions(RunResult.Versions.of(typedBroker))
                .broker(typedBroker)
                .driverConfig(driverConfig())
                .environment(environment)
                .exactlyOnce(exactlyOnce)
                .build();
        RunResult result = ResultBuilder.build(facts, forTyped.measured(), forTyped.periods());
        String written = JSON.writeValueAsString(result);
        ResultSchema.assertValid(written, "the result of " + w.name());

        JsonNode tree = JSON.readTree(written);
        for (String count : new String[] {"retries", "fenced", "producersReplaced", "clientRetries"}) {
            assertTrue(tree.get("counts").has(count), count);
        }
        assertEquals(
                tree.at("/periods/elapsedSeconds").size(),
                tree.at("/periods/operationLatencyMaxMillis").size());
        JsonNode summary = tree.get("summary");
        assertEquals(summary.get("averageLatencyMillisPerMessage"), summary.get("millisPerMessage"));
        assertEquals(environment, result.environment(), "no phase sequences reported: the driver's, unchanged");
        assertEquals(result, JSON.readValue(written, RunResult.class), "reads back into an equal result");
        return result;
    }

    @Test
    void transactionalStreamWithExactlyOnceCheck() throws Exception {
        Workload w = workload(
                """
                name: stream-tx
                description: consume-transform-produce, two records per transaction
                topics: 1
                partitionsPerTopic: 3
                messageSize: 6
                subscriptionsPerTopic: 1
                loop: closed
                operation:
                  kind: STREAM
                  transactional: true
                  messagesPerOperation: 2
                  prefillMessages: 1000
                  verifyExactlyOnce: true
                warmupOperations: 50
                measureOperations: 400
                """,
                0);
        List<String> histograms = new ArrayList<>(List.of(
                Latency.OPERATION_LATENCY.key(),
                Latency.PUBLISH_LATENCY.key(),
                Latency.INTENDED_PUBLISH_LATENCY.key(),
                Latency.END_TO_END.key()));
        for (Phase phase : Phase.values()) {
            histograms.add(StatsSnapshot.PHASE_PREFIX + phase.key());
        }
        RunResult r = assertSameJson(
                w,
                5,
                embeddedBroker(),
                null,
                new ExactlyOnceReport(800, 1, 0, 0),
                () -> record(1, 4, 100, 12_000, histograms, true));
        // Values the JSON comparison cannot vouch for on its own: what the typed members hold.
        assertEquals(400, r.operationLatency().count());
        assertEquals(List.of(Phase.values()), List.copyOf(r.transactionPhases().keySet()), "every phase, in order");
        assertFalse(r.exactlyOnce().passed());
        assertEquals(1, r.exactlyOnce().duplicated());
        assertEquals(RunResult.Status.COMPLETE, r.status());
        assertEquals(800, r.counts().messagesProcessed());
        double seconds = 4 * 4_987_654_321L / 1e9; // the longest span any worker reported
        assertEquals(seconds, r.summary().durationSeconds(), 1e-12);
        assertEquals(seconds * 1000 / 800, r.summary().millisPerMessage(), 1e-12, "duration ÷ processed records");
        assertEquals(new RunResult.RunLength(null, 50L, 100L), r.runMode().warmup());
        // Four 5-s periods: OMB's lists have two 10-s ones (runMode.ombPeriodSeconds), omb-tx's periods all four.
        assertEquals(2, r.publishLatency().p99().size());
        assertEquals(10, r.runMode().ombPeriodSeconds());
        assertEquals(4, r.periods().elapsedSeconds().size());
        for (double p : new double[] {1, 25, 50, 90, 99, 99.9, 99.99, 99.999, 100}) {
            assertTrue(r.aggregatedPublishLatencyQuantiles().containsKey(p), "p" + p + " is among the quantiles");
        }
        assertTrue(r.aggregatedPublishDelayLatencyQuantiles().isEmpty(), "no publish delay recorded");
    }

    @Test
    void nonTransactionalWritesEndedEarlyOnAnExternalCluster() throws Exception {
        Workload w = workload(
                """
                name: writes
                topics: 2
                partitionsPerTopic: 2
                messageSize: 100
                subscriptionsPerTopic: 1
                loop: closed
                operation: {kind: WRITE, transactional: false, messagesPerOperation: 2, partitionsPerOperation: 2}
                warmupDurationSeconds: 5
                testDurationSeconds: 30
                """,
                0);
        // The driver times the whole of a plain write as a 'transaction' phase too; the result must not show it.
        List<String> histograms = List.of(
                Latency.OPERATION_LATENCY.key(),
                Latency.PUBLISH_LATENCY.key(),
                Latency.PUBLISH_DELAY.key(),
                Latency.END_TO_END.key(),
                "phase.send",
                "phase.resolve",
                "phase.transaction");
        RunResult r = assertSameJson(
                w,
                10,
                externalBroker(),
                "interrupted by SIGINT",
                null,
                () -> record(2, 3, 250, 3_000, histograms, false));
        assertEquals(
                List.of(Phase.SEND, Phase.RESOLVE),
                List.copyOf(r.transactionPhases().keySet()));
        assertFalse(r.histograms().containsKey("phase.transaction"));
        assertTrue(r.histograms().containsKey("publishDelayMicros"));
        assertEquals(RunResult.Status.PARTIAL, r.status());
        assertEquals("10.0.0.1:9092,10.0.0.2:9092", r.broker().bootstrapServers());
        assertEquals(null, r.versions().broker());
        // Without a measured span the duration is the wall clock from start to end.
        assertEquals(
                (END.toEpochMilli() - START.toEpochMilli()) / 1000.0,
                r.summary().durationSeconds(),
                1e-12);
        assertEquals(RunResult.RunLength.seconds(30), r.runMode().measure());
    }

    @Test
    void sweepPointsOpenLoop() throws Exception {
        String yaml =
                """
                name: rps
                description: one sweep value, then two
                messageSize: [78]
                subscriptionsPerTopic: 1
                loop: open
                producerRate: [1000, 5000]
                warmupMessages: 100
                measureMessages: 2000
                """;
        List<String> histograms = List.of(
                Latency.OPERATION_LATENCY.key(),
                Latency.PUBLISH_LATENCY.key(),
                Latency.PUBLISH_DELAY.key(),
                Latency.INTENDED_PUBLISH_LATENCY.key(),
                Latency.END_TO_END.key());
        // Two swept fields: the value is "78,5000", written as text.
        RunResult two = assertSameJson(
                workload(yaml, 1), 2, embeddedBroker(), null, null, () -> record(3, 2, 1000, 9_000, histograms, true));
        assertEquals("78,5000", two.sweep().value());
        assertTrue(JSON.writeValueAsString(two.sweep()).contains("\"value\" : \"78,5000\""));
        // One swept field: the value is a number.
        RunResult one = assertSameJson(
                workload(yaml.replace("messageSize: [78]", "messageSize: 78"), 1),
                2,
                embeddedBroker(),
                null,
                null,
                () -> record(4, 5, 400, 6_500, histograms, true));
        assertEquals(new RunResult.Sweep("rps", "producerRate", "5000"), one.sweep());
        assertTrue(JSON.writeValueAsString(one.sweep()).contains("\"value\" : 5000"));
        assertEquals(5000L, one.runMode().targetRate());
        assertTrue(one.transactionPhases().isEmpty(), "a plain publish has no phases");
    }

    @Test
    void aRunThatMeasuredNothing() throws Exception {
        Workload w = workload(
                """
                name: max-rate
                messageSize: 1024
                subscriptionsPerTopic: 1
                loop: open
                producerRate: 0
                testDurationSeconds: 10
                """,
                0);
        RunResult r = assertSameJson(
                w,
                10,
                embeddedBroker(),
                "no progress for 60 s (broker fault?)",
                null,
                () -> record(5, 0, 0, 1, List.of(), false));
        assertTrue(r.runMode().findMaximumRate());
        assertEquals(null, r.runMode().targetRate());
        assertEquals(null, r.summary().millisPerMessage(), "no messages: no cost per message");
        assertEquals(0, r.operationLatency().count());
        assertEquals(null, r.operationLatency().p50());
        assertTrue(r.aggregatedEndToEndLatencyQuantiles().isEmpty());
        assertEquals(0.0, r.aggregatedPublishDelayLatency().avg());
        assertEquals(0L, r.aggregatedPublishDelayLatency().max());
        assertTrue(r.publishRate().isEmpty());
        JsonNode json = JSON.readTree(JSON.writeValueAsString(r));
        assertEquals(
                "{\"unit\":\"ms\",\"count\":0}", json.get("operationLatency").toString());
    }
}

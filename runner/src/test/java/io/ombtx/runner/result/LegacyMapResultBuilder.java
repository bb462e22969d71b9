package io.ombtx.runner.result;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.Phase;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.run.RunCoordinator;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * The reference for {@link ResultBuilder}: the map-based builder as it was before the typed result (commit
 * e1b69dd), kept verbatim except for what is marked "reference:" — its name, the two Histograms helpers it used
 * (inlined below, they moved into the typed model), RunCoordinator's runMode and versions maps (added below), and
 * the key order of {@code sweep} and {@code runMode.warmup/measure}: they were {@code Map.of(...)}, which iterates
 * in an order that changes from one JVM run to the next; here they are in the documented order.
 */
final class LegacyMapResultBuilder {

    /** Everything about a run that is not a statistic. */
    public record RunFacts(
            Workload workload,
            String driverName,
            Instant startTime,
            Instant endTime,
            String status,
            String partialReason,
            Map<String, Object> runMode,
            Map<String, Object> versions,
            Map<String, Object> broker,
            Map<String, Object> driverConfig,
            Map<String, Object> environment,
            ExactlyOnceReport exactlyOnce) {}

    private static final String[] OMB_STATS = {"Avg", "50pct", "75pct", "95pct", "99pct", "999pct", "9999pct", "Max"};

    private LegacyMapResultBuilder() {}

    public static Map<String, Object> build(RunFacts facts, StatsSnapshot measured, List<Period> periods) {
        Workload w = facts.workload();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("workload", w.name());
        r.put("driver", facts.driverName());
        r.put("messageSize", w.messageSize());
        r.put("topics", w.topics());
        r.put("partitions", w.partitionsPerTopic());
        r.put("producersPerTopic", w.producersPerTopic());
        r.put("consumersPerTopic", w.consumerPerSubscription()); // OMB's meaning: consumers per subscription

        // reference: OMB's lists on OMB's 10-s period (OmbPeriods, tested on its own in OmbPeriodsTest)
        List<Period> omb = OmbPeriods.regroup(periods, (Integer) facts.runMode().get("reportingIntervalSeconds"));
        r.put("publishRate", perPeriod(omb, p -> rate(p, Counter.MESSAGES_SENT)));
        r.put("publishErrorRate", perPeriod(omb, p -> rate(p, Counter.PUBLISH_ERRORS)));
        r.put("consumeRate", perPeriod(omb, p -> rate(p, Counter.MESSAGES_RECEIVED)));
        r.put("backlog", perPeriod(omb, Period::backlog));
        putPeriodLatencies(r, "publishLatency", omb, Latency.PUBLISH_LATENCY, true);
        putPeriodLatencies(r, "publishDelayLatency", omb, Latency.PUBLISH_DELAY, false);
        putPeriodLatencies(r, "endToEndLatency", omb, Latency.END_TO_END, true);

        Histogram publish = measured.histogram(Latency.PUBLISH_LATENCY);
        Histogram delay = measured.histogram(Latency.PUBLISH_DELAY);
        Histogram endToEnd = measured.histogram(Latency.END_TO_END);
        putAggregated(r, "aggregatedPublishLatency", publish, true);
        putAggregated(r, "aggregatedPublishDelayLatency", delay, false);
        putAggregated(r, "aggregatedEndToEndLatency", endToEnd, true);
        r.put("aggregatedPublishLatencyQuantiles", quantiles(publish, true));
        r.put("aggregatedPublishDelayLatencyQuantiles", quantiles(delay, false));
        r.put("aggregatedEndToEndLatencyQuantiles", quantiles(endToEnd, true));

        // omb-tx's fields
        r.put("schemaVersion", 1);
        r.put("startTime", facts.startTime().toString());
        r.put("endTime", facts.endTime().toString());
        r.put("status", facts.status());
        if (facts.partialReason() != null) {
            r.put("partialReason", facts.partialReason());
        }
        r.put("description", w.description());
        r.put("runMode", facts.runMode());
        r.put("scenario", scenario(w));
        if (w.sweep() != null) {
            // reference: was Map.of(...), whose iteration order is not fixed
            Map<String, Object> sweep = new LinkedHashMap<>();
            sweep.put("name", w.sweep().sweepName());
            sweep.put("parameter", w.sweep().parameter());
            sweep.put("value", numberOrText(w.sweep().value()));
            r.put("sweep", sweep);
        }
        r.put("versions", facts.versions());
        r.put("broker", facts.broker());
        r.put("driverConfig", facts.driverConfig());
        r.put("environment", facts.environment());
        r.put("counts", counts(measured));
        r.put("summary", summary(measured, facts));
        Histogram operations = measured.histogram(Latency.OPERATION_LATENCY);
        r.put("operationLatency", summaryMillis(operations));
        r.put("intendedPublishLatency", summaryMillis(measured.histogram(Latency.INTENDED_PUBLISH_LATENCY)));
        Map<String, Object> phases = new LinkedHashMap<>();
        for (Phase phase : Phase.values()) {
            if (phase == Phase.TRANSACTION && !w.operation().transactional()) {
                continue; // the whole of a non-transactional operation is operationLatency, not a transaction
            }
            measured.recorded(phase).ifPresent(h -> phases.put(phase.key(), summaryMillis(h)));
        }
        r.put("transactionPhases", phases);
        if (facts.exactlyOnce() != null) {
            ExactlyOnceReport e = facts.exactlyOnce();
            Map<String, Object> check = new LinkedHashMap<>();
            check.put("checked", e.checked());
            check.put("duplicated", e.duplicated());
            check.put("missing", e.missing());
            check.put("unexpected", e.unexpected());
            check.put("passed", e.passed());
            r.put("exactlyOnce", check);
        }
        Map<String, String> histograms = new LinkedHashMap<>();
        String wholePhase = StatsSnapshot.PHASE_PREFIX + Phase.TRANSACTION.key();
        measured.histogramsByName().forEach((name, h) -> {
            if (h.getTotalCount() > 0
                    && !(name.equals(wholePhase) && !w.operation().transactional())) {
                histograms.put(
                        name.startsWith(StatsSnapshot.PHASE_PREFIX) ? name : name + "Micros", Histograms.encode(h));
            }
        });
        r.put("histograms", histograms);
        r.put("periods", periodDetails(periods));
        return r;
    }

    private static Map<String, Object> scenario(Workload w) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("kind", w.operation().kind().name());
        s.put("transactional", w.operation().transactional());
        s.put("messagesPerOperation", w.operation().messagesPerOperation());
        s.put("partitionsPerOperation", w.operation().partitionsPerOperation());
        s.put("sendOffsets", w.operation().sendOffsets());
        s.put("readCommitted", w.operation().readCommitted());
        s.put("waitForConsume", w.waitForConsume());
        s.put("prefillMessages", w.prefillMessages());
        if (w.operation().awaitAcks() != null) {
            s.put("awaitAcks", w.operation().awaitAcks().key());
        }
        return s;
    }

    private static Map<String, Object> counts(StatsSnapshot s) {
        Map<String, Object> c = new LinkedHashMap<>();
        for (Counter key : new Counter[] {
            Counter.MESSAGES_SENT,
            Counter.MESSAGES_RECEIVED,
            Counter.PUBLISH_ERRORS,
            Counter.OPERATIONS,
            Counter.MESSAGES_PROCESSED,
            Counter.COMMITTED,
            Counter.ABORTED,
            Counter.FAILED,
            Counter.FATAL_ERRORS
        }) {
            c.put(key.key(), s.counter(key));
        }
        return c;
    }

    private static Map<String, Object> summary(StatsSnapshot s, RunFacts facts) {
        double seconds = s.counter(Counter.MEASURED_SPAN_NANOS) > 0
                ? s.counter(Counter.MEASURED_SPAN_NANOS) / 1e9
                : Math.max(
                        1e-9,
                        (facts.endTime().toEpochMilli() - facts.startTime().toEpochMilli()) / 1000.0);
        // A STREAM run's messages are the records its operations consumed and wrote on; otherwise those produced.
        long messages =
                facts.workload().streaming() ? s.counter(Counter.MESSAGES_PROCESSED) : s.counter(Counter.MESSAGES_SENT);
        long operations = s.counter(Counter.OPERATIONS);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("durationSeconds", seconds);
        m.put("messagesPerSecond", messages / seconds);
        m.put("operationsPerSecond", operations / seconds);
        m.put("averageLatencyMillisPerMessage", messages == 0 ? null : seconds * 1000.0 / messages);
        return m;
    }

    private static Map<String, Object> periodDetails(List<Period> periods) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("elapsedSeconds", perPeriod(periods, Period::elapsedSeconds));
        m.put("operationRate", perPeriod(periods, p -> rate(p, Counter.OPERATIONS)));
        m.put(
                "operationLatency50pctMillis",
                perPeriod(
                        periods,
                        p -> Histograms.millis(
                                p.stats().histogram(Latency.OPERATION_LATENCY).getValueAtPercentile(50))));
        m.put(
                "operationLatency99pctMillis",
                perPeriod(
                        periods,
                        p -> Histograms.millis(
                                p.stats().histogram(Latency.OPERATION_LATENCY).getValueAtPercentile(99))));
        return m;
    }

    private static double rate(Period p, Counter counter) {
        return p.seconds() <= 0 ? 0 : p.stats().counter(counter) / p.seconds();
    }

    private static <T> List<T> perPeriod(List<Period> periods, Function<Period, T> value) {
        List<T> values = new ArrayList<>(periods.size());
        periods.forEach(p -> values.add(value.apply(p)));
        return values;
    }

    private static void putPeriodLatencies(
            Map<String, Object> r, String prefix, List<Period> periods, Latency histogram, boolean millis) {
        for (String stat : OMB_STATS) {
            r.put(prefix + stat, perPeriod(periods, p -> statValue(p.stats().histogram(histogram), stat, millis)));
        }
    }

    private static void putAggregated(Map<String, Object> r, String prefix, Histogram h, boolean millis) {
        for (String stat : OMB_STATS) {
            r.put(prefix + stat, statValue(h, stat, millis));
        }
    }

    /** OMB's statistic names: Avg, 50pct … 9999pct, Max. In ms as doubles; in µs (publish delay) OMB writes the
     * average as a double and the percentiles and maximum as longs. */
    private static Number statValue(Histogram h, String stat, boolean millis) {
        double micros =
                switch (stat) {
                    case "Avg" -> h.getTotalCount() == 0 ? 0 : h.getMean();
                    case "Max" -> h.getTotalCount() == 0 ? 0 : h.getMaxValue();
                    default -> h.getValueAtPercentile(percentile(stat));
                };
        if (millis) {
            return Histograms.millis(micros);
        }
        return stat.equals("Avg") ? (Number) micros : (Number) Math.round(micros);
    }

    private static double percentile(String stat) {
        return switch (stat) {
            case "50pct" -> 50;
            case "75pct" -> 75;
            case "95pct" -> 95;
            case "99pct" -> 99;
            case "999pct" -> 99.9;
            case "9999pct" -> 99.99;
            default -> throw new IllegalArgumentException(stat);
        };
    }

    private static Object numberOrText(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return value;
        }
    }

    // reference: Histograms.summaryMillis and Histograms.quantiles as they were

    private static Map<String, Object> summaryMillis(Histogram h) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("unit", "ms");
        s.put("count", h.getTotalCount());
        if (h.getTotalCount() == 0) {
            return s;
        }
        s.put("min", Histograms.millis(h.getMinValue()));
        s.put("avg", Histograms.millis(h.getMean()));
        s.put("p25", Histograms.millis(h.getValueAtPercentile(25)));
        s.put("p50", Histograms.millis(h.getValueAtPercentile(50)));
        s.put("p75", Histograms.millis(h.getValueAtPercentile(75)));
        s.put("p90", Histograms.millis(h.getValueAtPercentile(90)));
        s.put("p95", Histograms.millis(h.getValueAtPercentile(95)));
        s.put("p99", Histograms.millis(h.getValueAtPercentile(99)));
        s.put("p999", Histograms.millis(h.getValueAtPercentile(99.9)));
        s.put("p9999", Histograms.millis(h.getValueAtPercentile(99.99)));
        s.put("max", Histograms.millis(h.getMaxValue()));
        s.put("totalMillis", Histograms.millis(h.getMean() * h.getTotalCount()));
        return s;
    }

    private static Map<String, Number> quantiles(Histogram h, boolean asMillis) {
        Map<String, Number> q = new LinkedHashMap<>();
        if (h.getTotalCount() == 0) {
            return q;
        }
        // The percentiles moved to OMB's density (Quantiles); the map's shape is what is compared here.
        Quantiles.micros(h).forEach((p, micros) -> q.put(Double.toString(p), quantileValue(micros, asMillis)));
        return q;
    }

    private static Number quantileValue(long micros, boolean asMillis) {
        return asMillis ? (Number) Histograms.millis(micros) : (Number) micros;
    }

    // reference: RunCoordinator.runMode and RunCoordinator.versions as they were (LinkedHashMap for Map.of)
    static Map<String, Object> runMode(Workload w, int interval) {
        Map<String, Object> mode = new LinkedHashMap<>();
        mode.put("loop", w.loop().key());
        mode.put("targetRate", w.loop() == LoopMode.OPEN && w.producerRate() > 0 ? w.producerRate() : null);
        mode.put("findMaximumRate", w.loop() == LoopMode.OPEN && w.producerRate() == 0 && !w.streaming());
        if (w.countBased()) {
            mode.put(
                    "warmup",
                    ordered(
                            "operations",
                            w.warmupOperations(),
                            "messages",
                            w.warmupOperations() * w.messagesPerOperation()));
            mode.put(
                    "measure",
                    ordered(
                            "operations",
                            w.measureOperations(),
                            "messages",
                            w.measureOperations() * w.messagesPerOperation()));
        } else {
            mode.put("warmup", ordered("seconds", w.warmupDuration().toSeconds()));
            mode.put("measure", ordered("seconds", w.testDuration().toSeconds()));
        }
        mode.put("reportingIntervalSeconds", interval);
        mode.put("ombPeriodSeconds", OmbPeriods.seconds(interval)); // reference: added with OmbPeriods
        return mode;
    }

    static Map<String, Object> versions(Map<String, Object> broker) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put(
                "ombTx",
                RunCoordinator.class.getPackage().getImplementationVersion() == null
                        ? "0.1.0-SNAPSHOT"
                        : RunCoordinator.class.getPackage().getImplementationVersion());
        v.put("java", System.getProperty("java.version"));
        v.put("kafkaClients", AppInfoParser.getVersion());
        v.put("broker", broker.get("version"));
        return v;
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }
}

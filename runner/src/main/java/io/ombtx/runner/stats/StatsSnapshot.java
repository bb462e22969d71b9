package io.ombtx.runner.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Histograms (µs) and counters from one or more workers over some interval. Snapshots merge exactly: histograms
 * are added, counters summed (or maxed for spans), never percentiles averaged.
 */
public final class StatsSnapshot {

    public static final String PUBLISH_LATENCY = "publishLatency";
    public static final String PUBLISH_DELAY = "publishDelay";
    public static final String END_TO_END = "endToEndLatency";
    public static final String INTENDED_PUBLISH_LATENCY = "intendedPublishLatency";
    public static final String OPERATION_LATENCY = "operationLatency";
    public static final String PHASE_PREFIX = "phase.";

    public static final String MESSAGES_SENT = "messagesSent";
    public static final String BYTES_SENT = "bytesSent";
    public static final String PUBLISH_ERRORS = "publishErrors";
    public static final String MESSAGES_RECEIVED = "messagesReceived";
    public static final String BYTES_RECEIVED = "bytesReceived";
    public static final String OPERATIONS = "operations";
    /** Source records a STREAM operation consumed and wrote to its target topic. */
    public static final String MESSAGES_PROCESSED = "messagesProcessed";
    public static final String COMMITTED = "committed";
    public static final String ABORTED = "aborted";
    public static final String FAILED = "failed";
    public static final String FATAL_ERRORS = "fatalErrors";
    /** Wall-clock nanoseconds from the first measured operation's start to the last one's end (max over workers). */
    public static final String MEASURED_SPAN_NANOS = "measuredSpanNanos";

    private final Map<String, Histogram> histograms = new TreeMap<>();
    private final Map<String, Long> counters = new TreeMap<>();

    public Map<String, Histogram> histograms() {
        return histograms;
    }

    public Map<String, Long> counters() {
        return counters;
    }

    public Histogram histogram(String name) {
        return histograms.computeIfAbsent(name, n -> Histograms.create());
    }

    public long counter(String name) {
        return counters.getOrDefault(name, 0L);
    }

    public StatsSnapshot putHistogram(String name, Histogram h) {
        histograms.put(name, h);
        return this;
    }

    public StatsSnapshot putCounter(String name, long value) {
        counters.put(name, value);
        return this;
    }

    /** Adds {@code other} into this snapshot. */
    public StatsSnapshot add(StatsSnapshot other) {
        other.histograms.forEach((name, h) -> histogram(name).add(h));
        other.counters.forEach((name, value) -> counters.merge(name, value,
                MEASURED_SPAN_NANOS.equals(name) ? Math::max : Long::sum));
        return this;
    }

    public void clear() {
        histograms.clear();
        counters.clear();
    }

    /** Wire form for the HTTP worker protocol: compressed base64 histograms and plain counters. */
    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        Map<String, String> encoded = new LinkedHashMap<>();
        histograms.forEach((name, h) -> encoded.put(name, Histograms.encode(h)));
        wire.put("histograms", encoded);
        wire.put("counters", new LinkedHashMap<>(counters));
        return wire;
    }

    @SuppressWarnings("unchecked")
    public static StatsSnapshot fromWire(Map<String, Object> wire) {
        StatsSnapshot snapshot = new StatsSnapshot();
        ((Map<String, String>) wire.getOrDefault("histograms", Map.of()))
                .forEach((name, data) -> snapshot.putHistogram(name, Histograms.decode(data)));
        ((Map<String, Number>) wire.getOrDefault("counters", Map.of()))
                .forEach((name, value) -> snapshot.putCounter(name, value.longValue()));
        return snapshot;
    }
}

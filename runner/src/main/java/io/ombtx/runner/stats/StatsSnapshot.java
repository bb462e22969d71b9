package io.ombtx.runner.stats;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.ombtx.driver.api.Phase;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Histograms (µs), counters and phase sequences from one or more workers over some interval. Snapshots merge
 * exactly, each metric by its own rule ({@link Counter#merge}; histograms are added; {@link PhaseSequences#add}),
 * never percentiles averaged.
 */
public final class StatsSnapshot {

    /** Name prefix of a phase histogram in results and on the wire: {@code phase.commit}. */
    public static final String PHASE_PREFIX = "phase.";

    private final Map<Latency, Histogram> latencies = new EnumMap<>(Latency.class);
    private final Map<Phase, Histogram> phases = new EnumMap<>(Phase.class);
    private final Map<Counter, Long> counters = new EnumMap<>(Counter.class);
    private final PhaseSequences phaseSequences = new PhaseSequences();

    public Histogram histogram(Latency latency) {
        return latencies.computeIfAbsent(latency, l -> Histograms.create());
    }

    public Histogram histogram(Phase phase) {
        return phases.computeIfAbsent(phase, p -> Histograms.create());
    }

    /** The phase's histogram if anything was recorded for it. */
    public Optional<Histogram> recorded(Phase phase) {
        Histogram h = phases.get(phase);
        return h == null || h.getTotalCount() == 0 ? Optional.empty() : Optional.of(h);
    }

    public long counter(Counter counter) {
        return counters.getOrDefault(counter, 0L);
    }

    /** How many operations ran each phase sequence (add to it with {@link PhaseSequences#count}). */
    public PhaseSequences phaseSequences() {
        return phaseSequences;
    }

    public StatsSnapshot put(Latency latency, Histogram h) {
        latencies.put(latency, h);
        return this;
    }

    public StatsSnapshot put(Phase phase, Histogram h) {
        phases.put(phase, h);
        return this;
    }

    public StatsSnapshot put(Counter counter, long value) {
        counters.put(counter, value);
        return this;
    }

    /** Adds {@code other} into this snapshot. */
    public StatsSnapshot add(StatsSnapshot other) {
        other.latencies.forEach((latency, h) -> histogram(latency).add(h));
        other.phases.forEach((phase, h) -> histogram(phase).add(h));
        other.counters.forEach((counter, value) -> counters.merge(counter, value, counter::merge));
        phaseSequences.add(other.phaseSequences);
        return this;
    }

    public void clear() {
        latencies.clear();
        phases.clear();
        counters.clear();
        phaseSequences.clear();
    }

    /** Every histogram by its name in results and on the wire ({@link Latency#key()}, or phase.KEY), sorted. */
    public SortedMap<String, Histogram> histogramsByName() {
        SortedMap<String, Histogram> named = new TreeMap<>();
        latencies.forEach((latency, h) -> named.put(latency.key(), h));
        phases.forEach((phase, h) -> named.put(PHASE_PREFIX + phase.key(), h));
        return named;
    }

    /**
     * The wire form for the HTTP worker protocol: compressed base64 histograms and plain counters, by name, and the
     * phase sequences (absent from a worker that counts none).
     */
    public record Wire(
            Map<String, String> histograms,
            Map<String, Long> counters,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<PhaseSequences.Wire> phaseSequences) {}

    public Wire toWire() {
        Map<String, String> encoded = new LinkedHashMap<>();
        histogramsByName().forEach((name, h) -> encoded.put(name, Histograms.encode(h)));
        Map<String, Long> counted = new LinkedHashMap<>();
        counters.forEach((counter, value) -> counted.put(counter.key(), value));
        return new Wire(encoded, counted, phaseSequences.toWire());
    }

    /** Reads the wire form; a name neither side knows is an error (the two ends run different versions). */
    public static StatsSnapshot fromWire(Wire wire) {
        StatsSnapshot snapshot = new StatsSnapshot();
        if (wire.histograms() != null) {
            wire.histograms().forEach((name, data) -> {
                Histogram h = Histograms.decode(data);
                if (name.startsWith(PHASE_PREFIX)) {
                    snapshot.put(Phase.ofKey(name.substring(PHASE_PREFIX.length())), h);
                } else {
                    snapshot.put(Latency.ofKey(name), h);
                }
            });
        }
        if (wire.counters() != null) {
            wire.counters().forEach((name, value) -> snapshot.put(Counter.ofKey(name), value));
        }
        snapshot.phaseSequences.add(PhaseSequences.fromWire(wire.phaseSequences()));
        return snapshot;
    }
}

package io.ombtx.runner.stats;

import io.ombtx.driver.api.Phase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How many operations ran each phase sequence: the phases in the order the driver actually ran them
 * ({@link io.ombtx.driver.api.OperationTimings#sequence()}; a retried attempt repeats phases). Merge rule: the counts
 * of one sequence add up, over periods and over workers.
 */
public final class PhaseSequences {

    private final Map<List<Phase>, Long> operations = new HashMap<>();

    /** Adds {@code count} operations that ran {@code sequence}; an empty sequence (not reported) is left out. */
    public PhaseSequences count(List<Phase> sequence, long count) {
        if (!sequence.isEmpty() && count > 0) {
            operations.merge(List.copyOf(sequence), count, Long::sum);
        }
        return this;
    }

    /** Adds {@code other}'s counts into these. */
    public PhaseSequences add(PhaseSequences other) {
        other.operations.forEach(this::count);
        return this;
    }

    public long operations(List<Phase> sequence) {
        return operations.getOrDefault(sequence, 0L);
    }

    public boolean isEmpty() {
        return operations.isEmpty();
    }

    void clear() {
        operations.clear();
    }

    /** The sequence most operations ran (on a tie, the one whose {@link #name} sorts last); empty when none. */
    public Optional<List<Phase>> dominant() {
        return operations.entrySet().stream()
                .max(Map.Entry.<List<Phase>, Long>comparingByValue()
                        .thenComparing(e -> name(e.getKey()), Comparator.naturalOrder()))
                .map(Map.Entry::getKey);
    }

    /** The counts by {@link #name}, sorted by it: the result's {@code environment.phaseSequences}. */
    public Map<String, Long> byName() {
        Map<String, Long> named = new LinkedHashMap<>();
        sorted().forEach(e -> named.put(name(e.getKey()), e.getValue()));
        return named;
    }

    private List<Map.Entry<List<Phase>, Long>> sorted() {
        return operations.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparing(PhaseSequences::name)))
                .toList();
    }

    /** A sequence as the result writes it: the phases' keys joined with {@code ,} ({@code begin,send,commit}). */
    public static String name(List<Phase> sequence) {
        return sequence.stream().map(Phase::key).collect(Collectors.joining(","));
    }

    /** One sequence and its count on the wire: the phases by their keys. */
    public record Wire(List<String> phases, long operations) {}

    public List<Wire> toWire() {
        List<Wire> wire = new ArrayList<>();
        sorted().forEach(e ->
                wire.add(new Wire(e.getKey().stream().map(Phase::key).toList(), e.getValue())));
        return wire;
    }

    /** Reads the wire form; a phase neither side knows is an error (the two ends run different versions). */
    public static PhaseSequences fromWire(List<Wire> wire) {
        PhaseSequences sequences = new PhaseSequences();
        if (wire != null) {
            wire.forEach(
                    w -> sequences.count(w.phases().stream().map(Phase::ofKey).toList(), w.operations()));
        }
        return sequences;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PhaseSequences other && operations.equals(other.operations);
    }

    @Override
    public int hashCode() {
        return operations.hashCode();
    }

    @Override
    public String toString() {
        return byName().toString();
    }
}

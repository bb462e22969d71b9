package io.ombtx.runner.result;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The phase sequences a driver reports in its environment ({@code phaseSequences}: "begin,send,commit" → operations),
 * read for the result's {@code scenario.phaseSequence} and merged over workers.
 */
public final class PhaseSequences {

    /** The environment key drivers report under. */
    public static final String KEY = "phaseSequences";

    private PhaseSequences() {}

    /** The sequence most operations ran, as phase names; null when the environment has none. */
    public static List<String> dominant(Map<String, Object> environment) {
        Map<String, Long> counts = counts(environment);
        return counts.entrySet().stream()
                .max(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .map(e -> Arrays.asList(e.getKey().split(",")))
                .map(List::copyOf)
                .orElse(null);
    }

    /** The counts by sequence in {@code environment}, empty when absent or not of that shape. */
    public static Map<String, Long> counts(Map<String, Object> environment) {
        Map<String, Long> counts = new LinkedHashMap<>();
        if (environment != null && environment.get(KEY) instanceof Map<?, ?> map) {
            map.forEach((sequence, count) -> {
                if (count instanceof Number n
                        && sequence != null
                        && !sequence.toString().isEmpty()) {
                    counts.merge(sequence.toString(), n.longValue(), Long::sum);
                }
            });
        }
        return counts;
    }

    /**
     * {@code first}'s environment with the phase sequences of every environment added up: in a distributed run the
     * operations of a STREAM run in the consumers' workers, not in the first one.
     */
    public static Map<String, Object> merged(Map<String, Object> first, List<Map<String, Object>> all) {
        Map<String, Long> total = new LinkedHashMap<>();
        for (Map<String, Object> environment : all) {
            counts(environment).forEach((sequence, count) -> total.merge(sequence, count, Long::sum));
        }
        if (total.isEmpty()) {
            return first;
        }
        Map<String, Object> merged = new LinkedHashMap<>(first);
        merged.put(KEY, total);
        return merged;
    }
}

package io.ombtx.runner.run;

import io.ombtx.runner.worker.Worker;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The workers of a run and their roles, as OMB splits them: alone, one worker does everything; with several,
 * the first half produce and the rest consume.
 */
public record Ensemble(List<Worker> producers, List<Worker> consumers) {

    public static Ensemble of(List<Worker> workers) {
        if (workers.size() == 1) {
            return new Ensemble(workers, workers);
        }
        int half = workers.size() / 2;
        return new Ensemble(List.copyOf(workers.subList(0, half)), List.copyOf(workers.subList(half, workers.size())));
    }

    public List<Worker> all() {
        return new ArrayList<>(new LinkedHashSet<Worker>(concat()));
    }

    private List<Worker> concat() {
        List<Worker> all = new ArrayList<>(producers);
        all.addAll(consumers);
        return all;
    }

    /** Splits {@code total} across {@code parts} as evenly as possible; the first parts take the remainder. */
    public static long share(long total, int parts, int index) {
        return total / parts + (index < total % parts ? 1 : 0);
    }
}

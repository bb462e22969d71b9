package io.ombtx.runner.plan;

/**
 * Which repetition of its (driver, workload) a run is, and the group it belongs to.
 *
 * @param index from 1
 * @param count how many repetitions of this (driver, workload) the plan holds
 * @param group shared by the repetitions of one (driver, workload); with {@code interleaved}, by every run of the
 *     comparison (the invocation's, or one suite entry's)
 * @param interleaved whether the comparison's runs alternate (A B A B …) rather than follow each other (A A B B)
 * @param comparison the name of the comparison the run belongs to (a suite entry's), or null
 */
public record Repetition(int index, int count, String group, boolean interleaved, String comparison) {

    public Repetition {
        if (index < 1 || index > count) {
            throw new IllegalArgumentException("repetition " + index + " of " + count);
        }
        if (group == null || group.isBlank()) {
            throw new IllegalArgumentException("a repetition needs a group");
        }
    }
}

package io.ombtx.runner.plan;

import io.ombtx.runner.worker.RunId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Repeats a plan: each (driver, workload) run {@code count} times, one after the other (A A B B) or interleaved
 * (A B A B) so that drift on the machine or the cluster hits every side of a comparison alike. Pure: the plan is a
 * value and the dry run prints the repeated one.
 */
public final class Repetitions {

    /** Upper bound of --repeat and a suite's repeat. */
    public static final int MAX = 1000;

    private Repetitions() {}

    /**
     * @param runs the planned runs, numbered from 1, each once
     * @param count repetitions of each run, at least 1
     * @param interleave alternate the runs in each round instead of repeating each in a row
     * @param comparison the comparison's name (leads the group ids), or null
     * @param groupId the invocation's id: the group of a (driver, workload) is {@code groupId-<run number>}, or
     *     {@code groupId} itself when interleaved
     */
    public static List<RunSpec> expand(
            List<RunSpec> runs, int count, boolean interleave, String comparison, String groupId) {
        String id = comparison == null ? groupId : comparison + "-" + groupId;
        if (count < 1 || count > MAX) {
            throw new IllegalArgumentException("repetitions: " + count);
        }
        List<RunSpec> repeated = new ArrayList<>(runs.size() * count);
        if (interleave) {
            for (int round = 1; round <= count; round++) {
                for (RunSpec run : runs) {
                    repeated.add(copy(run, repeated.size() + 1, new Repetition(round, count, id, true, comparison)));
                }
            }
        } else {
            for (RunSpec run : runs) {
                String group = runs.size() == 1 ? id : id + "-" + run.number();
                for (int index = 1; index <= count; index++) {
                    repeated.add(
                            copy(run, repeated.size() + 1, new Repetition(index, count, group, false, comparison)));
                }
            }
        }
        return List.copyOf(repeated);
    }

    /** A group id for one invocation: its UTC start time and a random tag, so two invocations never share one. */
    public static String newGroupId(java.time.Instant now) {
        String stamp = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
                .withZone(java.time.ZoneOffset.UTC)
                .format(now);
        return stamp + "-"
                + Integer.toHexString(
                        java.util.concurrent.ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    }

    private static RunSpec copy(RunSpec run, int number, Repetition repetition) {
        return run.repeated(number, repetition, RunId.draw());
    }
}

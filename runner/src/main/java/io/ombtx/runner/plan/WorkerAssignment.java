package io.ombtx.runner.plan;

/**
 * What one worker does in a run, decided while planning. The worker group executes exactly this.
 *
 * @param worker {@code local}, or the worker's URL
 * @param producers producers it creates (topics dealt round-robin over the producing workers)
 * @param consumers consumers it creates (subscriptions dealt round-robin over the consuming workers)
 * @param publishRate its share of the initial target rate, msg/s (0: closed loop, or not a producing worker)
 * @param warmupOperations its share of the warm-up operations (count-based runs; consumers use it to know which
 *     received messages belong to the warm-up)
 * @param measureOperations its share of the measured operations (count-based runs; 0 for workers that only count)
 * @param prefillMessages its share of a STREAM source's prefill
 */
public record WorkerAssignment(
        String worker,
        int producers,
        int consumers,
        double publishRate,
        long warmupOperations,
        long measureOperations,
        long prefillMessages) {

    public static final String LOCAL = "local";

    public boolean producing() {
        return producers > 0;
    }

    public boolean consuming() {
        return consumers > 0;
    }

    /** Splits {@code total} across {@code parts} as evenly as possible; the first parts take the remainder. */
    public static long share(long total, int parts, int index) {
        return total / parts + (index < total % parts ? 1 : 0);
    }

    /** How many of {@code items} dealt round-robin over {@code parts} land on part {@code index}. */
    public static int dealt(int items, int parts, int index) {
        return (int) share(items, parts, index);
    }
}

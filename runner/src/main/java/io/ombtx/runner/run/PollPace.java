package io.ombtx.runner.run;

import java.util.concurrent.TimeUnit;

/**
 * When the measurement next asks the workers for their progress. Asking is not free: over HTTP each request wakes
 * a handful of threads in two JVMs and runs code that, asked only now and then, the JIT is still compiling well into
 * the measured phase; on a small machine those milliseconds of CPU are taken from the broker and the loop being
 * measured (a bare kafka-clients loop has none of it). So the workers are asked when something is due — the next
 * reporting period, the end of a timed phase, the operation count a phase ends at — and otherwise about once a second
 * (what the stall watch needs): the wait is half the time the count is expected to take at the rate since the last
 * ask, so it shortens as the count nears, to {@link #MIN_NANOS} at the end, where the run's boundaries are taken.
 */
final class PollPace {

    /** The shortest wait: how closely a phase's end is noticed, as every poll did before the pace. */
    static final long MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** The longest wait, while nothing is due. */
    static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(1);

    private long lastNanos;
    private long lastOperations = -1;

    /**
     * The wait before the next ask.
     *
     * @param now when the workers were last asked
     * @param operationsStarted their operations started so far, warm-up included (what the rate is taken from)
     * @param operationsLeft operations until the phase ends by count, or a negative number when it does not
     * @param nanosToDue time until something is due by the clock (a period, a timed phase's end), or
     *     {@link Long#MAX_VALUE}
     */
    long next(long now, long operationsStarted, long operationsLeft, long nanosToDue) {
        long wait = Math.min(MAX_NANOS, nanosToDue);
        if (operationsLeft >= 0) {
            long elapsed = now - lastNanos;
            long done = operationsStarted - lastOperations;
            if (lastOperations < 0 || done <= 0 || elapsed <= 0) {
                wait = MIN_NANOS; // no rate yet: ask soon
            } else {
                double expected = operationsLeft * (double) elapsed / done;
                wait = (long) Math.min(wait, expected / 2);
            }
        }
        lastNanos = now;
        lastOperations = operationsStarted;
        return Math.max(MIN_NANOS, wait);
    }
}

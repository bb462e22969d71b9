package io.ombtx.runner.run;

import io.ombtx.runner.worker.WorkerException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The steps left once a run has decided to end early, sharing one deadline: each runs on a thread of its own, and
 * one still running at the deadline is abandoned (its thread interrupted) and named in {@link #abandoned()}.
 * An unbounded teardown (a run that completed) runs its steps on the caller's thread, as before.
 */
final class Teardown {

    interface Step {
        void run() throws Exception;
    }

    private final Duration budget;
    private final long deadlineNanos;
    private final List<String> abandoned = new ArrayList<>();

    private Teardown(Duration budget) {
        this.budget = budget;
        this.deadlineNanos = budget == null ? 0 : System.nanoTime() + budget.toNanos();
    }

    /** Starts the clock: every later step shares {@code budget}. */
    static Teardown within(Duration budget) {
        return new Teardown(budget);
    }

    static Teardown unbounded() {
        return new Teardown(null);
    }

    boolean bounded() {
        return budget != null;
    }

    /** The time left before the deadline (none when it has passed); {@code fallback} when unbounded. */
    Duration remaining(Duration fallback) {
        return budget == null ? fallback : Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    void run(String step, Step work) throws Exception {
        call(step, () -> {
            work.run();
            return null;
        });
    }

    /** As {@link #run}, but started even when no time is left (then not waited for): releasing is worth a try. */
    void runEvenLate(String step, Step work) throws Exception {
        call(
                step,
                () -> {
                    work.run();
                    return null;
                },
                true);
    }

    <T> T call(String step, Callable<T> work) throws Exception {
        return call(step, work, false);
    }

    /** Runs {@code work}, or gives up on it at the deadline with a {@link WorkerException} naming the step. */
    private <T> T call(String step, Callable<T> work, boolean evenLate) throws Exception {
        if (budget == null) {
            return work.call();
        }
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining <= 0 && !evenLate) {
            abandoned.add(step + " (not started)");
            throw timedOut(step);
        }
        try {
            return WatchedCall.call("teardown: " + step, work, deadlineNanos, () -> false, remaining > 0);
        } catch (WatchedCall.GaveUp e) {
            abandoned.add(remaining > 0 ? step : step + " (left running in the background)");
            throw timedOut(step);
        }
    }

    private WorkerException timedOut(String step) {
        return new WorkerException(step + " abandoned: the teardown time-out of " + budget.toSeconds() + " s passed");
    }

    List<String> abandoned() {
        return List.copyOf(abandoned);
    }

    /** What to add to the partial reason, or null when nothing was abandoned. */
    String note() {
        return abandoned.isEmpty()
                ? null
                : "teardown time-out of " + budget.toSeconds() + " s: abandoned " + String.join(", ", abandoned);
    }
}

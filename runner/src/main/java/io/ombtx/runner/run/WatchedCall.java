package io.ombtx.runner.run;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Runs one step on a daemon thread of its own and waits for it, giving up when a deadline passes or a condition
 * (an interruption) says so, checked every 100 ms. A step given up on is not waited for. Set-up and teardown both
 * use it, so neither can be held by a worker or driver that does not answer.
 */
final class WatchedCall {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** A deadline that never comes. */
    static final long NO_DEADLINE = Long.MAX_VALUE;

    /** The step was given up on (deadline or condition); {@code interrupted} says whether its thread was told. */
    static final class GaveUp extends Exception {
        GaveUp() {
            super(null, null, false, false);
        }
    }

    private WatchedCall() {}

    /**
     * @param deadlineNanos a {@link System#nanoTime()} instant, or {@link #NO_DEADLINE}
     * @param interrupt whether a step given up on has its thread interrupted (false: it is left to finish)
     */
    static <T> T call(String name, Callable<T> work, long deadlineNanos, BooleanSupplier stop, boolean interrupt)
            throws Exception {
        FutureTask<T> task = new FutureTask<>(work);
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        while (true) {
            long left = deadlineNanos == NO_DEADLINE ? POLL_NANOS : deadlineNanos - System.nanoTime();
            try {
                return task.get(Math.max(0, Math.min(POLL_NANOS, left)), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                if (stop.getAsBoolean() || (deadlineNanos != NO_DEADLINE && deadlineNanos - System.nanoTime() <= 0)) {
                    if (interrupt) {
                        task.cancel(true);
                    }
                    throw new GaveUp();
                }
            } catch (InterruptedException e) {
                task.cancel(true);
                throw e;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Exception cause) {
                    throw cause;
                }
                throw e;
            }
        }
    }
}

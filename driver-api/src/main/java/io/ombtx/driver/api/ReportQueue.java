package io.ombtx.driver.api;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Bookkeeping taken off a closed loop's thread: what happens between two transactions decides whether the next one
 * meets the previous commit's markers (the ~100 ms {@code CONCURRENT_TRANSACTIONS} back-off of seeds 001 and 003),
 * so the loop must do no more there than the seeds' bare loop did, and the load generator's own CPU use must stay low
 * (on a small machine the broker's marker writes compete with it for the same cores). Reporting an operation (the driver's stats, the
 * runner's histograms, the records it delivered) is queued here instead — an offer to a lock-free queue, no thread
 * woken — and done in order on this queue's own thread, which looks for work every {@link #PERIOD}. Closing runs
 * what is still queued before it returns.
 */
public final class ReportQueue implements Executor, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ReportQueue.class.getName());
    public static final Duration PERIOD = Duration.ofMillis(10);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    public ReportQueue(String name) {
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues {@code task}; once the queue is closed it runs at once on the caller's thread. */
    @Override
    public void execute(Runnable task) {
        if (closed) {
            runQuietly(task);
            return;
        }
        tasks.offer(task);
    }

    private void loop() {
        while (true) {
            boolean ran = drain();
            if (closed && tasks.isEmpty()) {
                return;
            }
            if (!ran) {
                LockSupport.parkNanos(PERIOD.toNanos());
            }
        }
    }

    private boolean drain() {
        boolean ran = false;
        for (Runnable task; (task = tasks.poll()) != null; ) {
            runQuietly(task);
            ran = true;
        }
        return ran;
    }

    private static void runQuietly(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "reporting an operation failed", e);
        }
    }

    /** Runs everything queued so far, then stops the thread. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.NANOSECONDS.toMillis(CLOSE_TIMEOUT.toNanos()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "the report queue " + thread.getName() + " did not finish within " + CLOSE_TIMEOUT.toSeconds()
                            + " s");
        } else {
            drain(); // anything offered between the thread's last look and the flag
        }
    }
}

package io.ombtx.driver.kafka;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The single thread a producer's transactional work runs on: operations run one at a time in call order (tasks
 * submitted without delay run first-in first-out), and the commit-interval timer runs on the same thread, so the
 * producer's transaction state needs no locks.
 */
final class ProducerThread extends ScheduledThreadPoolExecutor {

    private static final AtomicInteger COUNT = new AtomicInteger();

    ProducerThread(String name) {
        super(1, runnable -> {
            Thread thread = new Thread(runnable, "ombtx-" + name + "-" + COUNT.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        setRemoveOnCancelPolicy(true);
        setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }
}

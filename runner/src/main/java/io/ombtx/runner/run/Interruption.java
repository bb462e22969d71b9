package io.ombtx.runner.run;

import java.util.concurrent.Callable;

/**
 * Set from a signal handler; the run in progress ends at its next poll and writes a partial result. A step that
 * blocks without polling (starting the embedded broker) runs {@link #interruptibly}: the interruption then also
 * interrupts its thread, so it stops at once instead of finishing first.
 */
public final class Interruption {
    private volatile String reason;
    /** The thread running an {@link #interruptibly} step, or null. */
    private Thread blocked;

    public void interrupt(String why) {
        reason = why;
        synchronized (this) {
            if (blocked != null) {
                blocked.interrupt();
            }
        }
    }

    public String reason() {
        return reason;
    }

    /**
     * Runs {@code work} on this thread, interrupted when the interruption comes; throws {@link InterruptedException}
     * at once when it has come already. The thread's interrupt status is cleared on return, so the steps that follow
     * (writing the partial result) are not cut short: they read {@link #reason()}.
     */
    public <T> T interruptibly(Callable<T> work) throws Exception {
        synchronized (this) {
            if (reason != null) {
                throw new InterruptedException(reason);
            }
            blocked = Thread.currentThread();
        }
        try {
            return work.call();
        } finally {
            synchronized (this) {
                blocked = null;
            }
            Thread.interrupted();
        }
    }
}

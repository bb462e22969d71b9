package io.ombtx.runner.worker;

import java.util.concurrent.locks.LockSupport;

/**
 * Open-loop pacing: operation {@code k} is intended to start at {@code start + k / rate}. A late operation is not
 * skipped or rescheduled, so the gap between intended and actual start (the publish delay) reveals a stalled
 * producer instead of hiding it (coordinated omission). The rate may change while running.
 */
public final class Pacer {

    private static final long SPIN_NANOS = 50_000;

    private volatile double operationsPerSecond;
    private long nextIntendedNanos;

    public Pacer(double operationsPerSecond, long startNanos) {
        if (!(operationsPerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive, got " + operationsPerSecond);
        }
        this.operationsPerSecond = operationsPerSecond;
        this.nextIntendedNanos = startNanos;
    }

    public void setRate(double operationsPerSecond) {
        if (operationsPerSecond > 0) {
            this.operationsPerSecond = operationsPerSecond;
        }
    }

    public double rate() {
        return operationsPerSecond;
    }

    /** The intended start of the next operation; advances the schedule by one interval. */
    public long nextIntendedNanos() {
        long intended = nextIntendedNanos;
        nextIntendedNanos += Math.max(1L, Math.round(1e9 / operationsPerSecond));
        return intended;
    }

    /** Waits until {@code intendedNanos} (returns at once if it has passed); false if interrupted. */
    public static boolean awaitUntil(long intendedNanos) {
        while (true) {
            long remaining = intendedNanos - System.nanoTime();
            if (remaining <= 0) {
                return true;
            }
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            if (remaining > SPIN_NANOS) {
                LockSupport.parkNanos(remaining - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}

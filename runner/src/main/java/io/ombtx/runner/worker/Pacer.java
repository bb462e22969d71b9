package io.ombtx.runner.worker;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Open-loop pacing: operation {@code k} is intended to start at {@code start + k / rate}. A late operation is not
 * skipped or rescheduled, so the gap between intended and actual start (the publish delay) reveals a stalled
 * producer instead of hiding it (coordinated omission). The rate may change while running.
 *
 * <p>Waiting parks; it never spins for long. On Linux a park overshoots by the timer slack (about 50 µs), so an
 * operation starts up to that much after its intended time and, above ~20K operations a second, the ones that
 * fell due meanwhile go out back to back, each with its own intended time. A spinning wait would be more exact
 * on an idle machine, but at a 20 µs interval it spins all the time and takes a core from the client's I/O
 * thread and the broker, which on a small machine made the publish delay worse (p99 in milliseconds), not better.
 */
public final class Pacer {

    /** Below this a park would overshoot by far more than it waits: spin the last few microseconds instead. */
    static final long SPIN_NANOS = 5_000;

    private volatile double operationsPerSecond;
    private long nextIntendedNanos;
    /** A new rate whose schedule starts afresh at the next operation ({@link Double#doubleToRawLongBits}; 0: none). */
    private final AtomicLong restartRateBits = new AtomicLong();

    private volatile long restartOffsetNanos;

    public Pacer(double operationsPerSecond, long startNanos) {
        if (!(operationsPerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive, got " + operationsPerSecond);
        }
        this.operationsPerSecond = operationsPerSecond;
        this.nextIntendedNanos = startNanos;
    }

    /** Changes the interval from the next operation on; time the schedule already owes stays owed. */
    public void setRate(double operationsPerSecond) {
        if (operationsPerSecond > 0) {
            this.operationsPerSecond = operationsPerSecond;
        }
    }

    /**
     * Starts a new schedule at {@code operationsPerSecond} from the next operation: it is intended for the moment
     * it is asked for, so what a too-high rate left owing is forgiven (the max-rate search's probes each start
     * clean). Safe to call from any thread.
     */
    public void restart(double operationsPerSecond) {
        restart(operationsPerSecond, 0);
    }

    /**
     * As {@link #restart(double)}, the new schedule starting {@code offsetNanos} after the moment the next operation
     * asks for it: one of several threads sharing a producer's schedule keeps its place in it.
     */
    public void restart(double operationsPerSecond, long offsetNanos) {
        if (operationsPerSecond > 0) {
            restartOffsetNanos = Math.max(0, offsetNanos); // published by the set below
            restartRateBits.set(Double.doubleToRawLongBits(operationsPerSecond));
        }
    }

    public double rate() {
        return operationsPerSecond;
    }

    /** The intended start of the next operation; advances the schedule by one interval. */
    public long nextIntendedNanos() {
        if (restartRateBits.get() != 0) {
            operationsPerSecond = Double.longBitsToDouble(restartRateBits.getAndSet(0));
            nextIntendedNanos = Math.max(nextIntendedNanos, System.nanoTime() + restartOffsetNanos);
            // A schedule ahead of now (a lower old rate) keeps its next slot; one behind starts now.
        }
        long intended = nextIntendedNanos;
        nextIntendedNanos += Math.max(1L, Math.round(1e9 / operationsPerSecond));
        return intended;
    }

    /** What {@link #awaitNanos} returns when the thread was interrupted. */
    public static final long INTERRUPTED = Long.MIN_VALUE;

    /** Waits until {@code intendedNanos} (returns at once if it has passed); false if interrupted. */
    public static boolean awaitUntil(long intendedNanos) {
        return awaitNanos(intendedNanos) != INTERRUPTED;
    }

    /**
     * Waits until {@code intendedNanos}; returns the {@code System.nanoTime()} it last read (not before
     * {@code intendedNanos}), or {@link #INTERRUPTED}.
     */
    public static long awaitNanos(long intendedNanos) {
        while (true) {
            long now = System.nanoTime();
            if (now - intendedNanos >= 0) {
                return now == INTERRUPTED ? now + 1 : now;
            }
            if (Thread.currentThread().isInterrupted()) {
                return INTERRUPTED;
            }
            long remaining = intendedNanos - now;
            if (remaining > SPIN_NANOS) {
                LockSupport.parkNanos(remaining);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}

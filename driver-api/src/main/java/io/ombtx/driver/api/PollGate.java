package io.ombtx.driver.api;

/**
 * Implemented by a {@code BenchmarkConsumer} whose polling a closed loop can hold back. Seed 001's FetchBench writes
 * one message in a transaction and only then polls, {@code read_committed}, until it sees it: the fetch that finds
 * the message is sent after the commit. A consumer that polls all the time has a fetch waiting at the broker when
 * the commit's markers land, and sees the message sooner than the seeds' loop could. A gated consumer polls only
 * between {@link #openGate} and {@link #closeGate}.
 */
public interface PollGate {

    /** From now on, poll only while open; the gate starts closed. */
    void gate();

    /** Lets the consumer poll (wakes it if it waits at the gate). */
    void openGate();

    /** Holds the consumer back before its next poll. */
    void closeGate();

    /** Back to polling all the time. */
    void ungate();
}

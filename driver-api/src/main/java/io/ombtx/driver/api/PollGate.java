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

    /**
     * Polls once on the caller's thread while the gate is closed, and hands what the poll returns to the consumer's
     * callback as the consumer's own thread would. The seeds' FetchBench polls on the thread that wrote and
     * committed; a loop that waits for its write through this method does too, with no hand-off from the consumer's
     * thread to its own (measured at about 110 µs a wait on 2 cores when the consumer's thread polls).
     *
     * @return false when this consumer cannot poll here (it does not support it, it is closing or has stopped, or
     *     the poll failed): the caller then opens the gate and waits for the consumer's own thread
     */
    default boolean pollHere() {
        return false;
    }
}

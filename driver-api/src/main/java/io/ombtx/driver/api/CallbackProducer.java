package io.ombtx.driver.api;

/**
 * Optionally implemented by a {@code BenchmarkProducer} next to OMB's {@code sendAsync}: the same send, but the
 * acknowledgement is a call-back instead of a {@code CompletableFuture}, so a runner publishing hundreds of
 * thousands of messages a second allocates and completes no future per message. Same meaning as
 * {@code sendAsync}: one message, acknowledged (or failed) once.
 */
public interface CallbackProducer {

    /**
     * Told once per message when it is acknowledged ({@code error == null}) or failed, with the message's size and
     * the two times given to {@link #send}. A runner can then serve every message with one call-back of its own, and
     * the one object per message in flight is the driver's (kafka-clients' {@code Callback}, say, which carries the
     * times): one instead of two.
     */
    @FunctionalInterface
    interface SendCallback {
        void completed(Throwable error, int payloadBytes, long intendedNanos, long sendNanos);
    }

    /**
     * Sends {@code payload} with {@code key} (null for none); {@code callback} runs once, on whatever thread the
     * client completes sends on (it must be short). A send refused at once is reported through the callback too.
     *
     * @param consumed false when nothing in the run consumes the topic: what the driver adds to a record only so
     *     that consumers can measure end-to-end latency (kafka-tx: its microsecond publish-time header) can be left
     *     out
     * @param intendedNanos when the send was due ({@link System#nanoTime()}), handed back to {@code callback}
     * @param sendNanos when it was sent, handed back to {@code callback}
     */
    void send(String key, byte[] payload, boolean consumed, long intendedNanos, long sendNanos, SendCallback callback);

    /**
     * For a producer that cuts its messages into transactions itself (a transactional PUBLISH): from now on, tell
     * {@code listener} of every transaction it ends (committed or failed; its phases, its whole from begin to the
     * commit's return, and its messages), on the thread that ended it, after the messages' own call-backs. Returns
     * false when this producer has no such transactions (the runner then counts none).
     */
    default boolean reportTransactionsTo(OperationListener listener) {
        return false;
    }
}

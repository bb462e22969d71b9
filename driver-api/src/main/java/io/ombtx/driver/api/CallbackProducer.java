package io.ombtx.driver.api;

/**
 * Optionally implemented by a {@code BenchmarkProducer} next to OMB's {@code sendAsync}: the same send, but the
 * acknowledgement is a call-back instead of a {@code CompletableFuture}, so a runner publishing hundreds of
 * thousands of messages a second allocates and completes no future per message. Same meaning as
 * {@code sendAsync}: one message, acknowledged (or failed) once.
 */
public interface CallbackProducer {

    /**
     * Told once per message when it is acknowledged ({@code error == null}) or failed. A call-back may also implement
     * its client's own call-back interface (omb-tx's runner implements kafka-clients' {@code Callback}, with the same
     * meaning); a driver may then hand it to the client as it is, so that no adapter object lives per message in
     * flight, and the client calls that interface instead of {@link #completed}.
     */
    @FunctionalInterface
    interface SendCallback {
        void completed(Throwable error);
    }

    /**
     * Sends {@code payload} with {@code key} (null for none); {@code callback} runs once, on whatever thread the
     * client completes sends on (it must be short). A send refused at once is reported through the callback too.
     *
     * @param consumed false when nothing in the run consumes the topic: what the driver adds to a record only so
     *     that consumers can measure end-to-end latency (kafka-tx: its microsecond publish-time header) can be left
     *     out
     */
    void send(String key, byte[] payload, boolean consumed, SendCallback callback);
}

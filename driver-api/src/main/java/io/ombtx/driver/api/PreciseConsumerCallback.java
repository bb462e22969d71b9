package io.ombtx.driver.api;

import io.openmessaging.benchmark.driver.ConsumerCallback;

/**
 * A {@code ConsumerCallback} that accepts the publish time in epoch microseconds. A driver that carries a
 * microsecond timestamp with each message calls this instead of {@code messageReceived}, so end-to-end latency
 * on one host is not rounded to OMB's millisecond.
 */
public interface PreciseConsumerCallback extends ConsumerCallback {

    void messageReceivedMicros(int payloadLength, long publishEpochMicros);
}

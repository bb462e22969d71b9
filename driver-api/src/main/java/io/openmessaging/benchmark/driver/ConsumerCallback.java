package io.openmessaging.benchmark.driver;

import java.nio.ByteBuffer;

/** OMB SPI: receives every consumed message with the producer's timestamp in epoch milliseconds. */
public interface ConsumerCallback {

    void messageReceived(byte[] payload, long publishTimestamp);

    void messageReceived(ByteBuffer payload, long publishTimestamp);
}

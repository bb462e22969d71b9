package io.ombtx.driver.aeron;

import java.nio.ByteOrder;
import java.time.Instant;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What one benchmark message is on an Aeron stream: the publish time in epoch microseconds (8 bytes, little-endian),
 * then the payload. Aeron carries no timestamp of its own, and end-to-end latency is measured from it.
 */
final class MessageFrame {

    static final int HEADER_LENGTH = Long.BYTES;

    private MessageFrame() {}

    /**
     * The wall clock in microseconds. {@link Instant#now()} reads the same clock on both sides (on Linux
     * CLOCK_REALTIME, microsecond resolution), so nothing needs calibrating between producer and consumer.
     */
    static long nowEpochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** Writes the frame into {@code buffer} from offset 0 and returns its length. */
    static int write(MutableDirectBuffer buffer, long publishEpochMicros, byte[] payload) {
        buffer.putLong(0, publishEpochMicros, ByteOrder.LITTLE_ENDIAN);
        buffer.putBytes(HEADER_LENGTH, payload);
        return HEADER_LENGTH + payload.length;
    }

    static long publishEpochMicros(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
    }

    static int payloadLength(int frameLength) {
        return frameLength - HEADER_LENGTH;
    }
}

package io.ombtx.driver.kafka;

import java.nio.ByteBuffer;
import java.time.Instant;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The publish time each record carries in the {@value #HEADER} header, in epoch microseconds, so end-to-end
 * latency on one host is not rounded to the record timestamp's millisecond. Encoded as an 8-byte big-endian long.
 */
final class PublishTime {

    static final String HEADER = "ombtx.us";

    private PublishTime() {}

    /**
     * The wall clock in microseconds. {@link Instant#now()} reads the same clock as the consumer's side (on Linux,
     * CLOCK_REALTIME with microsecond resolution), so no calibration can drift between producer and consumer.
     */
    static long nowEpochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    static byte[] encode(long epochMicros) {
        byte[] bytes = new byte[Long.BYTES]; // big-endian, written by hand: this runs once per record sent
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            bytes[i] = (byte) epochMicros;
            epochMicros >>>= 8;
        }
        return bytes;
    }

    /** The publish time in epoch microseconds, or -1 when the record has no (valid) header. */
    static long decode(Headers headers) {
        Header header = headers.lastHeader(HEADER);
        if (header == null || header.value() == null || header.value().length != Long.BYTES) {
            return -1;
        }
        return ByteBuffer.wrap(header.value()).getLong();
    }
}

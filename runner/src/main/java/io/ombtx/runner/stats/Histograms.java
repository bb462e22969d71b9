package io.ombtx.runner.stats;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** Histogram conventions shared by workers and results: microsecond values, 3 significant digits. */
public final class Histograms {

    /** Largest latency kept exactly: 30 minutes in microseconds; larger values are clamped, never dropped. */
    public static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(30);

    public static final int SIGNIFICANT_DIGITS = 3;

    private Histograms() {}

    public static Histogram create() {
        return new Histogram(HIGHEST_MICROS, SIGNIFICANT_DIGITS);
    }

    public static long clamp(long micros) {
        return Math.max(0, Math.min(HIGHEST_MICROS, micros));
    }

    public static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not a compressed HdrHistogram: " + e.getMessage(), e);
        }
    }

    public static double millis(double micros) {
        return micros / 1000.0;
    }
}

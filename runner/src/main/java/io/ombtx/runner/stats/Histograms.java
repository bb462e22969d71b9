package io.ombtx.runner.stats;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** Histogram conventions shared by workers and results: microsecond values, 3 significant digits. */
public final class Histograms {

    /** Largest latency kept exactly: 30 minutes in microseconds; larger values are clamped, never dropped. */
    public static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(30);
    public static final int SIGNIFICANT_DIGITS = 3;
    /** OMB's percentile set for aggregated quantile maps: 1..99, then the tail. */
    private static final double[] TAIL = {99.9, 99.99, 99.999, 100.0};

    private Histograms() {
    }

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
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not a compressed HdrHistogram: " + e.getMessage(), e);
        }
    }

    public static double millis(double micros) {
        return micros / 1000.0;
    }

    /** The omb-tx latency summary in milliseconds (see docs/result-format.md). */
    public static Map<String, Object> summaryMillis(Histogram h) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("unit", "ms");
        s.put("count", h.getTotalCount());
        if (h.getTotalCount() == 0) {
            return s;
        }
        s.put("min", millis(h.getMinValue()));
        s.put("avg", millis(h.getMean()));
        s.put("p25", millis(h.getValueAtPercentile(25)));
        s.put("p50", millis(h.getValueAtPercentile(50)));
        s.put("p75", millis(h.getValueAtPercentile(75)));
        s.put("p90", millis(h.getValueAtPercentile(90)));
        s.put("p95", millis(h.getValueAtPercentile(95)));
        s.put("p99", millis(h.getValueAtPercentile(99)));
        s.put("p999", millis(h.getValueAtPercentile(99.9)));
        s.put("p9999", millis(h.getValueAtPercentile(99.99)));
        s.put("max", millis(h.getMaxValue()));
        s.put("totalMillis", millis(h.getMean() * h.getTotalCount()));
        return s;
    }

    /** OMB's quantile map: percentile → value, converted by {@code scale} (1/1000 for ms, 1 for µs). */
    public static Map<String, Number> quantiles(Histogram h, boolean asMillis) {
        Map<String, Number> q = new LinkedHashMap<>();
        if (h.getTotalCount() == 0) {
            return q;
        }
        for (int p = 1; p <= 99; p++) {
            q.put(Double.toString(p), value(h.getValueAtPercentile(p), asMillis));
        }
        for (double p : TAIL) {
            q.put(Double.toString(p), value(h.getValueAtPercentile(p), asMillis));
        }
        return q;
    }

    private static Number value(long micros, boolean asMillis) {
        return asMillis ? (Number) millis(micros) : (Number) micros;
    }
}

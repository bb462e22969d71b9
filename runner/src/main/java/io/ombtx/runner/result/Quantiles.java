package io.ombtx.runner.result;

import io.ombtx.runner.stats.Histograms;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * OMB's aggregated quantile maps, percentile → value, for the percentiles 1, 2, … 99, 99.9, 99.99, 99.999 and 100
 * (so the seeds' p25 and p90 can be read directly); empty when nothing was recorded. Keys are written as
 * {@link Double#toString(double)} writes them ({@code "1.0"}, {@code "99.9"}).
 */
public final class Quantiles {

    private static final double[] PERCENTILES = new double[99 + 4];

    static {
        for (int p = 1; p <= 99; p++) {
            PERCENTILES[p - 1] = p;
        }
        double[] tail = {99.9, 99.99, 99.999, 100.0};
        System.arraycopy(tail, 0, PERCENTILES, 99, tail.length);
    }

    private Quantiles() {
    }

    /** In whole microseconds, as OMB writes publish delay. */
    public static Map<Double, Long> micros(Histogram h) {
        Map<Double, Long> q = new LinkedHashMap<>();
        if (h.getTotalCount() > 0) {
            for (double p : PERCENTILES) {
                q.put(p, h.getValueAtPercentile(p));
            }
        }
        return q;
    }

    /** In milliseconds, as OMB writes publish and end-to-end latency. */
    public static Map<Double, Double> millis(Histogram h) {
        Map<Double, Double> q = new LinkedHashMap<>();
        micros(h).forEach((p, micros) -> q.put(p, Histograms.millis(micros)));
        return q;
    }
}

package io.ombtx.runner.result;

import io.ombtx.runner.stats.Histograms;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * OMB's aggregated quantile maps, percentile → value, at least as dense as OMB's everywhere; empty when nothing was
 * recorded.
 *
 * <p>OMB's maps step through the percentiles 100 times per halving of the tail (0.5 apart below p50, 0.25 up to
 * p75, 0.125 up to p87.5, …). Here the step at each point is the largest round step (1, 2.5 or 5 × a power of ten)
 * no wider than OMB's there, and each percentile is a multiple of its step, so keys stay short decimals
 * ({@code "99.9975"}) and every whole percentile from 0 to 99 is among them. The ladder ends where fewer than one
 * recorded value lies beyond it (all further percentiles are the maximum); 99.9, 99.99, 99.999 and 100 are always
 * there, so a short run still answers the usual tail questions. Of a run of percentiles sharing one value only the
 * ends are written (see {@link #micros}). Keys are written as {@link Double#toString(double)} writes them
 * ({@code "1.0"}, {@code "99.9"}).
 */
public final class Quantiles {

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
    private static final BigDecimal TWO = BigDecimal.valueOf(2);
    /** OMB's density: 100 percentiles per halving of the tail, i.e. 200 steps per half-distance. */
    private static final BigDecimal OMB_STEPS_PER_HALF_DISTANCE = BigDecimal.valueOf(200);
    /** Always written, whatever the count: the tail questions everyone asks. */
    private static final Set<Double> ALWAYS = Set.of(99.9, 99.99, 99.999, 100.0);
    private static final List<BigDecimal> ROUND_MULTIPLES =
            List.of(BigDecimal.valueOf(5), new BigDecimal("2.5"), BigDecimal.ONE);

    private Quantiles() {
    }

    /** The percentiles written for a histogram of {@code count} values, ascending (none for an empty one). */
    public static List<Double> percentiles(long count) {
        if (count <= 0) {
            return List.of();
        }
        TreeSet<Double> levels = new TreeSet<>();
        BigDecimal smallestTail = HUNDRED.divide(BigDecimal.valueOf(count), 20, RoundingMode.HALF_UP);
        BigDecimal p = BigDecimal.ZERO;
        while (p.compareTo(HUNDRED) < 0 && HUNDRED.subtract(p).compareTo(smallestTail) >= 0) {
            levels.add(p.doubleValue());
            BigDecimal step = stepAt(HUNDRED.subtract(p));
            p = p.divide(step, 0, RoundingMode.FLOOR).add(BigDecimal.ONE).multiply(step).stripTrailingZeros();
        }
        levels.addAll(ALWAYS);
        return new ArrayList<>(levels);
    }

    /** The largest round step no wider than OMB's step for a tail of {@code tail} percent (0 < tail ≤ 100). */
    static BigDecimal stepAt(BigDecimal tail) {
        // OMB's step is a two-hundredth of the half-distance the tail lies in: 100, 50, 25, … down to the tail.
        BigDecimal halfDistance = HUNDRED;
        while (halfDistance.divide(TWO).compareTo(tail) >= 0) {
            halfDistance = halfDistance.divide(TWO);
        }
        BigDecimal omb = halfDistance.divide(OMB_STEPS_PER_HALF_DISTANCE);
        BigDecimal unit = BigDecimal.ONE.scaleByPowerOfTen((int) Math.floor(Math.log10(omb.doubleValue())));
        for (BigDecimal multiple : ROUND_MULTIPLES) {
            BigDecimal step = unit.multiply(multiple);
            if (step.compareTo(omb) <= 0) {
                return step;
            }
        }
        return unit.divide(BigDecimal.TEN); // only if log10 rounded up; still a round step below OMB's
    }

    /**
     * In whole microseconds, as OMB writes publish delay: the value at each of {@link #percentiles}, except inside a
     * run of percentiles that share one value, of which only the first and the last are written (what lies between
     * them has that same value, so nothing is lost and the file stays small). Whole percentiles and the named tail are
     * always written.
     */
    public static Map<Double, Long> micros(Histogram h) {
        List<Double> levels = percentiles(h.getTotalCount());
        long[] values = valuesAtPercentiles(h, levels);
        Map<Double, Long> q = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            double p = levels.get(i);
            boolean insideRun = i > 0 && i < values.length - 1 && values[i - 1] == values[i] && values[i + 1] == values[i];
            if (!insideRun || p == Math.rint(p) || ALWAYS.contains(p)) {
                q.put(p, values[i]);
            }
        }
        return q;
    }

    /**
     * {@link Histogram#getValueAtPercentile} at each of {@code ascending}, the same values in one pass over the
     * recorded values instead of one pass a percentile (a run's result has thousands of percentiles, each of which
     * scanned the whole counts array: a few hundred milliseconds of CPU per run). Follows HdrHistogram's rule: the
     * value of the first bucket at which the running count reaches {@code max(1, ceil(p' × total / 100))}, with
     * {@code p'} the percentile just below the one asked for, clamped to 0–100; its highest equivalent value (the
     * lowest for percentile 0); 0 if the histogram is empty. {@code QuantilesTest} checks it against
     * {@code getValueAtPercentile}.
     */
    static long[] valuesAtPercentiles(Histogram h, List<Double> ascending) {
        long total = h.getTotalCount();
        long[] values = new long[ascending.size()];
        Iterator<HistogramIterationValue> recorded = h.recordedValues().iterator();
        long countSoFar = 0;
        long valueAtCount = 0;
        for (int i = 0; i < values.length; i++) {
            double percentile = ascending.get(i);
            double p = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0), 100.0);
            long countAtPercentile = Math.max((long) Math.ceil(p * total / 100.0), 1);
            while (countSoFar < countAtPercentile && recorded.hasNext()) {
                HistogramIterationValue v = recorded.next();
                countSoFar = v.getTotalCountToThisValue();
                valueAtCount = v.getValueIteratedTo();
            }
            values[i] = countSoFar < countAtPercentile ? 0
                    : percentile == 0.0 ? h.lowestEquivalentValue(valueAtCount) : valueAtCount;
        }
        return values;
    }

    /** In milliseconds, as OMB writes publish and end-to-end latency. */
    public static Map<Double, Double> millis(Histogram h) {
        Map<Double, Double> q = new LinkedHashMap<>();
        micros(h).forEach((p, micros) -> q.put(p, Histograms.millis(micros)));
        return q;
    }
}

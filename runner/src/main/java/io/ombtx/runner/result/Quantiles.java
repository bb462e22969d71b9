package io.ombtx.runner.result;

import io.ombtx.runner.stats.Histograms;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * recorded value lies beyond it (all further percentiles are the maximum), or, past about 5.6 × 10<sup>14</sup>
 * values, at its deepest step (see {@link #DEEPEST}); 99.9, 99.99, 99.999 and 100 are always
 * there, so a short run still answers the usual tail questions. Of a run of percentiles sharing one value only the
 * ends are written (see {@link #micros}). Keys are written as {@link Double#toString(double)} writes them
 * ({@code "1.0"}, {@code "99.9"}).
 */
public final class Quantiles {

    /** Always written, whatever the count: the tail questions everyone asks. */
    private static final Set<Double> ALWAYS = Set.of(99.9, 99.99, 99.999, 100.0);

    private static final double[] ALWAYS_ASCENDING = {99.9, 99.99, 99.999, 100.0};
    /**
     * The ladder is worked out in whole units of 10<sup>-16</sup> percent, in {@code long}s: exact for every step it
     * takes (the finest, 2.5 × 10<sup>-15</sup>, comes at {@link #DEEPEST} halvings of the tail), and with no
     * {@code BigDecimal} in the loop. A run's result asks for several ladders of thousands of points each, and in
     * {@code BigDecimal} three of them cost a fresh JVM 0.2–0.4 s of CPU, most of it compiling that arithmetic.
     */
    private static final int SCALE = 16;

    private static final long HUNDRED = 100 * pow10(SCALE);
    /**
     * How many times the tail may be halved: the step at that depth is still a whole number of units. The ladder
     * stops there, at a tail of about 1.8 × 10<sup>-13</sup> percent, which only a histogram of more than about
     * 5 × 10<sup>14</sup> values reaches; past it a double has no digits left for the percentile anyway.
     */
    private static final int DEEPEST = 48;
    /** The step, in units, where the tail has been halved k times (100 / 2<sup>k+1</sup> to 100 / 2<sup>k</sup>). */
    private static final long[] STEP = steps();

    private static final long[] POW10 = java.util.stream.IntStream.rangeClosed(0, SCALE)
            .mapToLong(Quantiles::pow10)
            .toArray();

    private Quantiles() {}

    /** The percentiles written for a histogram of {@code count} values, ascending (none for an empty one). */
    public static List<Double> percentiles(long count) {
        if (count <= 0) {
            return List.of();
        }
        // The ladder ends where less than one recorded value lies beyond it: a tail under 100 / count percent,
        // that quotient rounded half-up to 20 decimals (the units are coarser, so the bound is its ceiling in
        // units); and at the deepest step.
        long smallestTail = Math.max(
                BigDecimal.valueOf(100)
                        .divide(BigDecimal.valueOf(count), 20, RoundingMode.HALF_UP)
                        .movePointRight(SCALE)
                        .setScale(0, RoundingMode.CEILING)
                        .longValueExact(),
                (HUNDRED >>> (DEEPEST + 1)) + 1);
        List<Double> levels = new ArrayList<>();
        long p = 0;
        int depth = 0;
        while (p < HUNDRED && HUNDRED - p >= smallestTail) {
            double level = toDouble(p);
            if (levels.isEmpty() || levels.get(levels.size() - 1) != level) {
                levels.add(level);
            }
            long tail = HUNDRED - p;
            while (depth < DEEPEST && tail <= HUNDRED >>> (depth + 1)) {
                depth++; // the tail only shrinks, so the depth only grows
            }
            long step = STEP[depth];
            p = (p / step + 1) * step; // the next multiple of the step
        }
        for (double named : ALWAYS_ASCENDING) {
            int at = Collections.binarySearch(levels, named);
            if (at < 0) {
                levels.add(-at - 1, named);
            }
        }
        return levels;
    }

    /**
     * Per depth k, the largest round step (1, 2.5 or 5 × a power of ten) no wider than OMB's step there: OMB steps a
     * two-hundredth of the half-distance the tail lies in, 100 / 2<sup>k</sup> / 200 = 2<sup>-(k+1)</sup> percent.
     */
    private static long[] steps() {
        long[] steps = new long[DEEPEST + 1];
        for (int k = 0; k <= DEEPEST; k++) {
            long twoPower = 1L << (k + 1); // OMB's step is 1 / twoPower percent
            int exponent = (int) Math.floor(Math.log10(1.0 / twoPower)); // of the power of ten just below it
            long tenPower = pow10(-exponent);
            // multiple × 10^exponent <= 1 / twoPower, in integers: (2 × multiple) × twoPower <= 2 × 10^-exponent
            for (long twiceMultiple : new long[] {10, 5, 2}) {
                if (twiceMultiple * twoPower <= 2 * tenPower) {
                    steps[k] = twiceMultiple * pow10(SCALE + exponent) / 2;
                    break;
                }
            }
        }
        return steps;
    }

    /** {@code units} × 10<sup>-16</sup> as the nearest double (as {@code BigDecimal.doubleValue} gives it). */
    private static double toDouble(long units) {
        long digits = units;
        int scale = SCALE;
        while (scale > 0 && digits % 10 == 0) {
            digits /= 10;
            scale--;
        }
        // Both operands exact (digits below 2^52, a power of ten up to 10^16), so the quotient is correctly rounded.
        return digits < 1L << 52
                ? digits / (double) POW10[scale]
                : BigDecimal.valueOf(digits, scale).doubleValue();
    }

    private static long pow10(int exponent) {
        long value = 1;
        for (int i = 0; i < exponent; i++) {
            value *= 10;
        }
        return value;
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
            boolean insideRun =
                    i > 0 && i < values.length - 1 && values[i - 1] == values[i] && values[i + 1] == values[i];
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
            values[i] = countSoFar < countAtPercentile
                    ? 0
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

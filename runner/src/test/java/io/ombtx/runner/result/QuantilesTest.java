package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.stats.Histograms;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The percentile ladder, and its one-pass values against HdrHistogram's {@code getValueAtPercentile}. */
class QuantilesTest {

    @Test
    void onePassValuesEqualGetValueAtPercentileAtEveryWrittenPercentile() {
        Random random = new Random(12);
        long[] counts = {0, 1, 2, 3, 7, 10, 99, 100, 101, 1_000, 12_345, 200_000};
        for (long count : counts) {
            for (int shape = 0; shape < 4; shape++) {
                Histogram h = Histograms.create();
                for (long i = 0; i < count; i++) {
                    long value =
                            switch (shape) {
                                case 0 -> 1 + random.nextInt(100); // narrow
                                case 1 -> (long) Math.exp(random.nextDouble() * 16); // wide, log-spread
                                case 2 -> 42; // one value
                                default ->
                                    random.nextInt(10) == 0 ? 1_000_000 + random.nextInt(1_000_000) : random.nextInt(3);
                            };
                    h.recordValue(Histograms.clamp(value));
                }
                List<Double> levels = new ArrayList<>(Quantiles.percentiles(Math.max(1, count)));
                levels.add(0, 0.0); // percentile 0 takes the lowest equivalent value
                long[] expected =
                        levels.stream().mapToLong(h::getValueAtPercentile).toArray();
                assertArrayEquals(
                        expected, Quantiles.valuesAtPercentiles(h, levels), count + " values, shape " + shape);
            }
        }
    }

    /**
     * The long-arithmetic ladder is the decimal one it replaced, point for point: that one is kept here, in
     * {@code BigDecimal}, as the reference. Tagged slow (half a minute on a busy machine): bin/test unit leaves it
     * out, bin/test runs it.
     */
    @Test
    @Tag("slow")
    void theLadderIsTheDecimalLadderPointForPoint() {
        java.util.SortedSet<Long> counts = new java.util.TreeSet<>();
        for (long c = 1; c <= 1_000; c++) {
            counts.add(c);
        }
        for (long power = 10; power <= 100_000_000_000_000L; power *= 10) {
            for (long near = -3; near <= 3; near++) {
                counts.add(power + near); // 999_999_999: 100 / count lies just above a multiple of the unit
                counts.add(3 * power + near);
            }
        }
        for (int bit = 12; bit <= 48; bit++) {
            counts.add(1L << bit);
            counts.add((1L << bit) + 1);
        }
        Random random = new Random(5);
        for (int i = 0; i < 300; i++) {
            counts.add(1 + (long) Math.pow(10, random.nextDouble() * 14.5));
        }
        for (long count : counts) {
            assertTrue(DecimalLadder.percentiles(count).equals(Quantiles.percentiles(count)), count + " values");
        }
    }

    /**
     * Past about 5.6 × 10^14 values the ladder stops at its deepest step (at 10^15 it is already there); what it has
     * is still the decimal ladder's.
     */
    @Test
    void aHugeCountStopsAtTheDeepestStep() {
        long count = 10_000_000_000_000_000L;
        List<Double> ladder = Quantiles.percentiles(count);
        List<Double> decimal = DecimalLadder.percentiles(count);
        assertTrue(decimal.containsAll(ladder), "every point is the decimal ladder's");
        assertTrue(Quantiles.percentiles(1_000_000_000_000_000L).equals(ladder), "the same as at 10^15");
        assertTrue(ladder.size() < decimal.size());
    }

    /** What {@link Quantiles#percentiles} computed before it worked in longs. */
    private static final class DecimalLadder {
        private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
        private static final BigDecimal TWO = BigDecimal.valueOf(2);
        private static final BigDecimal STEPS_PER_HALF_DISTANCE = BigDecimal.valueOf(200);
        private static final List<BigDecimal> MULTIPLES =
                List.of(BigDecimal.valueOf(5), new BigDecimal("2.5"), BigDecimal.ONE);

        static List<Double> percentiles(long count) {
            java.util.TreeSet<Double> levels = new java.util.TreeSet<>();
            BigDecimal smallestTail = HUNDRED.divide(BigDecimal.valueOf(count), 20, RoundingMode.HALF_UP);
            BigDecimal p = BigDecimal.ZERO;
            while (p.compareTo(HUNDRED) < 0 && HUNDRED.subtract(p).compareTo(smallestTail) >= 0) {
                levels.add(p.doubleValue());
                BigDecimal step = stepAt(HUNDRED.subtract(p));
                p = p.divide(step, 0, RoundingMode.FLOOR)
                        .add(BigDecimal.ONE)
                        .multiply(step)
                        .stripTrailingZeros();
            }
            levels.addAll(List.of(99.9, 99.99, 99.999, 100.0));
            return new ArrayList<>(levels);
        }

        private static BigDecimal stepAt(BigDecimal tail) {
            BigDecimal halfDistance = HUNDRED;
            while (halfDistance.divide(TWO).compareTo(tail) >= 0) {
                halfDistance = halfDistance.divide(TWO);
            }
            BigDecimal omb = halfDistance.divide(STEPS_PER_HALF_DISTANCE);
            BigDecimal unit = BigDecimal.ONE.scaleByPowerOfTen((int) Math.floor(Math.log10(omb.doubleValue())));
            for (BigDecimal multiple : MULTIPLES) {
                if (unit.multiply(multiple).compareTo(omb) <= 0) {
                    return unit.multiply(multiple);
                }
            }
            return unit.divide(BigDecimal.TEN);
        }
    }
}

package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What every benchmark shares: how a figure's spread over rounds and a ratio of two sides are given. */
class BenchTest {

    @Test
    void aSpreadIsTheMedianThenTheRangeOfValuesInAnyOrder() {
        assertEquals("2.500 [1.000–4.000]", Bench.spread(new double[] {4, 1, 3, 2}, "%.3f"));
        assertEquals("3 [1-9]", Bench.spread(new double[] {9, 1, 3}, "%.0f", "-"));
        assertEquals("NaN [NaN–NaN]", Bench.spread(new double[0], "%.1f"));
    }

    @Test
    void ratiosAreRoundByRoundOfTheSidesAskedForSorted() {
        List<Double[]> runs = List.of(new Double[] {2.0, 8.0}, new Double[] {3.0, 3.0}, new Double[] {4.0, 1.0});
        assertArrayEquals(new double[] {0.25, 1.0, 4.0}, Bench.ratios(runs, 0, 1, Double::doubleValue));
        assertArrayEquals(new double[] {0.25, 1.0, 4.0}, Bench.ratios(runs, 1, 0, Double::doubleValue));
        List<Double[]> skewed = List.of(new Double[] {2.0, 1.0}, new Double[] {9.0, 3.0});
        assertArrayEquals(new double[] {2.0, 3.0}, Bench.ratios(skewed, 0, 1, Double::doubleValue));
        assertArrayEquals(new double[] {1.0 / 3, 0.5}, Bench.ratios(skewed, 1, 0, Double::doubleValue));
    }

    @Test
    void twoSidesAlternateAndThreeGoThroughEveryOrderInSixRounds() {
        assertArrayEquals(new int[] {0, 1}, Bench.order(1, 2));
        assertArrayEquals(new int[] {1, 0}, Bench.order(2, 2));
        assertArrayEquals(new int[] {0, 1, 2}, Bench.order(1, 3));
        assertArrayEquals(new int[] {0, 1, 2}, Bench.order(7, 3));
    }
}

package io.ombtx.runner.stats;

import java.util.Arrays;

/**
 * Statistics of a few repeated figures (rounds, passes, repetitions) that assume no distribution: the median, and
 * the order-statistics confidence interval of the median. One place for the runner and {@code bin/bench}.
 */
public final class OrderStatistics {

    private OrderStatistics() {}

    /** The median of {@code values} (in any order; the mean of the middle two for an even count); NaN for none. */
    public static double median(double... values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * The distribution-free {@code confidence} interval of the median of {@code sorted} (ascending): the k-th smallest
     * and k-th largest values, for the largest k whose interval covers the median with that probability (the number
     * of values below the median is Binomial(n, ½)); null when even the whole range covers it less often (for 90%,
     * fewer than 5 values).
     */
    public static double[] medianInterval(double[] sorted, double confidence) {
        int n = sorted.length;
        double below = 0; // P(Binomial(n, 1/2) <= k - 1), for k from 1
        double term = Math.pow(0.5, n); // P(B = k - 1)
        int best = 0;
        for (int k = 1; k <= n / 2; k++) {
            below += term;
            term = term * (n - (k - 1)) / k;
            if (1 - 2 * below >= confidence) {
                best = k;
            } else {
                break;
            }
        }
        return best == 0 ? null : new double[] {sorted[best - 1], sorted[n - best]};
    }
}

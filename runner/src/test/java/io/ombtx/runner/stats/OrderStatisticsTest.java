package io.ombtx.runner.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class OrderStatisticsTest {

    private static double[] oneToN(int n) {
        return IntStream.rangeClosed(1, n).asDoubleStream().toArray();
    }

    @Test
    void theMedianIsTheMiddleValueOrTheMeanOfTheMiddleTwoInAnyOrder() {
        assertEquals(2.0, OrderStatistics.median(3, 1, 2));
        assertEquals(2.5, OrderStatistics.median(4, 1, 3, 2));
        assertEquals(2.5, OrderStatistics.median(1, 2, 3, 4));
        assertEquals(7.0, OrderStatistics.median(7));
    }

    @Test
    void theMedianOfNothingIsNaN() {
        assertEquals(Double.NaN, OrderStatistics.median());
    }

    @Test
    void theMedianLeavesItsArgumentAsItWas() {
        double[] values = {3, 1, 2};
        OrderStatistics.median(values);
        assertArrayEquals(new double[] {3, 1, 2}, values);
    }

    @Test
    void theIntervalIsTheOrderStatisticsThatCoverTheMedianWithTheConfidenceAsked() {
        // n = 10: P(B <= 1) = 11/1024, so [x(2), x(9)] covers 97.9%; [x(3), x(8)] only 89.1%.
        assertArrayEquals(new double[] {2, 9}, OrderStatistics.medianInterval(oneToN(10), 0.90));
        assertArrayEquals(new double[] {3, 8}, OrderStatistics.medianInterval(oneToN(10), 0.89));
        // n = 5: the whole range covers 1 - 2/32 = 93.75%.
        assertArrayEquals(new double[] {1, 5}, OrderStatistics.medianInterval(oneToN(5), 0.90));
        assertNull(OrderStatistics.medianInterval(oneToN(5), 0.95));
        // n = 20: P(B <= 5) = 2.07%, P(B <= 6) = 5.77%: [x(6), x(15)].
        assertArrayEquals(new double[] {6, 15}, OrderStatistics.medianInterval(oneToN(20), 0.90));
        // n = 4: even the whole range covers only 87.5%.
        assertNull(OrderStatistics.medianInterval(oneToN(4), 0.90));
    }
}

package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.ombtx.runner.stats.Histograms;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The one-pass percentile values are HdrHistogram's {@code getValueAtPercentile}, value for value. */
class QuantilesTest {

    @Test
    void onePassValuesEqualGetValueAtPercentileAtEveryWrittenPercentile() {
        Random random = new Random(12);
        long[] counts = {0, 1, 2, 3, 7, 10, 99, 100, 101, 1_000, 12_345, 200_000};
        for (long count : counts) {
            for (int shape = 0; shape < 4; shape++) {
                Histogram h = Histograms.create();
                for (long i = 0; i < count; i++) {
                    long value = switch (shape) {
                        case 0 -> 1 + random.nextInt(100); // narrow
                        case 1 -> (long) Math.exp(random.nextDouble() * 16); // wide, log-spread
                        case 2 -> 42; // one value
                        default -> random.nextInt(10) == 0 ? 1_000_000 + random.nextInt(1_000_000) : random.nextInt(3);
                    };
                    h.recordValue(Histograms.clamp(value));
                }
                List<Double> levels = new ArrayList<>(Quantiles.percentiles(Math.max(1, count)));
                levels.add(0, 0.0); // percentile 0 takes the lowest equivalent value
                long[] expected = levels.stream().mapToLong(h::getValueAtPercentile).toArray();
                assertArrayEquals(expected, Quantiles.valuesAtPercentiles(h, levels), count + " values, shape " + shape);
            }
        }
    }
}

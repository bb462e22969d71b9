package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.bench.Throughput.Held;
import org.junit.jupiter.api.Test;

/** What {@code bin/bench throughput} calls a run that holds its rate, for the max-rate search's verdict. */
class ThroughputSearchCheckTest {

    @Test
    void aRunHoldsItsRateWhenItAchievesNearlyAllOfItWithABoundedPublishDelay() {
        assertTrue(new Held(1_000_000, 990_000, 3).holds(50));
        assertTrue(new Held(1_000_000, 980_000, 50).holds(50));
        assertFalse(new Held(1_000_000, 970_000, 3).holds(50), "fell 3% short");
        assertFalse(new Held(1_000_000, 1_000_000, 800).holds(50), "kept the rate only by sending ever later");
        assertFalse(new Held(1_000_000, Double.NaN, 3).holds(50), "nothing measured");
    }
}

package io.ombtx.runner.run;


import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RateRampTest {

    @Test
    void growsWhileProducersKeepUpAndTheBacklogIsSmall() {
        RateRamp controller = new RateRamp(10_000);
        assertEquals(12_500, controller.next(9_900, 500), 1e-9);
        assertEquals(15_625, controller.next(12_500, 0), 1e-9);
    }

    @Test
    void fallsBelowTheAchievedRateWhenProducersFallBehind() {
        RateRamp controller = new RateRamp(10_000);
        assertEquals(0.9 * 6_000, controller.next(6_000, 0), 1e-9);
    }

    @Test
    void fallsBackWhenConsumersAccumulateABacklog() {
        RateRamp controller = new RateRamp(10_000);
        assertEquals(9_000, controller.next(10_000, 50_000), 1e-9);
    }

    @Test
    void neverReachesZero() {
        RateRamp controller = new RateRamp(1);
        assertEquals(1, controller.next(0, 1_000_000), 1e-9);
    }
}

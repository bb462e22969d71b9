package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RateControllerTest {

    @Test
    void growsWhileProducersKeepUpAndTheBacklogIsSmall() {
        RateController controller = new RateController(10_000);
        assertEquals(12_500, controller.next(9_900, 500), 1e-9);
        assertEquals(15_625, controller.next(12_500, 0), 1e-9);
    }

    @Test
    void fallsBelowTheAchievedRateWhenProducersFallBehind() {
        RateController controller = new RateController(10_000);
        assertEquals(0.9 * 6_000, controller.next(6_000, 0), 1e-9);
    }

    @Test
    void fallsBackWhenConsumersAccumulateABacklog() {
        RateController controller = new RateController(10_000);
        assertEquals(9_000, controller.next(10_000, 50_000), 1e-9);
    }

    @Test
    void neverReachesZero() {
        RateController controller = new RateController(1);
        assertEquals(1, controller.next(0, 1_000_000), 1e-9);
    }

    @Test
    void countsSplitEvenlyWithTheRemainderOnTheFirstWorkers() {
        assertEquals(4, Ensemble.share(10, 3, 0));
        assertEquals(3, Ensemble.share(10, 3, 1));
        assertEquals(3, Ensemble.share(10, 3, 2));
        assertEquals(10, Ensemble.share(10, 3, 0) + Ensemble.share(10, 3, 1) + Ensemble.share(10, 3, 2));
    }
}

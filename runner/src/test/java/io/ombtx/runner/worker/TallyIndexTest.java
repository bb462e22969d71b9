package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Which tally an operation goes to, by arithmetic: the first {@code warmup} operations the warm-up's, the rest measured. */
class TallyIndexTest {

    @Test
    void theWarmUpsOperationsAreTheWarmUpsAndEveryOneAfterIsMeasured() {
        assertEquals(0, LoadState.tallyIndex(0, 3));
        assertEquals(0, LoadState.tallyIndex(2, 3));
        assertEquals(1, LoadState.tallyIndex(3, 3));
        assertEquals(1, LoadState.tallyIndex(4_000_000_000L, 3));
        assertEquals(0, LoadState.tallyIndex(9_999, 10_000));
        assertEquals(1, LoadState.tallyIndex(10_000, 10_000));
    }

    @Test
    void withoutAWarmUpEveryOperationIsMeasured() {
        assertEquals(1, LoadState.tallyIndex(0, 0));
        assertEquals(1, LoadState.tallyIndex(7, 0));
        // a consumer's warm-up of messages less the aborted ones may come out below zero
        assertEquals(1, LoadState.tallyIndex(0, -4));
    }
}

package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PacerTest {

    @Test
    void intendedStartsAreEvenlySpacedFromTheStart() {
        Pacer pacer = new Pacer(1000, 5_000_000L);
        assertEquals(5_000_000L, pacer.nextIntendedNanos());
        assertEquals(6_000_000L, pacer.nextIntendedNanos());
        assertEquals(7_000_000L, pacer.nextIntendedNanos());
    }

    @Test
    void aLateCallerIsNotRescheduledSoDelayIsVisible() {
        Pacer pacer = new Pacer(100, 0);
        // However late the caller is, the schedule keeps its cadence: op k is due at k × 10 ms.
        for (int k = 0; k < 50; k++) {
            assertEquals(k * 10_000_000L, pacer.nextIntendedNanos());
        }
    }

    @Test
    void rateChangesApplyFromTheNextInterval() {
        Pacer pacer = new Pacer(1000, 0);
        pacer.nextIntendedNanos();
        pacer.setRate(2000);
        assertEquals(1_000_000L, pacer.nextIntendedNanos());
        assertEquals(1_500_000L, pacer.nextIntendedNanos());
    }

    @Test
    void aZeroRateIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new Pacer(0, 0));
    }

    @Test
    void awaitUntilReturnsNoEarlierThanTheIntendedTime() {
        long target = System.nanoTime() + 3_000_000L;
        assertTrue(Pacer.awaitUntil(target));
        assertTrue(System.nanoTime() >= target);
    }
}

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

    @Test
    void aRestartForgivesWhatABehindScheduleOwesAndStartsNow() {
        Pacer pacer = new Pacer(1000, 0); // intended from time 0: long past, so far behind
        pacer.nextIntendedNanos();
        pacer.restart(2000);
        long before = System.nanoTime();
        long first = pacer.nextIntendedNanos();
        assertTrue(first >= before, "the new schedule starts now, not in the past");
        assertEquals(first + 500_000L, pacer.nextIntendedNanos());
        assertEquals(2000, pacer.rate());
    }

    @Test
    void aRestartWithAnOffsetKeepsASenderThreadsPlaceInASharedSchedule() {
        Pacer pacer = new Pacer(1000, 0);
        pacer.nextIntendedNanos();
        pacer.restart(2000, 300_000);
        long before = System.nanoTime();
        long first = pacer.nextIntendedNanos();
        assertTrue(first >= before + 300_000, "the new schedule starts one offset after now");
        assertEquals(first + 500_000L, pacer.nextIntendedNanos());
    }

    @Test
    void aRestartKeepsTheNextSlotOfAScheduleThatIsAhead() {
        long future = System.nanoTime() + 10_000_000_000L;
        Pacer pacer = new Pacer(1000, future);
        pacer.restart(4000);
        assertEquals(future, pacer.nextIntendedNanos());
        assertEquals(future + 250_000L, pacer.nextIntendedNanos());
    }

    @Test
    void awaitUntilParksInsteadOfSpinningForLongWaits() {
        // 20 ms ahead: a spinning wait would burn about 20 ms of CPU; a parked one next to none.
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        assertTrue(Pacer.awaitUntil(System.nanoTime() + 20_000_000L));
        long cpuMicros = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1000;
        assertTrue(cpuMicros < 10_000, cpuMicros + " µs of CPU while waiting 20 ms");
    }
}

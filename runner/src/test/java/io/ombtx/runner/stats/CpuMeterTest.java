package io.ombtx.runner.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CpuMeterTest {

    @Test
    void procStatsFirstLineGivesAllTicksAndTheIdleOnes() {
        // user nice system idle iowait irq softirq steal guest guest_nice: guest time is already in user and nice
        assertArrayEquals(
                new long[] {10 + 1 + 5 + 80 + 2 + 0 + 1 + 1, 80 + 2},
                CpuMeter.parseCpuLine("cpu  10 1 5 80 2 0 1 1 7 3"));
        assertNull(CpuMeter.parseCpuLine("cpu0 10 1 5 80 2 0 1 1 0 0"), "a single core's line is not the total");
        assertNull(CpuMeter.parseCpuLine("intr 1 2 3"));
    }

    @Test
    void whatThisThreadSpendsShowsInThisProcesssCpu() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long wallStart = System.nanoTime();
        CpuMeter meter = CpuMeter.start();
        long threadStart = threads.getCurrentThreadCpuTime();
        long spent = 0;
        while (spent < 100_000_000L) { // 100 ms of this thread's own CPU time, however long a busy machine takes
            spent = threads.getCurrentThreadCpuTime() - threadStart;
        }
        CpuMeter.Use use = meter.stop();
        long wall = System.nanoTime() - wallStart;
        assertNotNull(use.process());
        assertTrue(use.process() <= 1.0, use.toString());
        // The process's CPU time over the interval holds this thread's (the meter's interval lies within `wall`).
        assertTrue(use.process() * wall * use.cores() >= spent * 0.95, use + " for " + spent + " ns in " + wall);
    }

    @Test
    void twoSamplesGiveTheUseInBetweenAsAWorkerReportsThem() {
        CpuMeter.Sample from = new CpuMeter.Sample(1_000_000_000L, 5_000_000_000L, 4, 1_000, 600);
        CpuMeter.Sample to = new CpuMeter.Sample(3_000_000_000L, 9_000_000_000L, 4, 1_800, 800);
        CpuMeter.Use use = CpuMeter.between(from, to);
        assertEquals(0.5, use.process(), 1e-12, "4 s of CPU in 2 s on 4 cores");
        assertEquals(0.75, use.machine(), 1e-12, "600 of 800 ticks busy");
        assertEquals(4, use.cores());
        assertNull(use.where());
        CpuMeter.Use unknown = CpuMeter.between(
                new CpuMeter.Sample(0, -1, 2, -1, -1), new CpuMeter.Sample(1_000_000_000L, -1, 2, -1, -1));
        assertNull(unknown.process());
        assertNull(unknown.machine());
        assertEquals("http://w:1", use.at("http://w:1").where());
    }
}

package io.ombtx.runner.stats;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU use over an interval: this process's (its CPU time over the wall time, as a share of its cores) and, on Linux,
 * the whole machine's ({@code /proc/stat}: the share of time no core was idle). What a run that missed its rate needs
 * to say whether its own load generator or something else was busy.
 */
public final class CpuMeter {

    /**
     * The shares measured (0..1), each null where it could not be read.
     *
     * @param process this JVM's CPU time over the interval, per core it may use
     * @param machine the machine's busy time over the interval, per core (all processes)
     * @param cores the cores this JVM may use
     */
    public record Use(Double process, Double machine, int cores) {}

    private static final Path PROC_STAT = Path.of("/proc/stat");

    private final long startNanos;
    private final long startProcessCpu;
    private final long[] startMachine;

    private CpuMeter() {
        startNanos = System.nanoTime();
        startProcessCpu = processCpuNanos();
        startMachine = machineTicks();
    }

    /** Starts measuring now. */
    public static CpuMeter start() {
        return new CpuMeter();
    }

    /** What was used since {@link #start}. */
    public Use stop() {
        long wall = System.nanoTime() - startNanos;
        int cores = Runtime.getRuntime().availableProcessors();
        long processCpu = processCpuNanos();
        Double process = wall <= 0 || processCpu < 0 || startProcessCpu < 0
                ? null
                : Math.min(1.0, (processCpu - startProcessCpu) / (double) wall / cores);
        long[] machineNow = machineTicks();
        Double machine = null;
        if (startMachine != null && machineNow != null) {
            long total = machineNow[0] - startMachine[0];
            long idle = machineNow[1] - startMachine[1];
            machine = total <= 0 ? null : (total - idle) / (double) total;
        }
        return new Use(process, machine, cores);
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** The first line of /proc/stat: all ticks, and idle plus iowait ticks; null when unreadable. */
    static long[] machineTicks() {
        try {
            String first = Files.readAllLines(PROC_STAT).get(0);
            return parseCpuLine(first);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@code cpu  user nice system idle iowait irq softirq steal ...} → {total, idle + iowait}; null if not that. */
    static long[] parseCpuLine(String line) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length < 5 || !fields[0].equals("cpu")) {
            return null;
        }
        long total = 0;
        // guest and guest_nice (fields 9 and 10) are already counted in user and nice
        for (int i = 1; i < Math.min(fields.length, 9); i++) {
            total += Long.parseLong(fields[i]);
        }
        long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
        return new long[] {total, idle};
    }
}

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
    public record Use(Double process, Double machine, int cores, String where) {

        /** This process's use ({@code where} null). */
        public Use(Double process, Double machine, int cores) {
            this(process, machine, cores, null);
        }

        /** The same use, measured at {@code where} (a remote worker's URL). */
        public Use at(String where) {
            return new Use(process, machine, cores, where);
        }
    }

    /**
     * A process's CPU counters at one moment, as a worker reports them over HTTP ({@code /omb-tx/cpu}): two of them,
     * taken by the same process, give its {@link Use} in between ({@link #between}).
     *
     * @param wallNanos the process's monotonic clock ({@code System.nanoTime})
     * @param processCpuNanos its CPU time; -1 when unknown
     * @param cores the cores it may use
     * @param machineTicks the machine's ticks in all (/proc/stat); -1 when unknown
     * @param machineIdleTicks of those, idle and iowait; -1 when unknown
     */
    public record Sample(long wallNanos, long processCpuNanos, int cores, long machineTicks, long machineIdleTicks) {}

    /** This process's counters now. */
    public static Sample sample() {
        long[] machine = machineTicks();
        return new Sample(
                System.nanoTime(),
                processCpuNanos(),
                Runtime.getRuntime().availableProcessors(),
                machine == null ? -1 : machine[0],
                machine == null ? -1 : machine[1]);
    }

    /** What one process used between two of its samples. */
    public static Use between(Sample from, Sample to) {
        long wall = to.wallNanos() - from.wallNanos();
        int cores = Math.max(1, to.cores());
        Double process = wall <= 0 || from.processCpuNanos() < 0 || to.processCpuNanos() < 0
                ? null
                : Math.min(1.0, (to.processCpuNanos() - from.processCpuNanos()) / (double) wall / cores);
        Double machine = null;
        if (from.machineTicks() >= 0 && to.machineTicks() >= 0) {
            long total = to.machineTicks() - from.machineTicks();
            long idle = to.machineIdleTicks() - from.machineIdleTicks();
            machine = total <= 0 ? null : (total - idle) / (double) total;
        }
        return new Use(process, machine, cores);
    }

    private static final Path PROC_STAT = Path.of("/proc/stat");

    private final Sample start;

    private CpuMeter() {
        start = sample();
    }

    /** Starts measuring now. */
    public static CpuMeter start() {
        return new CpuMeter();
    }

    /** What was used since {@link #start}. */
    public Use stop() {
        return between(start, sample());
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

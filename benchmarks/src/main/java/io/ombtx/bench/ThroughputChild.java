package io.ombtx.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.GarbageCollectionNotificationInfo;
import io.ombtx.runner.ClassDataArchive;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.result.RateSearchRecord;
import io.ombtx.runner.result.RunResult;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * One omb-tx run of {@code bin/bench throughput} in a JVM of its own (started by {@link Throughput} with the same
 * flags as ProducerPerformance's, {@code -Xmx512m}), so that its CPU and heap are the runner's alone. Prints one
 * line, {@value #PREFIX} and a JSON object: the run's figures, and the heap after each garbage collection (the
 * largest: an upper bound of the live set), the collections and their pause time.
 *
 * <p>Arguments: bootstrap servers, scratch folder, run name, the workload's load keys (YAML).
 */
public final class ThroughputChild {

    static final String PREFIX = "omb-tx-child-result ";
    /** First argument: run ProducerPerformance with the remaining arguments, and print the CPU its run took. */
    static final String PRODUCER_PERFORMANCE = "--producer-performance";
    /** First argument: a bare paced kafka-clients loop (bootstrap, rate, warm-up seconds, measured seconds). */
    static final String BARE_LOOP = "--bare-loop";
    /** System property: take the live set with a full GC this many seconds into the run. */
    static final String LIVE_SET_PROPERTY = "bench.liveSetAfterSeconds";

    private ThroughputChild() {}

    /** System property: sample every thread's CPU (the saturation passes; a delay run is not disturbed by it). */
    static final String THREAD_CPU_PROPERTY = "bench.threadCpu";

    private static final ThreadCpu THREAD_CPU = Boolean.getBoolean(THREAD_CPU_PROPERTY) ? ThreadCpu.start() : null;

    public static void main(String[] args) throws Exception {
        AtomicLong heapAfterGcMax = new AtomicLong();
        // Heap in use right after each collection, summed over the heap pools: what survived (the live set, plus
        // old-generation garbage no mixed collection has reached yet).
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc)
                    .addNotificationListener(
                            (notification, handback) -> {
                                if (!notification
                                        .getType()
                                        .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                                    return;
                                }
                                GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
                                        (CompositeData) notification.getUserData());
                                long used = info.getGcInfo().getMemoryUsageAfterGc().values().stream()
                                        .mapToLong(MemoryUsage::getUsed)
                                        .sum();
                                heapAfterGcMax.accumulateAndGet(used, Math::max);
                                GC_LONGEST_MILLIS.accumulateAndGet(
                                        info.getGcInfo().getDuration(), Math::max);
                            },
                            null,
                            null);
        }
        if (args[0].equals(BARE_LOOP)) {
            bareLoop(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            return;
        }
        if (args[0].equals(PRODUCER_PERFORMANCE)) {
            producerPerformance(java.util.Arrays.copyOfRange(args, 1, args.length), heapAfterGcMax);
            return;
        }
        String bootstrap = args[0];
        long liveSetAfterSeconds = Long.getLong(LIVE_SET_PROPERTY, -1);
        AtomicLong liveSet = new AtomicLong(-1);
        if (liveSetAfterSeconds >= 0) {
            // The live set at saturation: one full collection once the run has been saturated for a while. It
            // costs a pause, so Throughput asks for it in the uncounted warm-up pass only.
            Thread probe = new Thread(
                    () -> {
                        try {
                            // Counted from the moment the load starts (the producer threads exist), not from the JVM's
                            // start: planning, the topic and the producers take seconds on a busy machine.
                            while (Thread.getAllStackTraces().keySet().stream()
                                    .noneMatch(t -> t.getName().startsWith("producer-")
                                            || t.getName().startsWith("sender-"))) {
                                Thread.sleep(50);
                            }
                            Thread.sleep(liveSetAfterSeconds * 1000);
                        } catch (InterruptedException e) {
                            return;
                        }
                        System.gc();
                        liveSet.set(ManagementFactory.getMemoryMXBean()
                                .getHeapMemoryUsage()
                                .getUsed());
                    },
                    "live-set-probe");
            probe.setDaemon(true);
            probe.start();
        }
        Bench bench = new Bench(OmbTxHome.locate(), Path.of(args[1]));
        DriverFile driver = bench.kafkaTx(Throughput.DRIVER_OVERRIDES, bootstrap);
        long wallStart = System.nanoTime();
        Bench.Run run = ThroughputPasses.ombTxRun(bench, driver, args[2], args[3]);
        double wallSeconds = (System.nanoTime() - wallStart) / 1e9;
        RunResult r = run.result();
        ClassDataArchive.saveIfAsked(); // as bin/benchmark's first complete run does (Throughput asks the warm-up pass)
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("complete", r.summary() != null);
        out.put("messagesPerSecond", r.summary().messagesPerSecond());
        out.put("messagesSent", r.counts().messagesSent());
        out.put("runCpuSeconds", run.cpuNanos() / 1e9);
        var delay = r.aggregatedPublishDelayLatency();
        putDelay(out, delay.p50(), delay.p95(), delay.p99(), delay.p999());
        RateSearchRecord search = r.runMode().maxRateSearch();
        if (search != null) {
            out.put("searchFoundRate", search.foundRate());
            out.put("searchSeconds", search.seconds());
            out.put("searchProbes", search.steps().size());
            out.put("searchCompleted", search.completed());
        }
        out.put("heapAfterGcMaxMiB", heapAfterGcMax.get() / 1024.0 / 1024.0);
        out.put("liveSetMiB", liveSet.get() < 0 ? null : liveSet.get() / 1024.0 / 1024.0);
        out.put("heapMaxMiB", Runtime.getRuntime().maxMemory() / 1024.0 / 1024.0);
        putGc(out, wallSeconds);
        System.out.println(PREFIX + new ObjectMapper().writeValueAsString(out));
        System.out.flush();
        System.exit(0); // the client's and the runner's daemon threads need not wind down
    }

    /**
     * Where this process's CPU goes, per thread group: every thread's CPU ({@code /proc/self/task/<tid>/stat}, JVM
     * threads included: GC workers, JIT compilers) read every 100 ms and kept per thread id, so that a thread that
     * ends before the run does (the producer's I/O thread, closed with it) still counts with its last reading.
     * Threads are grouped by name with digits taken out ({@code GC Thread#0} and {@code GC Thread#1} are
     * {@code GC Thread#}; Linux truncates a name to 15 characters); what no reading caught (a thread's last 100 ms,
     * threads shorter than that) is the process's total less the rest, under {@value #UNSAMPLED}.
     */
    static final class ThreadCpu {
        private final Map<String, String> names = new java.util.concurrent.ConcurrentHashMap<>();
        private final Map<String, Long> ticks = new java.util.concurrent.ConcurrentHashMap<>();

        static ThreadCpu start() {
            ThreadCpu cpu = new ThreadCpu();
            Thread sampler = new Thread(
                    () -> {
                        while (true) {
                            cpu.sample();
                            try {
                                Thread.sleep(100);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "thread-cpu-sampler");
            sampler.setDaemon(true);
            sampler.start();
            return cpu;
        }

        private synchronized void sample() {
            try (var tasks = java.nio.file.Files.list(Path.of("/proc/self/task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    try {
                        String stat = java.nio.file.Files.readString(task.resolve("stat"));
                        String id = task.getFileName().toString();
                        names.put(
                                id,
                                stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                                        .replaceAll("[0-9]+", ""));
                        ticks.put(id, cpuTicks(stat));
                    } catch (java.io.IOException | RuntimeException e) {
                        // the thread ended meanwhile: its last reading stands
                    }
                }
            } catch (java.io.IOException | RuntimeException e) {
                // no /proc: nothing to say
            }
        }

        /** Seconds of CPU per thread group so far. Empty where /proc is not there. */
        synchronized Map<String, Double> seconds() {
            sample();
            if (ticks.isEmpty()) {
                return Map.of();
            }
            Map<String, Double> groups = new java.util.TreeMap<>();
            long sum = 0;
            for (Map.Entry<String, Long> e : ticks.entrySet()) {
                groups.merge(names.get(e.getKey()), e.getValue() / 100.0, Double::sum); // USER_HZ is 100 on Linux
                sum += e.getValue();
            }
            try {
                long process = cpuTicks(java.nio.file.Files.readString(Path.of("/proc/self/stat")));
                groups.put(UNSAMPLED, Math.max(0, process - sum) / 100.0);
            } catch (java.io.IOException e) {
                // no total: no remainder
            }
            return groups;
        }
    }

    static final String UNSAMPLED = "(not sampled)";

    /** The longest collection this JVM has had, in ms (from the collectors' notifications). */
    private static final AtomicLong GC_LONGEST_MILLIS = new AtomicLong();
    /** The machine's steal time when this JVM started, in clock ticks (-1 where /proc/stat has none). */
    private static final long STEAL_AT_START = stealTicks();

    /**
     * The time the hypervisor ran something else while this machine's vCPUs had work (all CPUs, the 8th value of
     * {@code /proc/stat}'s {@code cpu} line), in clock ticks; -1 where it cannot be read. A late sender in a delay
     * run with steal beside it is the host's, not the tool's.
     */
    static long stealTicks() {
        try {
            String cpu = java.nio.file.Files.readAllLines(Path.of("/proc/stat")).get(0);
            String[] fields = cpu.trim().split("\\s+");
            return fields.length > 8 ? Long.parseLong(fields[8]) : -1;
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * utime + stime of a {@code /proc/.../stat} line, in clock ticks (the 12th and 13th fields after the command's
     * closing parenthesis).
     */
    static long cpuTicks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** A delay run's publish-delay percentiles, given in µs, as the ms figures {@link Throughput} reads. */
    private static void putDelay(Map<String, Object> out, double p50, double p95, double p99, double p999) {
        out.put("publishDelayP50Millis", p50 / 1000.0);
        out.put("publishDelayP95Millis", p95 / 1000.0);
        out.put("publishDelayP99Millis", p99 / 1000.0);
        out.put("publishDelayP999Millis", p999 / 1000.0);
    }

    /** The collections so far, their total pause time and the run's wall time. */
    private static void putGc(Map<String, Object> out, double wallSeconds) {
        long gcCount = 0;
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcCount += Math.max(0, gc.getCollectionCount());
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        out.put("gcCount", gcCount);
        out.put("gcSeconds", gcMillis / 1e3);
        out.put("gcLongestMillis", GC_LONGEST_MILLIS.get());
        long steal = stealTicks();
        out.put("stealSeconds", steal < 0 || STEAL_AT_START < 0 ? null : (steal - STEAL_AT_START) / 100.0);
        out.put("wallSeconds", wallSeconds);
        // Every thread's heap allocation since the JVM started, ended threads included.
        out.put(
                "allocatedBytes",
                ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes());
        if (THREAD_CPU != null) {
            out.put("threadCpuSeconds", THREAD_CPU.seconds());
        }
    }

    /** {@link BareLoop} with the bench's producer settings; prints its rate and publish-delay percentiles. */
    private static void bareLoop(String bootstrap, int rate, int warmupSeconds, int seconds) throws Exception {
        long wallStart = System.nanoTime();
        java.util.Properties settings = new java.util.Properties();
        settings.setProperty("acks", "all");
        settings.setProperty("linger.ms", "5");
        settings.setProperty("batch.size", "131072");
        BareLoop.Figures f =
                BareLoop.run(bootstrap, settings, rate, (long) rate * warmupSeconds, (long) rate * seconds);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("messagesPerSecond", f.achievedRate());
        putDelay(out, f.delayP50Micros(), f.delayP95Micros(), f.delayP99Micros(), f.delayP999Micros());
        putGc(out, (System.nanoTime() - wallStart) / 1e9);
        System.out.println(PREFIX + new ObjectMapper().writeValueAsString(out));
        System.out.flush();
        System.exit(0);
    }

    /**
     * Kafka's ProducerPerformance, unchanged, in this JVM; afterwards the CPU this process spent in its
     * {@code main} (what {@code runCpuSeconds} is for omb-tx: the run without the JVM's start).
     */
    private static void producerPerformance(String[] args, AtomicLong heapAfterGcMax) throws Exception {
        long before = Bench.cpuNanos();
        long wallStart = System.nanoTime();
        org.apache.kafka.tools.ProducerPerformance.main(args);
        long cpu = Bench.cpuNanos() - before;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("runCpuSeconds", cpu / 1e9);
        out.put("heapAfterGcMaxMiB", heapAfterGcMax.get() / 1024.0 / 1024.0);
        putGc(out, (System.nanoTime() - wallStart) / 1e9);
        System.out.println(PREFIX + new ObjectMapper().writeValueAsString(out));
        System.out.flush();
        System.exit(0);
    }
}

package io.ombtx.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.GarbageCollectionNotificationInfo;
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
    /** System property: take the live set with a full GC this many seconds into the run. */
    static final String LIVE_SET_PROPERTY = "bench.liveSetAfterSeconds";

    private ThroughputChild() {
    }

    public static void main(String[] args) throws Exception {
        AtomicLong heapAfterGcMax = new AtomicLong();
        // Heap in use right after each collection, summed over the heap pools: what survived (the live set, plus
        // old-generation garbage no mixed collection has reached yet).
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
                if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                    return;
                }
                GarbageCollectionNotificationInfo info =
                        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                long used = info.getGcInfo().getMemoryUsageAfterGc().values().stream()
                        .mapToLong(MemoryUsage::getUsed).sum();
                heapAfterGcMax.accumulateAndGet(used, Math::max);
            }, null, null);
        }
        if (args[0].equals(PRODUCER_PERFORMANCE)) {
            producerPerformance(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        String bootstrap = args[0];
        long liveSetAfterSeconds = Long.getLong(LIVE_SET_PROPERTY, -1);
        AtomicLong liveSet = new AtomicLong(-1);
        if (liveSetAfterSeconds >= 0) {
            // The live set at saturation: one full collection once the run has been saturated for a while. It
            // costs a pause, so Throughput asks for it in the uncounted warm-up pass only.
            Thread probe = new Thread(() -> {
                try {
                    // Counted from the moment the load starts (the producer threads exist), not from the JVM's
                    // start: planning, the topic and the producers take seconds on a busy machine.
                    while (Thread.getAllStackTraces().keySet().stream()
                            .noneMatch(t -> t.getName().startsWith("producer-"))) {
                        Thread.sleep(50);
                    }
                    Thread.sleep(liveSetAfterSeconds * 1000);
                } catch (InterruptedException e) {
                    return;
                }
                System.gc();
                liveSet.set(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
            }, "live-set-probe");
            probe.setDaemon(true);
            probe.start();
        }
        Bench bench = new Bench(OmbTxHome.locate(), Path.of(args[1]));
        DriverFile driver = bench.kafkaTx(Throughput.DRIVER_OVERRIDES, bootstrap);
        long wallStart = System.nanoTime();
        Bench.Run run = Throughput.ombTxRun(bench, driver, args[2], args[3]);
        double wallSeconds = (System.nanoTime() - wallStart) / 1e9;
        RunResult r = run.result();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("complete", r.summary() != null);
        out.put("messagesPerSecond", r.summary().messagesPerSecond());
        out.put("messagesSent", r.counts().messagesSent());
        out.put("runCpuSeconds", run.cpuNanos() / 1e9);
        out.put("publishDelayP99Millis", r.aggregatedPublishDelayLatency().p99() / 1000.0);
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
        out.put("wallSeconds", wallSeconds);
    }

    /**
     * Kafka's ProducerPerformance, unchanged, in this JVM; afterwards the CPU this process spent in its
     * {@code main} (what {@code runCpuSeconds} is for omb-tx: the run without the JVM's start).
     */
    private static void producerPerformance(String[] args) throws Exception {
        long before = Bench.cpuNanos();
        long wallStart = System.nanoTime();
        org.apache.kafka.tools.ProducerPerformance.main(args);
        long cpu = Bench.cpuNanos() - before;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("runCpuSeconds", cpu / 1e9);
        putGc(out, (System.nanoTime() - wallStart) / 1e9);
        System.out.println(PREFIX + new ObjectMapper().writeValueAsString(out));
        System.out.flush();
        System.exit(0);
    }
}

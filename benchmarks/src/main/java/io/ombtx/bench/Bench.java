package io.ombtx.bench;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.plan.PlanOptions;
import io.ombtx.runner.plan.Planner;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.run.Interruption;
import io.ombtx.runner.run.RunCoordinator;
import io.ombtx.runner.run.RunOptions;
import io.ombtx.runner.worker.LocalWorker;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the benchmarks share: the omb-tx folder, a scratch folder for workload and result files, the shipped kafka-tx
 * driver on the embedded broker, and one run through the omb-tx runner in this JVM.
 *
 * @param home the omb-tx folder (drivers, workloads)
 * @param work a fresh temporary folder
 */
record Bench(Path home, Path work) {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** {@code --keep-work}, every benchmark's: whether its work folder outlives a run that ended well. */
    static final class KeepWork {
        @picocli.CommandLine.Option(
                names = "--keep-work",
                description = "keep the work folder (workloads, results, per-operation files, logs) of a run that ended"
                        + " well; a run with a failure keeps it and prints its path")
        boolean keep;
    }

    /** One run's result and the CPU time this process spent running it. */
    record Run(RunResult result, long cpuNanos) {}

    static Bench create() throws IOException {
        return new Bench(OmbTxHome.locate(), Files.createTempDirectory("omb-tx-bench-"));
    }

    /**
     * The end of a benchmark that ran to its end: its work folder deleted, or with {@code keep} (a failed round whose
     * message points into it, {@code --keep-work}) left in place and its path printed. A benchmark stopped by an
     * exception keeps it, as the exception's message may name a log in it.
     */
    void finish(PrintStream out, boolean keep) throws IOException {
        if (keep) {
            out.println("Work folder kept (workloads, results, per-operation files, logs): " + work);
            return;
        }
        try (Stream<Path> paths = Files.walk(work)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** CPU time of this process so far. */
    static long cpuNanos() {
        return OS.getProcessCpuTime();
    }

    /** driver-kafka-tx/kafka-tx.yaml with {@code overrides}, against {@code cluster}. */
    DriverFile kafkaTx(DriverOverrides overrides, EmbeddedKafkaCluster cluster) {
        return kafkaTx(overrides, cluster.bootstrapServers());
    }

    /** driver-kafka-tx/kafka-tx.yaml with {@code overrides}, against the cluster at {@code bootstrapServers}. */
    DriverFile kafkaTx(DriverOverrides overrides, String bootstrapServers) {
        return DriverFile.load(home.resolve("driver-kafka-tx/kafka-tx.yaml")).effective(overrides, bootstrapServers);
    }

    /** driver-kafka-tx/kafka-tx.yaml with {@code overrides} and no cluster named: each run starts its own broker. */
    DriverFile kafkaTxEmbedded(DriverOverrides overrides) {
        return DriverFile.load(home.resolve("driver-kafka-tx/kafka-tx.yaml")).effective(overrides, null);
    }

    /** The omb-tx runner end to end (plan, local worker, driver, stats, result file) on one workload, quietly. */
    Run run(DriverFile driver, Workload workload) throws Exception {
        return run(driver, workload, PlanOptions.defaults());
    }

    /**
     * As {@link #run(DriverFile, Workload)}, planned with {@code plan} (e.g. the embedded broker's release and
     * transaction version); with a driver naming no cluster, the run starts a fresh embedded broker and stops it.
     */
    RunResult runEmbedded(DriverFile driver, Workload workload, PlanOptions plan) throws Exception {
        return run(driver, workload, plan).result();
    }

    private Run run(DriverFile driver, Workload workload, PlanOptions plan) throws Exception {
        RunOptions options = new RunOptions(work, null, true);
        RunSpec spec = Planner.plan(List.of(driver), List.of(workload), plan).get(0);
        long cpuBefore = cpuNanos();
        RunResult result = new RunCoordinator(options, System.out, worker -> new LocalWorker(), new Interruption())
                .run(spec)
                .result();
        return new Run(result, cpuNanos() - cpuBefore);
    }
}

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
import io.ombtx.runner.stats.OrderStatistics;
import io.ombtx.runner.worker.LocalWorker;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
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

    /** The omb-tx runner end to end (plan, local worker, driver, stats, result file) on one workload, quietly. */
    Run run(DriverFile driver, Workload workload) throws Exception {
        RunOptions options = new RunOptions(work, null, true);
        RunSpec spec = Planner.plan(List.of(driver), List.of(workload), PlanOptions.defaults())
                .get(0);
        long cpuBefore = cpuNanos();
        RunResult result = new RunCoordinator(options, System.out, worker -> new LocalWorker(), new Interruption())
                .run(spec)
                .result();
        return new Run(result, cpuNanos() - cpuBefore);
    }

    /** {@code values}' median [min–max], each in {@code format} (e.g. {@code "%.3f"}). */
    static String spread(double[] values, String format) {
        return spread(values, format, "–");
    }

    /** As {@link #spread(double[], String)}, with {@code dash} between min and max (NaN for no values). */
    static String spread(double[] values, String format, String dash) {
        double[] sorted = values.clone();
        Arrays.sort(sorted); // a NaN last, as the median sees it
        return String.format(
                Locale.ROOT,
                format + " [" + format + dash + format + "]",
                OrderStatistics.median(values),
                sorted.length == 0 ? Double.NaN : sorted[0],
                sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1]);
    }

    /** Run by run, side {@code numerator}'s {@code figure} ÷ side {@code denominator}'s, sorted. */
    static <T> double[] ratios(List<T[]> runs, int numerator, int denominator, ToDoubleFunction<T> figure) {
        return runs.stream()
                .mapToDouble(r -> figure.applyAsDouble(r[numerator]) / figure.applyAsDouble(r[denominator]))
                .sorted()
                .toArray();
    }

    /**
     * The order the sides run in round {@code round} (from 1). Two sides alternate. Three (--aa) go through the six
     * orders so that each side runs before each other one in half of every six rounds: a run's place in the round
     * moves its figures (the runs of one loop on one broker drift apart; measured, the bare loop's second run ÷ its
     * first was 1.14 at p50 in tx-fetch when the second followed the first in 4 of 5 rounds, as turning the order
     * left it), so a comparison must not always put one side first.
     */
    static int[] order(int round, int sides) {
        if (sides == 2) {
            return round % 2 == 1 ? new int[] {0, 1} : new int[] {1, 0};
        }
        int[][] orders = {{0, 1, 2}, {2, 1, 0}, {1, 2, 0}, {0, 2, 1}, {2, 0, 1}, {1, 0, 2}};
        return orders[(round - 1) % orders.length].clone();
    }

    /** Waits up to 30 minutes for {@code process} (killed after that); its exit code. */
    static int await(Process process, String what) throws InterruptedException {
        if (!process.waitFor(30, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(what + " did not finish within 30 minutes");
        }
        return process.exitValue();
    }

    /** The last 20 lines of {@code log}, for a failure's message; none when it is missing. */
    static String tail(Path log) throws IOException {
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}

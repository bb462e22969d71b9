package io.ombtx.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.PlanOptions;
import io.ombtx.runner.plan.Planner;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.result.ResultReader;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * What the benchmarks share: the omb-tx folder and a scratch folder, the omb-tx runner in this JVM or in one of its
 * own, the rounds that alternate omb-tx with its baseline, and the ratios over them with the interval of their median
 * ({@link OrderStatistics}).
 *
 * @param home the omb-tx folder (drivers, workloads)
 * @param work a fresh temporary folder
 */
record Bench(Path home, Path work) {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** The confidence of a ratio's interval. */
    static final double CONFIDENCE = 0.90;

    /** How {@link #ratio} and {@link #decided} read, for a benchmark's header. */
    static final String RATIOS = "ratios omb-tx ÷ baseline round by round: their median [its 90% interval], or"
            + " (min–max) with fewer than 5 rounds";

    /** {@code --keep-work}, every benchmark's: whether its work folder outlives a run that ended well. */
    static final class KeepWork {
        @picocli.CommandLine.Option(
                names = "--keep-work",
                description = "keep the work folder (workloads, results, logs) of a run that ended"
                        + " well; a run with a failure keeps it and prints its path")
        boolean keep;
    }

    /** One run's result and the CPU time this process spent running it. */
    record Run(RunResult result, long cpuNanos) {}

    /** One round's figures of both sides. */
    record Pair<T>(T ombTx, T baseline) {}

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
            out.println("Work folder kept (workloads, results, logs): " + work);
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

    /** driver-kafka-tx/kafka-tx.yaml against {@code cluster}. */
    DriverFile kafkaTx(EmbeddedKafkaCluster cluster) {
        return DriverFile.load(home.resolve("driver-kafka-tx/kafka-tx.yaml"))
                .effective(DriverOverrides.none(), cluster.bootstrapServers());
    }

    /** A workload file named {@code name} in the work folder with {@code yaml} in it. */
    Path workloadFile(String name, String yaml) throws IOException {
        return Files.writeString(work.resolve(name + ".yaml"), "name: " + name + "\n" + yaml);
    }

    /** {@link #workloadFile}, loaded. */
    Workload workload(String name, String yaml) throws IOException {
        return WorkloadLoader.load(workloadFile(name, yaml), null).get(0);
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

    /** {@code driver} (a driver file) with the cluster's address added, as a file in the work folder. */
    Path driverFile(Path driver, String bootstrap) throws IOException {
        ObjectNode node = (ObjectNode) YAML.readTree(driver.toFile());
        node.put("commonConfig", node.path("commonConfig").asText("") + "\nbootstrap.servers=" + bootstrap + "\n");
        Path file = work.resolve("driver.yaml");
        YAML.writeValue(file.toFile(), node);
        return file;
    }

    /**
     * The omb-tx runner ({@code bin/benchmark}'s main) in a JVM of its own with {@code jvmFlags} (its worker JVM, for
     * {@code --client-version}, gets them too), quietly, writing {@code output}; its result read back.
     */
    RunResult runner(List<String> jvmFlags, String classPath, Path driver, Path workload, Path output, String... args)
            throws Exception {
        List<String> command = new ArrayList<>(List.of("-d", driver.toString(), "-q", "-o", output.toString()));
        command.addAll(List.of(args));
        command.add(workload.toString());
        ProcessBuilder process = new ProcessBuilder(java(jvmFlags, classPath, "io.ombtx.runner.Main", command));
        process.environment().put("OMBTX_JAVA_OPTS", String.join(" ", jvmFlags));
        exec(process, output.resolveSibling(output.getFileName() + ".log"), "omb-tx on " + workload.getFileName());
        return ResultReader.read(output);
    }

    /** {@code java FLAGS -Dombtx.home=… -cp CLASS_PATH MAIN ARGS}, with this JVM's java. */
    List<String> java(List<String> flags, String classPath, String main, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags);
        command.addAll(List.of("-Dombtx.home=" + home, "-cp", classPath, main));
        command.addAll(args);
        return command;
    }

    /**
     * Runs {@code process} with its output in {@code log}, for up to 30 minutes (killed after that); an
     * IllegalStateException naming {@code what} and the log's last lines when it fails.
     */
    static void exec(ProcessBuilder process, Path log, String what) throws IOException, InterruptedException {
        Process started =
                process.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!started.waitFor(30, TimeUnit.MINUTES)) {
            started.destroyForcibly();
            throw new IllegalStateException(what + " did not finish within 30 minutes; see " + log);
        }
        if (started.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log);
            throw new IllegalStateException(what + " exited " + started.exitValue() + "; see " + log + ":\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
        }
    }

    /** A fresh topic of {@code partitions} partitions (the embedded broker creates none by itself). */
    static void createTopic(String bootstrap, String topic, int partitions, short replication) throws Exception {
        Properties props = new Properties();
        props.setProperty("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, replication)))
                    .all()
                    .get();
        }
    }

    /** Parks this thread until {@link System#nanoTime()} reaches {@code nanoTime}. */
    static void parkUntil(long nanoTime) {
        long wait;
        while ((wait = nanoTime - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
    }

    /**
     * Round {@code round} (from 1): both sides, omb-tx first in odd rounds and second in even ones, so that neither
     * always meets the broker fresher (the runs of one loop on one broker drift apart).
     */
    static <T> Pair<T> round(int round, Callable<T> ombTx, Callable<T> baseline) throws Exception {
        if (round % 2 == 1) {
            T omb = ombTx.call();
            return new Pair<>(omb, baseline.call());
        }
        T base = baseline.call();
        return new Pair<>(ombTx.call(), base);
    }

    /** Round by round, omb-tx's {@code figure} ÷ the baseline's, sorted. */
    static <T> double[] ratios(List<Pair<T>> rounds, ToDoubleFunction<T> figure) {
        return rounds.stream()
                .mapToDouble(r -> figure.applyAsDouble(r.ombTx()) / figure.applyAsDouble(r.baseline()))
                .sorted()
                .toArray();
    }

    /** One side's {@code figure} over the rounds, its median. */
    static <T> double median(List<Pair<T>> rounds, boolean ombTx, ToDoubleFunction<T> figure) {
        return OrderStatistics.median(rounds.stream()
                .mapToDouble(r -> figure.applyAsDouble(ombTx ? r.ombTx() : r.baseline()))
                .toArray());
    }

    /** {@code ratios}' median and its {@link #CONFIDENCE} interval, or their range for fewer than 5; see {@link #RATIOS}. */
    static String ratio(double[] ratios) {
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        double median = OrderStatistics.median(sorted);
        if (sorted.length <= 1) {
            return String.format(Locale.ROOT, "%.3f", median);
        }
        double[] interval = OrderStatistics.medianInterval(sorted, CONFIDENCE);
        return interval == null
                ? String.format(Locale.ROOT, "%.3f (%.3f–%.3f)", median, sorted[0], sorted[sorted.length - 1])
                : String.format(Locale.ROOT, "%.3f [%.3f–%.3f]", median, interval[0], interval[1]);
    }

    /**
     * {@link #ratio} and what the rounds decide against the band [{@code low}, {@code high}]: "met" or "not met" when
     * the interval lies wholly inside or wholly outside it, else "undecided"; nothing without an interval.
     */
    static String decided(double[] ratios, double low, double high) {
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        double[] interval = OrderStatistics.medianInterval(sorted, CONFIDENCE);
        if (interval == null) {
            return ratio(sorted);
        }
        String verdict = interval[0] >= low && interval[1] <= high
                ? "met"
                : interval[1] < low || interval[0] > high ? "not met" : "undecided";
        return ratio(sorted) + " " + verdict;
    }
}

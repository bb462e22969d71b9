package io.ombtx.bench;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.UsageException;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.result.RateSearchRecord;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Is the load generator ever the bottleneck? On one embedded broker with the same producer settings
 * ({@code acks=all linger.ms=5 batch.size=131072}, 1 topic × 1 partition, 100-byte messages, no consumer), it
 * alternates Kafka's own {@code ProducerPerformance} (kafka-tools, {@code --throughput -1}) and the omb-tx runner at
 * an unreachable {@code producerRate}, and prints msg/s, CPU µs per message and the runner's heap high-water mark,
 * with omb-tx ÷ ProducerPerformance ratios (median and range); then the max-rate search ({@code producerRate: 0}):
 * rate found, seconds to find it, ratio to the saturation rate; then publish-delay p99 at 10K and 50K msg/s.
 * Each target from issue 12 is printed MET or NOT MET: a benchmark, not a test.
 *
 * <p>Both sides run in this JVM, one after the other, so they share its flags and JIT; CPU is this process's CPU
 * time over each whole run (set-up and close included, the broker excluded), and, separately, the broker's from
 * /proc over the same interval.
 */
public final class Throughput {

    private static final String PRODUCER_SETTINGS = "acks=all linger.ms=5 batch.size=131072";
    private static final Pattern PP_SUMMARY = Pattern.compile("(\\d+) records sent, ([0-9.]+) records/sec");

    @Command(name = "bin/bench throughput",
            description = "Kafka's ProducerPerformance vs the omb-tx runner on the same embedded broker with the same"
                    + " producer settings (" + PRODUCER_SETTINGS + ", 1 topic x 1 partition, 100-byte messages, no"
                    + " consumer), alternating: msg/s, CPU us per message, the runner's heap high-water mark and the"
                    + " omb-tx / ProducerPerformance ratios; then the max-rate search (producerRate: 0) and"
                    + " publish-delay p99 at 10K and 50K msg/s open loop. Prints each issue-12 target as MET or NOT MET.",
            footer = {"", "Both tools run in this JVM, alternately (the first tool alternates too); CPU is process CPU",
                "time of this JVM over each whole run, the broker's (from /proc) shown apart.", "",
                "Examples:", "  bin/bench throughput --quick", "  bin/bench throughput --passes 5 --messages 6000000"})
    static final class Options implements Cli.Validated {
        @Option(names = "--quick", description = "short runs (1M messages a pass, 5 s delay runs): a few minutes")
        boolean quick;

        @Option(names = "--passes", paramLabel = "N", description = "saturation passes of each tool (default: 3)")
        int passes = 3;

        @Option(names = "--messages", paramLabel = "N",
                description = "messages per saturation run (default: 6000000, --quick 1000000)")
        Long messages;

        @Option(names = "--delay-seconds", paramLabel = "S",
                description = "measured seconds of each publish-delay run (default: 20, --quick 5)")
        Integer delaySeconds;

        @Option(names = "--skip-search", description = "leave out the max-rate search")
        boolean skipSearch;

        @Option(names = "--skip-delay", description = "leave out the publish-delay runs")
        boolean skipDelay;

        @Override
        public void validate() {
            if (passes < 1 || passes > 50) {
                throw new UsageException("--passes must be 1 to 50, got " + passes);
            }
            if (messages != null && messages < 10_000) {
                throw new UsageException("--messages must be at least 10000, got " + messages);
            }
            if (delaySeconds != null && (delaySeconds < 1 || delaySeconds > 3600)) {
                throw new UsageException("--delay-seconds must be 1 to 3600, got " + delaySeconds);
            }
        }

        long messages() {
            return messages != null ? messages : quick ? 1_000_000 : 6_000_000;
        }

        int delaySeconds() {
            return delaySeconds != null ? delaySeconds : quick ? 5 : 20;
        }
    }

    /** One saturation run of either tool. */
    record Pass(String tool, double messagesPerSecond, double cpuMicrosPerMessage, double brokerCpuMicrosPerMessage,
            double heapPeakMiB) {
    }

    private Throughput() {
    }

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, Throughput::run);
    }

    private static int run(Options options) throws Exception {
        PrintStream out = System.out;
        Bench bench = Bench.create();
        long messages = options.messages();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start()) {
            DriverFile driver = bench.kafkaTx(new DriverOverrides(null, Map.of("producerConfig",
                    "linger.ms=5\nbatch.size=131072\n")), cluster);
            out.printf(Locale.ROOT, "Throughput: embedded Kafka %s, %d cores, %s, %d pass(es) of %d messages each%n",
                    EmbeddedKafkaCluster.brokerVersion(), Runtime.getRuntime().availableProcessors(), PRODUCER_SETTINGS,
                    options.passes, messages);
            out.printf(Locale.ROOT, "%-22s %5s %12s %14s %16s %12s%n", "tool", "pass", "msg/s", "CPU us/msg",
                    "broker us/msg", "heap MiB");
            List<Pass> pp = new ArrayList<>();
            List<Pass> omb = new ArrayList<>();
            for (int pass = 1; pass <= options.passes; pass++) {
                // Alternate which goes first, so neither always meets the broker fresher or its log longer.
                boolean ppFirst = pass % 2 == 1;
                for (int half = 0; half < 2; half++) {
                    Pass p = (half == 0) == ppFirst ? producerPerformance(cluster, messages, pass)
                            : ombTxSaturation(bench, driver, cluster, messages, pass);
                    (p.tool().equals("ProducerPerformance") ? pp : omb).add(p);
                    out.printf(Locale.ROOT, "%-22s %5d %12.0f %14.2f %16.2f %12s%n", p.tool(), pass,
                            p.messagesPerSecond(), p.cpuMicrosPerMessage(), p.brokerCpuMicrosPerMessage(),
                            Double.isNaN(p.heapPeakMiB()) ? "-" : String.format(Locale.ROOT, "%.0f", p.heapPeakMiB()));
                }
            }
            double[] rateRatios = ratios(omb, pp, Pass::messagesPerSecond);
            double[] cpuRatios = ratios(omb, pp, Pass::cpuMicrosPerMessage);
            double ombRate = median(omb.stream().mapToDouble(Pass::messagesPerSecond).toArray());
            double heapPeak = omb.stream().mapToDouble(Pass::heapPeakMiB).max().orElse(Double.NaN);
            out.println();
            out.printf(Locale.ROOT, "median msg/s: omb-tx %.0f, ProducerPerformance %.0f%n", ombRate,
                    median(pp.stream().mapToDouble(Pass::messagesPerSecond).toArray()));
            out.printf(Locale.ROOT, "median CPU us/msg: omb-tx %.2f, ProducerPerformance %.2f%n",
                    median(omb.stream().mapToDouble(Pass::cpuMicrosPerMessage).toArray()),
                    median(pp.stream().mapToDouble(Pass::cpuMicrosPerMessage).toArray()));
            List<String> verdicts = new ArrayList<>();
            verdicts.add(verdict("saturation throughput >= 1.0x ProducerPerformance", rateRatios, median(rateRatios) >= 1.0));
            verdicts.add(verdict("CPU per message <= 1.0x ProducerPerformance", cpuRatios, median(cpuRatios) <= 1.0));
            verdicts.add(String.format(Locale.ROOT, "%-55s %8.0f MiB (max over passes)  %s",
                    "runner heap high-water < 512 MiB at saturation", heapPeak, heapPeak < 512 ? "MET" : "NOT MET"));
            if (!options.skipSearch) {
                RunResult r = ombTxRun(bench, driver, "max-rate", """
                        producerRate: 0
                        warmupDurationSeconds: 0
                        testDurationSeconds: %d
                        """.formatted(options.delaySeconds())).result();
                RateSearchRecord search = r.runMode().maxRateSearch();
                double found = search.foundRate();
                out.printf(Locale.ROOT, "max-rate search: %.0f msg/s found in %.1f s (%d probes, %s); held: %.0f msg/s"
                        + " measured%n", found, search.seconds(), search.steps().size(),
                        search.completed() ? "converged" : "did not converge", r.summary().messagesPerSecond());
                verdicts.add(String.format(Locale.ROOT, "%-55s %8.3f x in %.1f s  %s",
                        "producerRate: 0 within 10% of saturation in <= 60 s", found / ombRate, search.seconds(),
                        search.completed() && Math.abs(found / ombRate - 1) <= 0.10 && search.seconds() <= 60
                                ? "MET" : "NOT MET"));
            }
            if (!options.skipDelay) {
                for (int rate : new int[] {10_000, 50_000}) {
                    RunResult r = ombTxRun(bench, driver, "delay-" + rate, """
                            producerRate: %d
                            warmupDurationSeconds: 2
                            testDurationSeconds: %d
                            """.formatted(rate, options.delaySeconds())).result();
                    double p99 = r.aggregatedPublishDelayLatency().p99() / 1000.0; // OMB's publish delay is in µs
                    double limit = rate == 10_000 ? 0.5 : 1.0;
                    out.printf(Locale.ROOT, "open loop %d msg/s: %.0f msg/s achieved, publish delay p99 %.3f ms%n",
                            rate, r.summary().messagesPerSecond(), p99);
                    verdicts.add(String.format(Locale.ROOT, "%-55s %8.3f ms  %s", "publish-delay p99 <= " + limit
                            + " ms at " + rate / 1000 + "K msg/s", p99, p99 <= limit ? "MET" : "NOT MET"));
                }
            }
            out.println();
            out.println("Targets (issue 12):");
            verdicts.forEach(v -> out.println("  " + v));
        }
        return Cli.OK;
    }

    private static String verdict(String target, double[] ratios, boolean met) {
        return String.format(Locale.ROOT, "%-55s %8.3f x (range %.3f-%.3f)  %s", target, median(ratios),
                Arrays.stream(ratios).min().orElse(Double.NaN), Arrays.stream(ratios).max().orElse(Double.NaN),
                met ? "MET" : "NOT MET");
    }

    /** omb-tx ÷ ProducerPerformance, pass by pass. */
    private static double[] ratios(List<Pass> omb, List<Pass> pp, ToDoubleFunction<Pass> figure) {
        double[] ratios = new double[Math.min(omb.size(), pp.size())];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = figure.applyAsDouble(omb.get(i)) / figure.applyAsDouble(pp.get(i));
        }
        return ratios;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Kafka's ProducerPerformance in this JVM, on a fresh topic; its own summary line gives the rate. */
    private static Pass producerPerformance(EmbeddedKafkaCluster cluster, long messages, int pass) throws Exception {
        String topic = "pp-" + pass + "-" + System.nanoTime();
        String[] args = {"--topic", topic, "--num-records", Long.toString(messages), "--record-size", "100",
            "--throughput", "-1", "--producer-props", "bootstrap.servers=" + cluster.bootstrapServers(), "acks=all",
            "linger.ms=5", "batch.size=131072"};
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        long brokerBefore = brokerCpuNanos(cluster);
        long cpuBefore = Bench.cpuNanos();
        createTopic(cluster.bootstrapServers(), topic); // inside the measurement: omb-tx's run creates its topic too
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        // ProducerPerformance ends the JVM on a bad argument or failure; here that must be an error, not an exit.
        org.apache.kafka.common.utils.Exit.setExitProcedure((code, message) -> {
            throw new IllegalStateException("ProducerPerformance failed (exit " + code + "): " + message);
        });
        try {
            org.apache.kafka.tools.ProducerPerformance.main(args);
        } finally {
            org.apache.kafka.common.utils.Exit.resetExitProcedure();
            System.setOut(original);
        }
        long cpu = Bench.cpuNanos() - cpuBefore;
        long brokerCpu = brokerCpuNanos(cluster) - brokerBefore;
        Matcher m = PP_SUMMARY.matcher(captured.toString(StandardCharsets.UTF_8));
        double rate = Double.NaN;
        while (m.find()) {
            rate = Double.parseDouble(m.group(2)); // the last such line is the whole run's summary
        }
        return new Pass("ProducerPerformance", rate, cpu / 1e3 / messages, brokerCpu / 1e3 / messages, Double.NaN);
    }

    /** The omb-tx runner end to end at an unreachable rate, counting {@code messages} measured messages. */
    private static Pass ombTxSaturation(Bench bench, DriverFile driver, EmbeddedKafkaCluster cluster, long messages,
            int pass) throws Exception {
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        System.gc(); // start each pass from the live set, not the last tool's garbage
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        long brokerBefore = brokerCpuNanos(cluster);
        Bench.Run run = ombTxRun(bench, driver, "saturation-" + pass, """
                producerRate: 10000000
                warmupMessages: 0
                measureMessages: %d
                """.formatted(messages));
        long brokerCpu = brokerCpuNanos(cluster) - brokerBefore;
        double heapPeakMiB = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum() / 1024.0 / 1024.0;
        long sent = run.result().counts().messagesSent();
        return new Pass("omb-tx", run.result().summary().messagesPerSecond(), run.cpuNanos() / 1e3 / sent,
                brokerCpu / 1e3 / sent, heapPeakMiB);
    }

    /** One omb-tx run of a 1-topic, 1-partition, 100-byte, no-consumer workload with {@code load} appended. */
    private static Bench.Run ombTxRun(Bench bench, DriverFile driver, String name, String load) throws Exception {
        Path file = Files.writeString(bench.work().resolve(name + ".yaml"), """
                name: %s
                messageSize: 100
                topics: 1
                partitionsPerTopic: 1
                producersPerTopic: 1
                subscriptionsPerTopic: 0
                reportingIntervalSeconds: 3600
                """.formatted(name) + load);
        Workload workload = WorkloadLoader.load(file, null).get(0);
        return bench.run(driver, workload);
    }

    private static void createTopic(String bootstrap, String topic) throws Exception {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
    }

    /** CPU time (user + system) of the broker processes so far, from /proc; 0 where /proc is not there. */
    static long brokerCpuNanos(EmbeddedKafkaCluster cluster) {
        long ticks = 0;
        for (long pid : cluster.pids()) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }
        return ticks * 10_000_000L; // USER_HZ is 100 on Linux
    }
}

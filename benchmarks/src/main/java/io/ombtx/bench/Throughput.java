package io.ombtx.bench;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.ClassDataArchive;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.Converters;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.stats.OrderStatistics;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Is the load generator ever the bottleneck? On one embedded broker with the same producer settings
 * ({@code acks=all linger.ms=5 batch.size=131072}, 1 topic × 1 partition, 100-byte messages, no consumer), Kafka's
 * own {@code ProducerPerformance} (kafka-tools, {@code --throughput -1}) and the omb-tx runner at an unreachable
 * {@code producerRate}, alternated pass by pass, each run in a JVM of its own with the same flags ({@value
 * #FLAGS}): msg/s and CPU µs per message (the whole process: user + system, every thread, JVM start included, read
 * from this JVM's reaped-children CPU time), with the omb-tx ÷ ProducerPerformance ratios and issue 12's targets.
 * One uncounted warm-up pass of each tool goes first, so that no counted pass meets a JIT-cold broker; omb-tx's
 * writes the class-data archive every later omb-tx run maps, as {@code bin/benchmark} does from its second run on.
 */
public final class Throughput {

    /** Both tools' JVM flags; an initial heap at the maximum, so that G1 does not shrink it and collect more often. */
    static final String FLAGS = "-Xms512m -Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError";

    private static final List<String> PRODUCER_SETTINGS = List.of("acks=all", "linger.ms=5", "batch.size=131072");
    private static final Pattern PP_SUMMARY = Pattern.compile("(\\d+) records sent, ([0-9.]+) records/sec");

    @Command(
            name = "bin/bench throughput",
            description = "Kafka's ProducerPerformance vs the omb-tx runner on the same embedded broker with the same"
                    + " producer settings (acks=all linger.ms=5 batch.size=131072, 1 topic x 1 partition, 100-byte"
                    + " messages, no consumer), alternated, each run in a JVM of its own (" + FLAGS + "): msg/s,"
                    + " CPU us per message and the omb-tx / ProducerPerformance ratios, against issue 12's targets.",
            footer = {
                "",
                "CPU is each run's whole process (user + system, all threads, JVM start included). One warm-up pass"
                        + " of each tool is not counted.",
                "",
                "Examples:",
                "  bin/bench throughput --quick",
                "  bin/bench throughput --passes 5 --messages 6000000"
            })
    static final class Options {
        @picocli.CommandLine.Mixin
        Bench.KeepWork keepWork = new Bench.KeepWork();

        @Option(names = "--quick", description = "short runs: 2 passes of 1M messages (a few minutes)")
        boolean quick;

        @Option(
                names = "--passes",
                paramLabel = "N",
                converter = Converters.WholeNumber.class,
                description = "counted passes of each tool (default: 3, --quick 2)")
        @Converters.Bounds(min = 1, max = 50)
        Integer passes;

        @Option(
                names = "--messages",
                paramLabel = "N",
                converter = Converters.WholeNumber.class,
                description = "messages per pass (default: 4000000, --quick 1000000)")
        @Converters.Bounds(min = 10_000, max = Integer.MAX_VALUE)
        Integer messages;

        int passes() {
            return passes != null ? passes : quick ? 2 : 3;
        }

        int messages() {
            return messages != null ? messages : quick ? 1_000_000 : 4_000_000;
        }
    }

    /** One pass of either tool. */
    record Pass(double messagesPerSecond, double cpuMicrosPerMessage) {}

    private Throughput() {}

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, Throughput::run);
    }

    private static int run(Options options) throws Exception {
        PrintStream out = System.out;
        Bench bench = Bench.create();
        Path archive = bench.work().resolve("omb-tx.jsa");
        int messages = options.messages();
        List<Bench.Pair<Pass>> passes = new ArrayList<>();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start()) {
            Path driver =
                    bench.driverFile(bench.home().resolve("driver-kafka-tx/kafka-tx.yaml"), cluster.bootstrapServers());
            out.printf(
                    Locale.ROOT,
                    "Throughput: embedded Kafka %s, %d cores, %s, 1 topic x 1 partition, 100-byte messages, no"
                            + " consumer; %d pass(es) of %d messages per tool, each a JVM of its own (%s); CPU = that"
                            + " JVM's whole process; %s%n",
                    EmbeddedKafkaCluster.brokerVersion(),
                    Runtime.getRuntime().availableProcessors(),
                    String.join(" ", PRODUCER_SETTINGS),
                    options.passes(),
                    messages,
                    FLAGS,
                    Bench.RATIOS);
            out.printf(Locale.ROOT, "%-20s %7s %10s %11s%n", "tool", "pass", "msg/s", "CPU us/msg");
            int warmup = Math.min(messages, 1_000_000);
            print(
                    out,
                    "warm-up",
                    producerPerformance(bench, cluster, warmup, 0),
                    ombTx(bench, driver, archive, warmup, 0));
            for (int pass = 1; pass <= options.passes(); pass++) {
                int n = pass;
                Bench.Pair<Pass> pair = Bench.round(
                        pass,
                        () -> ombTx(bench, driver, archive, messages, n),
                        () -> producerPerformance(bench, cluster, messages, n));
                print(out, Integer.toString(pass), pair.baseline(), pair.ombTx());
                passes.add(pair);
            }
        }
        double[] rates = Bench.ratios(passes, Pass::messagesPerSecond);
        double[] cpu = Bench.ratios(passes, Pass::cpuMicrosPerMessage);
        out.printf(
                Locale.ROOT,
                "%nmedians: msg/s omb-tx %.0f, ProducerPerformance %.0f; CPU us/msg omb-tx %.2f, ProducerPerformance"
                        + " %.2f%n",
                Bench.median(passes, true, Pass::messagesPerSecond),
                Bench.median(passes, false, Pass::messagesPerSecond),
                Bench.median(passes, true, Pass::cpuMicrosPerMessage),
                Bench.median(passes, false, Pass::cpuMicrosPerMessage));
        out.println("Targets (issue 12), omb-tx ÷ ProducerPerformance pass by pass:");
        out.printf(
                Locale.ROOT,
                "  %-52s %-24s %s%n",
                "saturation throughput >= 1.0x ProducerPerformance",
                Bench.ratio(rates),
                OrderStatistics.median(rates) >= 1.0 ? "MET" : "NOT MET");
        out.printf(
                Locale.ROOT,
                "  %-52s %-24s %s%n",
                "CPU per message <= 1.0x ProducerPerformance",
                Bench.ratio(cpu),
                OrderStatistics.median(cpu) <= 1.0 ? "MET" : "NOT MET");
        bench.finish(out, options.keepWork.keep);
        return Cli.OK;
    }

    private static void print(PrintStream out, String pass, Pass pp, Pass omb) {
        String row = "%-20s %7s %10.0f %11.2f%n";
        out.printf(Locale.ROOT, row, "ProducerPerformance", pass, pp.messagesPerSecond(), pp.cpuMicrosPerMessage());
        out.printf(Locale.ROOT, row, "omb-tx", pass, omb.messagesPerSecond(), omb.cpuMicrosPerMessage());
    }

    /**
     * The omb-tx runner in a JVM of its own at an unreachable rate, counting {@code messages}. The first run writes
     * omb-tx's class-data archive ({@link ClassDataArchive}), every later one maps it.
     */
    private static Pass ombTx(Bench bench, Path driver, Path archive, int messages, int pass) throws Exception {
        Path workload = bench.workloadFile(
                "omb-tx-" + pass,
                """
                messageSize: 100
                topics: 1
                partitionsPerTopic: 1
                producersPerTopic: 1
                subscriptionsPerTopic: 0
                reportingIntervalSeconds: 3600
                producerRate: 10000000
                warmupMessages: 0
                measureMessages: %d
                driverOverrides:
                  producerConfig: |
                    linger.ms=5
                    batch.size=131072
                """
                        .formatted(messages));
        List<String> flags = new ArrayList<>(List.of(FLAGS.split(" ")));
        flags.addAll(
                Files.exists(archive)
                        ? List.of("-XX:SharedArchiveFile=" + archive)
                        : List.of("-XX:+RecordDynamicDumpInfo", "-D" + ClassDataArchive.PROPERTY + "=" + archive));
        flags.addAll(List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
        long before = reapedChildrenCpuNanos();
        RunResult result = bench.runner(
                flags,
                System.getProperty("java.class.path"),
                driver,
                workload,
                bench.work().resolve("omb-tx-" + pass + ".json"));
        long cpu = reapedChildrenCpuNanos() - before;
        return new Pass(
                result.summary().messagesPerSecond(),
                cpu / 1e3 / result.counts().messagesSent());
    }

    /** Kafka's ProducerPerformance in a JVM of its own, on a fresh topic; its own summary line gives the rate. */
    private static Pass producerPerformance(Bench bench, EmbeddedKafkaCluster cluster, int messages, int pass)
            throws Exception {
        String topic = "pp-" + pass + "-" + System.nanoTime();
        Bench.createTopic(cluster.bootstrapServers(), topic, 1, (short) 1);
        List<String> args = new ArrayList<>(List.of(
                "--topic",
                topic,
                "--num-records",
                Integer.toString(messages),
                "--record-size",
                "100",
                "--throughput",
                "-1",
                "--producer-props",
                "bootstrap.servers=" + cluster.bootstrapServers()));
        args.addAll(PRODUCER_SETTINGS);
        Path log = bench.work().resolve("pp-" + pass + ".log");
        long before = reapedChildrenCpuNanos();
        Bench.exec(
                new ProcessBuilder(bench.java(
                        List.of(FLAGS.split(" ")),
                        System.getProperty("java.class.path"),
                        "org.apache.kafka.tools.ProducerPerformance",
                        args)),
                log,
                "ProducerPerformance");
        long cpu = reapedChildrenCpuNanos() - before;
        Matcher m = PP_SUMMARY.matcher(Files.readString(log));
        double rate = Double.NaN;
        while (m.find()) {
            rate = Double.parseDouble(m.group(2)); // the last such line is the whole run's summary
        }
        if (Double.isNaN(rate)) {
            throw new IllegalStateException("ProducerPerformance printed no summary; see " + log);
        }
        return new Pass(rate, cpu / 1e3 / messages);
    }

    /**
     * CPU time (user + system) of this JVM's children that have ended and been waited for (cutime + cstime in
     * /proc/self/stat): each child JVM's whole process. The broker, a child still running, is not in it.
     */
    static long reapedChildrenCpuNanos() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) * 10_000_000L; // USER_HZ is 100 on Linux
    }
}

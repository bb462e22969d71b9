package io.ombtx.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ombtx.broker.ClientRelease;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.KafkaVersion;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.Converters;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.stats.OrderStatistics;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Whether omb-tx measures the loop it claims to reproduce: for each closed-loop scenario, omb-tx's own run of the
 * workload ({@code bin/benchmark}'s main, a JVM of its own) and {@link SeedLoop}'s bare kafka-clients loop (a JVM of
 * its own too), alternated on one embedded broker for N rounds ({@link Bench#round}), compared on p50, p99, total
 * time (the sum of the operations' latencies, seed 001's "N txes in T ms") and the number of operations of 50 ms or
 * more, where the ~100 ms {@code retry.backoff.ms} collisions of back-to-back transactions show. Both sides' latencies
 * go through the same HdrHistogram arithmetic.
 */
public final class Fidelity {

    @Command(
            name = "bin/bench fidelity",
            description = "omb-tx ÷ a bare kafka-clients loop (the seeds' calls in the seeds' order), per closed-loop"
                    + " scenario, alternated on one embedded broker: the p50, p99 and total-time ratios over the"
                    + " rounds with the 90%% interval of their median, and the operations of 50 ms or more on each"
                    + " side.",
            footer = {
                "Targets: each ratio's median within [0.95, 1.05]; operations >= 50 ms within 10%% of the bare loop's.",
                "",
                "Examples:",
                "  bin/bench fidelity                                  # every scenario, 5 rounds of 1000 + 1000",
                "  bin/bench fidelity --scenarios tx-streaming,tx-writes --rounds 3",
                "  bin/bench fidelity --aa -n 6 --scenarios tx-writes        # the comparison's own noise (A/A)",
                "  bin/bench fidelity --warmup 100 --measure 300 --broker-version 2.8.2 --client-version 2.8.2",
                "  bin/bench fidelity --scenarios tx-streaming --broker-config group.coordinator.append.linger.ms=0",
                "  bin/bench fidelity -n 12 --warmup 1000 --jvm-opt=-XX:TieredStopAtLevel=1   # C1 on both: less spread"
            })
    static final class Options implements Cli.Validated {
        @picocli.CommandLine.Mixin
        Bench.KeepWork keepWork = new Bench.KeepWork();

        @Option(
                names = {"-n", "--rounds"},
                paramLabel = "N",
                converter = Converters.WholeNumber.class,
                description = "rounds, each running both sides of every scenario (default: ${DEFAULT-VALUE})")
        @Converters.Bounds(min = 1, max = 100)
        int rounds = 5;

        @Option(
                names = "--scenarios",
                split = ",",
                paramLabel = "NAME",
                description = "scenarios (default: all): base-writes, tx-writes, tx-writes-ack-first, base-streaming,"
                        + " base-streaming-ack-first, tx-streaming, tx-streaming-ack-first, tx-send-offsets, tx-fetch,"
                        + " bulk-tx, bulk-acks-all")
        List<String> scenarios = new ArrayList<>(SeedLoop.SCENARIOS);

        @Option(
                names = "--warmup",
                paramLabel = "OPS",
                converter = Converters.WholeNumber.class,
                description = "unmeasured operations at the start of each run (default: ${DEFAULT-VALUE}; bulk: a"
                        + " fiftieth); base-writes and tx-fetch settle only after several thousand")
        @Converters.Bounds(min = 0, max = 1_000_000)
        int warmup = 1000;

        @Option(
                names = "--measure",
                paramLabel = "OPS",
                converter = Converters.WholeNumber.class,
                description = "measured operations of each run (default: ${DEFAULT-VALUE}; bulk: a tenth)")
        @Converters.Bounds(min = 10, max = 1_000_000)
        int measure = 1000;

        @Option(
                names = "--broker-version",
                paramLabel = "VERSION",
                description = "embedded Kafka release (default: the built-in one)")
        String brokerVersion;

        @Option(
                names = "--client-version",
                paramLabel = "VERSION",
                description = "kafka-clients release both sides run on (default: the built-in one); omb-tx gets"
                        + " --client-version, the bare loop's JVM that client in place of the built-in one")
        String clientVersion;

        @Option(
                names = "--broker-config",
                paramLabel = "KEY=VALUE",
                converter = Converters.Setting.class,
                description = "embedded broker setting, repeatable (e.g. log.flush.interval.messages=1)")
        List<Map.Entry<String, String>> brokerConfig = new ArrayList<>();

        @Option(
                names = "--driver",
                paramLabel = "FILE",
                description = "omb-tx driver file whose client settings both sides use"
                        + " (default: driver-kafka-tx/kafka-tx.yaml)")
        Path driver;

        @Option(
                names = "--jvm-opt",
                paramLabel = "FLAG",
                description = "JVM flag for both sides' JVMs, repeatable (e.g. -XX:-TieredCompilation): after the"
                        + " heap flags both always get (-Xms512m -Xmx2g -XX:+UseG1GC)")
        List<String> jvmOpts = new ArrayList<>();

        @Option(
                names = "--aa",
                description = "A/A: the bare loop on both sides of every round, so bare ÷ bare is the comparison's"
                        + " own noise; a target that A/A misses cannot be decided for omb-tx on this machine")
        boolean aa;

        @Override
        public void validate() {
            for (String scenario : scenarios) {
                if (!SeedLoop.SCENARIOS.contains(scenario)) {
                    throw new UsageException(
                            "--scenarios: unknown scenario '" + scenario + "', expected one of " + SeedLoop.SCENARIOS);
                }
            }
            checkVersion("--broker-version", brokerVersion);
            checkVersion("--client-version", clientVersion);
            for (String flag : jvmOpts) {
                if (!flag.startsWith("-") || flag.chars().anyMatch(Character::isWhitespace)) {
                    throw new UsageException("--jvm-opt expects one JVM flag starting with '-', got '" + flag + "'");
                }
            }
            if (driver != null && !Files.isRegularFile(driver)) {
                throw new UsageException("--driver " + driver + ": file not found");
            }
        }

        private static void checkVersion(String option, String version) {
            try {
                if (version != null) {
                    KafkaVersion.parse(version);
                }
            } catch (IllegalArgumentException e) {
                throw new UsageException(option + " " + version + ": " + e.getMessage());
            }
        }
    }

    /** One side's run: p50, p99 and total time in ms, the operations of {@link #SLOW_MICROS} or more, and all. */
    record Figures(double p50, double p99, double total, long slow, long count) {

        static Figures of(Histogram operations) {
            return new Figures(
                    operations.getValueAtPercentile(50) / 1000.0,
                    operations.getValueAtPercentile(99) / 1000.0,
                    operations.getMean() * operations.getTotalCount() / 1000.0,
                    operations.getCountBetweenValues(SLOW_MICROS, operations.getMaxValue() + 1),
                    operations.getTotalCount());
        }
    }

    /** Operations of at least this many µs are counted: the tail where back-off collisions land. */
    static final long SLOW_MICROS = 50_000;

    /** omb-tx ÷ bare within this band (median over the rounds) meets the target. */
    static final double LOW = 0.95;

    static final double HIGH = 1.05;

    /** The figures compared as ratios, by name. */
    private static final List<Map.Entry<String, ToDoubleFunction<Figures>>> RATIOS =
            List.of(Map.entry("p50", Figures::p50), Map.entry("p99", Figures::p99), Map.entry("total", Figures::total));

    /** The slow operations' target: omb-tx's count within this share of the bare loop's. */
    static final double SLOW_TOLERANCE = 0.10;

    /** Both sides' heap and collector: bin/lib's defaults, with a fixed heap. */
    private static final List<String> HEAP_FLAGS = List.of("-Xms512m", "-Xmx2g", "-XX:+UseG1GC");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Fidelity() {}

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, Fidelity::run);
    }

    /** A run of the bare loop whose latencies go to the work prefix plus {@code suffix}. */
    private interface BareSide {
        Figures run(String suffix) throws Exception;
    }

    static int run(Options options) throws Exception {
        PrintStream out = System.out;
        Bench bench = Bench.create();
        Path driverFile =
                options.driver != null ? options.driver : bench.home().resolve("driver-kafka-tx/kafka-tx.yaml");
        JsonNode driver = YAML.readTree(driverFile.toFile());
        short replication = (short) driver.path("replicationFactor").asInt(1);
        EmbeddedKafkaCluster.Builder builder = EmbeddedKafkaCluster.builder();
        if (replication > 1) {
            builder.brokers(replication);
        }
        if (options.brokerVersion != null) {
            builder.version(options.brokerVersion);
        }
        options.brokerConfig.forEach(setting -> builder.override(setting.getKey(), setting.getValue()));
        String classPath = System.getProperty("java.class.path");
        // The bare loop's class path: the built-in client, or --client-version's in its place.
        String bareClassPath = options.clientVersion == null
                ? classPath
                : String.join(
                        File.pathSeparator,
                        ClientRelease.of(KafkaVersion.parse(options.clientVersion)).classPath(classPath).stream()
                                .map(Path::toString)
                                .toList());
        List<String> flags = new ArrayList<>(HEAP_FLAGS);
        flags.addAll(options.jvmOpts);
        String[] runnerArgs = options.clientVersion == null
                ? new String[0]
                : new String[] {"--client-version", options.clientVersion};
        Map<String, List<Bench.Pair<Figures>>> measured = new LinkedHashMap<>();
        List<String> failed = new ArrayList<>();
        try (EmbeddedKafkaCluster cluster = builder.start()) {
            String bootstrap = cluster.bootstrapServers();
            Path ombDriver = bench.driverFile(driverFile, bootstrap);
            Path clientProperties = clientProperties(driver, bench.work());
            out.printf(
                    Locale.ROOT,
                    "Fidelity: %s, %d round(s) alternated on one embedded Kafka %s"
                            + " (%d broker(s)%s), kafka-clients %s, client settings of %s, %d warm-up + %d measured"
                            + " operations%s%n",
                    options.aa ? "A/A, the bare kafka-clients loop on both sides" : "omb-tx ÷ bare kafka-clients loop",
                    options.rounds,
                    cluster.runningVersion(),
                    cluster.brokerCount(),
                    options.brokerConfig.stream().map(s -> ", " + s).reduce("", String::concat),
                    options.clientVersion != null ? options.clientVersion : EmbeddedKafkaCluster.DEFAULT_VERSION,
                    bench.home().relativize(driverFile.toAbsolutePath()),
                    options.warmup,
                    options.measure,
                    options.jvmOpts.isEmpty() ? "" : ", both JVMs with " + String.join(" ", options.jvmOpts));
            int total = options.rounds * options.scenarios.size();
            int done = 0;
            for (int round = 1; round <= options.rounds; round++) {
                for (String scenario : options.scenarios) {
                    boolean bulk = scenario.startsWith("bulk");
                    int warmup = bulk && options.warmup > 0 ? Math.max(1, options.warmup / 50) : options.warmup;
                    int measure = bulk ? Math.max(10, options.measure / 10) : options.measure;
                    Path prefix = bench.work().resolve(scenario + "-" + round);
                    Path workload = workload(bench, scenario, warmup, measure);
                    Bench.Pair<Figures> pair;
                    done++;
                    try {
                        BareSide bareSide = suffix -> bare(
                                bench.java(
                                        flags,
                                        bareClassPath,
                                        SeedLoop.class.getName(),
                                        List.of(
                                                scenario,
                                                bootstrap,
                                                clientProperties.toString(),
                                                Short.toString(replication),
                                                Integer.toString(warmup),
                                                Integer.toString(measure),
                                                prefix + suffix)),
                                Path.of(prefix + suffix));
                        pair = Bench.round(
                                round,
                                options.aa
                                        ? () -> bareSide.run("-bare-a.hgrm")
                                        : () -> ombTx(
                                                bench.runner(
                                                        flags,
                                                        classPath,
                                                        ombDriver,
                                                        workload,
                                                        Path.of(prefix + "-omb.json"),
                                                        runnerArgs),
                                                scenario),
                                () -> bareSide.run("-bare.hgrm"));
                    } catch (IllegalStateException e) {
                        // One side's run failed (a broker error, a fatal client error): the round is left out and
                        // said so, and the rounds measured so far and after it still count.
                        failed.add("round " + round + " " + scenario + ": " + e.getMessage());
                        out.printf(
                                Locale.ROOT,
                                "[%d/%d] round %d %-24s FAILED, left out: %s%n",
                                done,
                                total,
                                round,
                                scenario,
                                e.getMessage().lines().findFirst().orElse(""));
                        continue;
                    }
                    out.printf(
                            Locale.ROOT,
                            "[%d/%d] round %d %-24s %s p50 %8.3f ms, total %9.1f ms, >=50ms %4d | bare p50 %8.3f"
                                    + " ms, total %9.1f ms, >=50ms %4d%n",
                            done,
                            total,
                            round,
                            scenario,
                            options.aa ? "bare A" : "omb-tx",
                            pair.ombTx().p50(),
                            pair.ombTx().total(),
                            pair.ombTx().slow(),
                            pair.baseline().p50(),
                            pair.baseline().total(),
                            pair.baseline().slow());
                    measured.computeIfAbsent(scenario, s -> new ArrayList<>()).add(pair);
                }
            }
            if (!failed.isEmpty()) {
                // The work folder is kept; the broker's folder goes with its close. Its log says what it saw.
                Path logs = bench.work().resolve("broker-logs");
                cluster.copyLogs(logs);
                out.printf(Locale.ROOT, "The broker's logs are kept in %s%n", logs);
            }
        }
        boolean met = report(out, measured, options.aa ? "bare ÷ bare (A/A)" : "omb-tx ÷ bare loop");
        if (!failed.isEmpty()) {
            out.printf(Locale.ROOT, "%n%d round(s) failed and are left out of the figures above:%n", failed.size());
            failed.forEach(f -> out.println("  " + f));
        }
        bench.finish(out, options.keepWork.keep || !failed.isEmpty());
        return met && failed.isEmpty() ? Cli.OK : 1;
    }

    /** The table and the verdicts; true when every target is met. */
    static boolean report(PrintStream out, Map<String, List<Bench.Pair<Figures>>> measured) {
        return report(out, measured, "omb-tx ÷ bare loop");
    }

    /** The table and the verdicts under {@code compared} (which sides the ratios divide); true when all are met. */
    static boolean report(PrintStream out, Map<String, List<Bench.Pair<Figures>>> measured, String compared) {
        out.printf(
                Locale.ROOT,
                "%n%s, target %.2f–%.2f: %s, and 'met', 'not met' or 'undecided' when that interval"
                        + " lies inside, outside or across the band; operations >= %d ms, median over the rounds"
                        + " (target: within 10%% of the bare loop's)%n",
                compared,
                LOW,
                HIGH,
                Bench.RATIOS,
                SLOW_MICROS / 1000);
        out.printf(
                Locale.ROOT,
                "%-25s | %-29s | %-29s | %-29s | %-17s | %s%n",
                "scenario",
                "p50 ×",
                "p99 ×",
                "total ×",
                ">=50ms omb / bare",
                "verdict");
        boolean allMet = true;
        for (Map.Entry<String, List<Bench.Pair<Figures>>> e : measured.entrySet()) {
            List<Bench.Pair<Figures>> rounds = e.getValue();
            List<String> missed = new ArrayList<>();
            List<String> cells = new ArrayList<>();
            for (Map.Entry<String, ToDoubleFunction<Figures>> figure : RATIOS) {
                double[] ratios = Bench.ratios(rounds, figure.getValue());
                double median = OrderStatistics.median(ratios);
                if (!(median >= LOW && median <= HIGH)) {
                    missed.add(figure.getKey());
                }
                cells.add(Bench.decided(ratios, LOW, HIGH));
            }
            double slowOmb = Bench.median(rounds, true, Figures::slow);
            double slowBare = Bench.median(rounds, false, Figures::slow);
            // Both sides' slow operations under 1% of the operations: too few for a ±10% comparison to mean anything.
            double rare = 0.01 * rounds.get(0).baseline().count();
            if (Math.abs(slowOmb - slowBare) > SLOW_TOLERANCE * slowBare && !(slowOmb < rare && slowBare < rare)) {
                missed.add(">=50ms");
            }
            allMet &= missed.isEmpty();
            out.printf(
                    Locale.ROOT,
                    "%-25s | %-29s | %-29s | %-29s | %7.1f / %-7.1f | %s%n",
                    e.getKey(),
                    cells.get(0),
                    cells.get(1),
                    cells.get(2),
                    slowOmb,
                    slowBare,
                    missed.isEmpty() ? "MET" : "NOT MET (" + String.join(", ", missed) + ")");
        }
        return allMet;
    }

    /** The shipped workload with the round's counts, in the work folder. */
    private static Path workload(Bench bench, String scenario, int warmup, int measure) throws IOException {
        ObjectNode workload = (ObjectNode) YAML.readTree(
                bench.home().resolve("workloads/" + scenario + ".yaml").toFile());
        workload.remove("profiles");
        workload.put("warmupOperations", warmup);
        workload.put("measureOperations", measure);
        if (workload.path("operation").has("prefillMessages")) {
            ((ObjectNode) workload.path("operation")).put("prefillMessages", warmup + measure);
        }
        Path file = bench.work().resolve(scenario + ".yaml");
        YAML.writeValue(file.toFile(), workload);
        return file;
    }

    /**
     * omb-tx's figures from its result. tx-fetch: the seeds' operation ends when the write is seen (their loop's last
     * lap); omb-tx's operation is the transaction and the wait for visibility is its end-to-end latency, from the
     * record's publish time (taken before the begin) to its receipt.
     */
    private static Figures ombTx(RunResult result, String scenario) {
        String operations = scenario.equals("tx-fetch") ? "endToEndLatencyMicros" : "operationLatencyMicros";
        return Figures.of(Histograms.decode(result.histograms().get(operations)));
    }

    /** {@link SeedLoop} in a JVM of its own; the histogram it wrote, read back. */
    private static Figures bare(List<String> command, Path output) throws Exception {
        Bench.exec(
                new ProcessBuilder(command),
                output.resolveSibling(output.getFileName() + ".log"),
                "the bare loop " + command.get(command.indexOf(SeedLoop.class.getName()) + 1));
        return Figures.of(Histograms.decode(Files.readString(output).strip()));
    }

    /** The driver file's client settings as the bare loop reads them: common ones bare, the rest prefixed. */
    private static Path clientProperties(JsonNode driver, Path work) throws IOException {
        Properties all = new Properties();
        for (String kind : List.of("common", "producer", "consumer")) {
            Properties props = new Properties();
            props.load(new StringReader(driver.path(kind + "Config").asText("")));
            props.forEach((k, v) -> all.put(kind.equals("common") ? k : kind + "." + k, v));
        }
        Path file = work.resolve("client.properties");
        try (Writer w = Files.newBufferedWriter(file)) {
            all.store(w, "client settings of the driver file");
        }
        return file;
    }
}

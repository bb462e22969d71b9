package io.ombtx.bench;

import static io.ombtx.runner.stats.OrderStatistics.median;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.KafkaVersion;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.stats.OrderStatistics;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
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
 * workload ({@code bin/benchmark}, a fresh JVM) and {@link SeedLoop}'s bare kafka-clients loop (a fresh JVM too),
 * alternated on one embedded broker for N rounds (the order flips every round, with {@code --aa} goes through the six
 * orders of three, so neither side always runs on the warmer broker; {@link #order}), compared on p50, p99, total
 * time (the sum of the operations' latencies, seed 001's "N txes in T ms") and the number of operations of 50 ms
 * or more, where the ~100 ms {@code retry.backoff.ms} collisions of back-to-back transactions show. Both sides'
 * latencies go through the same HdrHistogram arithmetic.
 */
public final class Fidelity {

    /** omb-tx ÷ bare within this band (median over the rounds) meets the target. */
    static final double LOW = 0.95;

    static final double HIGH = 1.05;
    /** Operations of at least this many ms are counted: the tail where back-off collisions land. */
    static final long SLOW_MICROS = 50_000;
    /**
     * Operations this long or longer met a back-off of some kind: the ~100 ms of {@link #SLOW_MICROS}, and a 20 ms one
     * for a transaction's first write to a partition while the previous transaction's markers are still being
     * written (with transaction version 2 the broker retries adding the partition itself, after {@code
     * add.partitions.to.txn.retry.backoff.ms}, 20 ms, since Kafka 4.0; with version 1 kafka-clients retries its
     * {@code AddPartitionsToTxn} after 20 ms). ack-first's resolve phase is ~0.5 ms or ~22 ms. Printed, not a target.
     */
    static final long BACKED_OFF_MICROS = 10_000;
    /** The slow operations' target: omb-tx's count within this share of the bare loop's. */
    static final double SLOW_TOLERANCE = 0.10;

    @Command(
            name = "bin/bench fidelity",
            description = "omb-tx ÷ a bare kafka-clients loop (the seeds' calls in the seeds' order), per closed-loop"
                    + " scenario, alternated on one embedded broker: median [min–max] over the rounds of the p50, p99"
                    + " and total-time ratios, and the operations of 50 ms or more on each side.",
            footer = {
                "Targets: each ratio's median within [0.95, 1.05]; operations >= 50 ms within 10%% of the bare loop's.",
                "",
                "Examples:",
                "  bin/bench fidelity                                  # every scenario, 5 rounds of 1000 + 1000",
                "  bin/bench fidelity --scenarios tx-streaming,tx-writes --rounds 3",
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
                description = "rounds, each running both sides of every scenario (default: ${DEFAULT-VALUE})")
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
                paramLabel = "OPS|auto",
                description = "warm-up operations of each run, or 'auto' (default): per scenario, as many as take "
                        + AUTO_WARMUP_SECONDS + " s at the mean of the broker warm-up's last run (a fresh JVM's: a"
                        + " warmed loop may be up to 5 times as fast),"
                        + " at least " + AUTO_WARMUP_MIN + " and at most " + AUTO_WARMUP_MAX + " (bulk: a fiftieth of"
                        + " the floor, a tenth of the ceiling);"
                        + " the output's 'Settled?' says whether the bare loop was still getting faster after them")
        String warmup = "auto";

        @Option(
                names = "--measure",
                paramLabel = "OPS",
                description = "measured operations of each run (default: ${DEFAULT-VALUE}; bulk: a tenth)")
        int measure = 1000;

        @Option(
                names = "--broker-warmup",
                paramLabel = "OPS",
                description = "operations of bare runs of each scenario before the first round, unmeasured, in runs of"
                        + " 500 whose operations >= 50 ms are printed (default: ${DEFAULT-VALUE}; bulk: a hundredth,"
                        + " at least 20)")
        int brokerWarmup = 2000;

        @Option(
                names = "--broker-version",
                paramLabel = "VERSION",
                description = "embedded Kafka release (default: the built-in one)")
        String brokerVersion;

        @Option(
                names = "--client-version",
                paramLabel = "VERSION",
                description = "kafka-clients release both sides run on (default: the built-in one); bin/benchmark gets"
                        + " --client-version, the bare loop's JVM that client in place of the built-in one")
        String clientVersion;

        @Option(
                names = "--broker-config",
                paramLabel = "KEY=VALUE",
                description = "embedded broker setting, repeatable (e.g. group.coordinator.append.linger.ms=0); with"
                        + " log.flush.interval.messages or log.flush.interval.ms the disk's fsync time is probed for"
                        + " 1 s before each run and printed beside the rounds")
        List<String> brokerConfig = new ArrayList<>();

        @Option(
                names = "--aa",
                description = "also run the bare loop a second time each round (A/A): bare ÷ bare is the comparison's"
                        + " noise floor on this machine, printed beside omb-tx ÷ bare")
        boolean aa;

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
                names = "--pin",
                description =
                        "broker on CPU 0, both sides' JVMs on the other CPUs this process may use (taskset), as the"
                                + " seeds' clients and brokers ran on machines of their own: the scheduler no longer places the"
                                + " client's and the broker's threads anew each run. Needs taskset, CPU 0 and one more")
        boolean pin;

        @Option(
                names = "--pool",
                paramLabel = "DIR",
                description = "run nothing: print the figures of the rounds kept in the work folders of earlier runs"
                        + " (--keep-work) taken together, repeatable; the runs must share their set-up (all but"
                        + " the rounds, the omb-tx build and --aa); with --scenarios only those")
        List<Path> pool = new ArrayList<>();

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public void validate() {
            if (!pool.isEmpty()) {
                List<String> given = spec.commandLine().getParseResult().matchedOptions().stream()
                        .map(picocli.CommandLine.Model.OptionSpec::longestName)
                        .filter(name -> !name.equals("--pool") && !name.equals("--scenarios"))
                        .distinct()
                        .toList();
                if (!given.isEmpty()) {
                    throw new UsageException("--pool reads the rounds of earlier runs and runs nothing: "
                            + String.join(", ", given) + " cannot be given with it (only --scenarios)");
                }
                FidelityPool.Kept.read(pool);
            }
            for (String scenario : scenarios) {
                if (!SeedLoop.SCENARIOS.contains(scenario)) {
                    throw new UsageException(
                            "--scenarios: unknown scenario '" + scenario + "', expected one of " + SeedLoop.SCENARIOS);
                }
            }
            if (rounds < 1 || rounds > 100) {
                throw new UsageException("--rounds expects 1 to 100, got " + rounds);
            }
            if (!warmup.equals("auto") && !warmup.matches("\\d{1,9}")) {
                throw new UsageException("--warmup expects 'auto' or 0 or more operations, got '" + warmup + "'");
            }
            if (measure < 10) {
                throw new UsageException("--measure expects 10 or more operations, got " + measure);
            }
            if (brokerWarmup < 0) {
                throw new UsageException("--broker-warmup expects 0 or more operations, got " + brokerWarmup);
            }
            if (warmup.equals("auto") && brokerWarmup == 0) {
                throw new UsageException("--warmup auto sizes each scenario's warm-up from the broker's warm-up:"
                        + " give --warmup OPS with --broker-warmup 0");
            }
            if (brokerVersion != null) {
                try {
                    KafkaVersion.parse(brokerVersion);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--broker-version " + brokerVersion + ": " + e.getMessage());
                }
            }
            if (clientVersion != null) {
                try {
                    KafkaVersion.parse(clientVersion);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--client-version " + clientVersion + ": " + e.getMessage());
                }
            }
            for (String setting : brokerConfig) {
                if (!setting.contains("=") || setting.startsWith("=")) {
                    throw new UsageException("--broker-config expects KEY=VALUE, got '" + setting + "'");
                }
            }
            for (String flag : jvmOpts) {
                if (!flag.startsWith("-") || flag.isBlank() || flag.chars().anyMatch(Character::isWhitespace)) {
                    throw new UsageException("--jvm-opt expects one JVM flag starting with '-', got '" + flag + "'");
                }
            }
            if (pin && !onPath("taskset")) {
                throw new UsageException("--pin needs taskset (util-linux) on the PATH");
            }
            if (pin) {
                List<Integer> cpus = allowedCpus();
                if (!cpus.contains(0) || cpus.size() < 2) {
                    throw new UsageException("--pin needs CPU 0 and at least one other CPU allowed to this process,"
                            + " it may run on " + (cpus.isEmpty() ? "(unknown: no /proc/self/status)" : cpus));
                }
            }
            if (driver != null && !Files.isRegularFile(driver)) {
                throw new UsageException("--driver " + driver + ": file not found");
            }
        }
    }

    /**
     * One side's figures of one run: latencies in ms, the count of slow operations and of all, the loop's gap
     * from a commit returning to the next begin (plain writes: from the last ack to the next send; {@link LoopFiles}),
     * p50 and p90 in µs over the measured operations
     * (NaN when not recorded), the median of the operations under {@link #SLOW_MICROS} in ms (NaN when none), and the
     * count of operations of {@link #BACKED_OFF_MICROS} or more; omb-tx's side also how long its operations' clocks
     * were stopped inside them (its runner's bookkeeping, {@link LoopFiles#paused}), p50 and p90 in µs over the
     * measured operations that paused (NaN for the bare loop, which has no such time, or when not recorded).
     */
    record Figures(
            double p50,
            double p99,
            double total,
            long slow,
            long count,
            Map<String, Double> phaseMeans,
            double gapP50,
            double gapP90,
            double fastP50,
            long backedOff,
            double settling,
            double pauseP50,
            double pauseP90) {

        /**
         * These figures with the paused times of {@code file} (one per paused operation, in order; the last {@link
         * #count} of them are the measured operations'), unchanged when there is no such file.
         */
        Figures withPauses(Path file) throws IOException {
            double[] pauses = lastMicros(file, count);
            if (pauses.length == 0) {
                return this;
            }
            return new Figures(
                    p50,
                    p99,
                    total,
                    slow,
                    count,
                    phaseMeans,
                    gapP50,
                    gapP90,
                    fastP50,
                    backedOff,
                    settling,
                    pauses[pauses.length / 2],
                    pauses[pauses.length * 9 / 10]);
        }

        /** As {@link #of(Histogram, Map, Path, double)}, the run order of the operations unknown (a histogram's). */
        static Figures of(Histogram operations, Map<String, Histogram> phases, Path gapFile) throws IOException {
            return of(operations, phases, gapFile, Double.NaN);
        }

        /** @param settling the operations' {@link #settling(long[])}, NaN when their order is not known */
        static Figures of(Histogram operations, Map<String, Histogram> phases, Path gapFile, double settling)
                throws IOException {
            Map<String, Double> means = new LinkedHashMap<>();
            phases.forEach((name, h) -> means.put(name, h.getMean() / 1000));
            double[] gaps = lastMicros(gapFile, operations.getTotalCount());
            return new Figures(
                    operations.getValueAtPercentile(50) / 1000.0,
                    operations.getValueAtPercentile(99) / 1000.0,
                    operations.getMean() * operations.getTotalCount() / 1000.0,
                    operations.getCountBetweenValues(SLOW_MICROS, operations.getMaxValue() + 1),
                    operations.getTotalCount(),
                    means,
                    gaps.length == 0 ? Double.NaN : gaps[gaps.length / 2],
                    gaps.length == 0 ? Double.NaN : gaps[gaps.length * 9 / 10],
                    fastMedian(operations),
                    operations.getCountBetweenValues(BACKED_OFF_MICROS, operations.getMaxValue() + 1),
                    settling,
                    Double.NaN, // paused times: read by withPauses, omb-tx's side only
                    Double.NaN);
        }

        /**
         * Whether a run measured a loop still warming up: the median of the second half of its measured operations
         * (in the order they ran) ÷ the median of the first half. About 1 when steady; below it when the loop was
         * still getting faster (the JIT compiling the loop's path, the broker's caches filling) after the warm-up.
         */
        static double settling(long[] operationMicros) {
            int half = operationMicros.length / 2;
            if (half == 0) {
                return Double.NaN;
            }
            long[] first = Arrays.copyOfRange(operationMicros, 0, half);
            long[] second = Arrays.copyOfRange(operationMicros, operationMicros.length - half, operationMicros.length);
            Arrays.sort(first);
            Arrays.sort(second);
            return (double) second[half / 2] / first[half / 2];
        }

        /**
         * The median of the operations that met no back-off (under {@link #BACKED_OFF_MICROS}), in ms; NaN when there
         * are none.
         */
        static double fastMedian(Histogram operations) {
            long fast = operations.getCountBetweenValues(0, BACKED_OFF_MICROS - 1);
            return fast == 0
                    ? Double.NaN
                    : operations.getValueAtPercentile(100.0 * Math.max(1, fast / 2) / operations.getTotalCount())
                            / 1000.0;
        }

        /** The operations that met a back-off ({@link #BACKED_OFF_MICROS} or more) as a share of all. */
        double backedOffShare() {
            return count == 0 ? 0 : (double) backedOff / count;
        }

        /**
         * The last {@code measured} values of a {@link LoopFiles} file (the measured operations' gaps or pauses, in ns,
         * one per line), sorted, in µs; none when there is no file.
         */
        private static double[] lastMicros(Path file, long measured) throws IOException {
            if (!Files.exists(file)) {
                return new double[0];
            }
            List<String> lines = Files.readAllLines(file);
            return lines.subList((int) Math.max(0, lines.size() - measured), lines.size()).stream()
                    .mapToDouble(line -> Long.parseLong(line.trim()) / 1000.0)
                    .sorted()
                    .toArray();
        }
    }

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** The bare loop's class path (the built-in client, or --client-version's in its place). */
    private static String bareClassPath = System.getProperty("java.class.path");
    /** --client-version, passed on to bin/benchmark; null for the built-in client. */
    private static String clientVersion;
    /** --jvm-opt: both sides' JVMs get these after the heap flags. */
    private static List<String> jvmOpts = List.of();
    /** What both sides' commands start with: {@code taskset -c <CPUs>} with --pin, else nothing. */
    private static List<String> sidePrefix = List.of();

    /** Both sides' heap and collector: bin/lib's defaults, with a fixed heap. */
    private static final String HEAP_FLAGS = "-Xms512m -Xmx2g -XX:+UseG1GC";

    private Fidelity() {}

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, Fidelity::run);
    }

    static int run(Options options) throws Exception {
        return run(options, System.out, System.err);
    }

    /**
     * A run, or with {@code --pool} the kept rounds' figures, printed to {@code out} (a pooled round that cannot be
     * read: one line on {@code err}); the exit code.
     */
    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        if (!options.pool.isEmpty()) {
            return pooled(out, err, options);
        }
        Bench bench = Bench.create();
        Path driverFile =
                options.driver != null ? options.driver : bench.home().resolve("driver-kafka-tx/kafka-tx.yaml");
        ObjectNode driver = (ObjectNode) YAML.readTree(driverFile.toFile());
        Map<String, List<Figures[]>> measured = new LinkedHashMap<>();
        // With a broker that fsyncs on its hot path, the disk's flush time just before each run, per round and side.
        boolean probeDisk = fsyncsOnItsHotPath(options.brokerConfig);
        Map<String, List<DiskProbe.Figures[]>> disk = new LinkedHashMap<>();
        List<String> failed = new ArrayList<>();
        List<String> warmFailures = new ArrayList<>(); // unmeasured: said, and the run goes on
        EmbeddedKafkaCluster.Builder builder = EmbeddedKafkaCluster.builder();
        if (options.brokerVersion != null) {
            builder.version(options.brokerVersion);
        }
        short replication = (short) driver.path("replicationFactor").asInt(1);
        if (replication > 1) {
            builder.brokers(replication);
        }
        for (String setting : options.brokerConfig) {
            int eq = setting.indexOf('=');
            builder.override(
                    setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
        }
        String classPath = options.clientVersion == null
                ? System.getProperty("java.class.path")
                : String.join(
                        java.io.File.pathSeparator,
                        io.ombtx.broker.ClientRelease.of(KafkaVersion.parse(options.clientVersion))
                                .classPath(System.getProperty("java.class.path"))
                                .stream()
                                .map(Path::toString)
                                .toList());
        bareClassPath = classPath;
        clientVersion = options.clientVersion;
        jvmOpts = List.copyOf(options.jvmOpts);
        try (EmbeddedKafkaCluster cluster = builder.start()) {
            String bootstrap = cluster.bootstrapServers();
            String pinning = "";
            if (options.pin) {
                String sideCpus = allowedCpus().stream()
                        .filter(cpu -> cpu != 0)
                        .map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(","));
                List<Long> brokerPids = new ArrayList<>(cluster.pids());
                cluster.zooKeeperPid().ifPresent(brokerPids::add);
                for (long pid : brokerPids) {
                    pin(pid, "0");
                }
                sidePrefix = List.of("taskset", "-c", sideCpus);
                pinning = ", broker on CPU 0, both sides on CPU " + sideCpus;
            }
            Path ombDriver = bench.work().resolve("driver.yaml");
            ObjectNode withServers = driver.deepCopy();
            withServers.put(
                    "commonConfig", driver.path("commonConfig").asText("") + "\nbootstrap.servers=" + bootstrap + "\n");
            YAML.writeValue(ombDriver.toFile(), withServers);
            Path clientProperties = clientProperties(driver, bench.work());
            out.printf(
                    Locale.ROOT,
                    "Fidelity: omb-tx ÷ bare kafka-clients loop, %d round(s) alternated on one embedded Kafka %s"
                            + " (%d broker(s)%s), kafka-clients %s, client settings of %s, %s warm-up + %d measured"
                            + " operations%s%s%n",
                    options.rounds,
                    cluster.runningVersion(),
                    cluster.brokerCount(),
                    options.brokerConfig.isEmpty() ? "" : ", " + String.join(", ", options.brokerConfig),
                    options.clientVersion != null ? options.clientVersion : EmbeddedKafkaCluster.DEFAULT_VERSION,
                    bench.home().relativize(driverFile.toAbsolutePath()),
                    options.warmup,
                    options.measure,
                    jvmOpts.isEmpty() ? "" : ", both JVMs with " + String.join(" ", jvmOpts),
                    pinning);
            Map<String, String> setup = new LinkedHashMap<>();
            setup.put(FidelityPool.BUILD_KEY, FidelityPool.build(bench.home()));
            setup.put("broker", "Kafka " + cluster.runningVersion() + ", " + cluster.brokerCount() + " broker(s)");
            setup.put(
                    "broker config",
                    options.brokerConfig.isEmpty() ? "(defaults)" : String.join(" ", options.brokerConfig));
            setup.put(
                    "client",
                    "kafka-clients "
                            + (options.clientVersion != null
                                    ? options.clientVersion
                                    : EmbeddedKafkaCluster.DEFAULT_VERSION));
            setup.put("client settings", settingsLine(clientProperties));
            setup.put("warm-up", options.warmup);
            setup.put("measured operations", Integer.toString(options.measure));
            setup.put("broker warm-up", Integer.toString(options.brokerWarmup));
            setup.put("JVM flags", jvmOpts.isEmpty() ? "(defaults)" : String.join(" ", jvmOpts));
            setup.put("pinning", options.pin ? "broker on CPU 0, both sides on the others" : "none");
            setup.put(FidelityPool.AA_KEY, options.aa ? "yes" : "no");
            setup.put(FidelityPool.ROUNDS_KEY, Integer.toString(options.rounds));
            FidelityPool.writeSetup(bench.work(), setup);
            // A fresh broker is slower for its first few thousand requests (its own JIT, its page cache, its
            // coordinators' state): unmeasured bare runs of every scenario first, so the first rounds do not pay for
            // it. Each run's slow operations are printed: they show whether the collision rate has settled.
            out.printf(
                    Locale.ROOT,
                    "Warming the broker: %d unmeasured bare operations of each scenario%n",
                    options.brokerWarmup);
            Map<String, Integer> warmups = new LinkedHashMap<>();
            for (String scenario : options.scenarios) {
                boolean bulk = scenario.startsWith("bulk");
                int left = bulk && options.brokerWarmup > 0
                        ? Math.max(20, options.brokerWarmup / 100)
                        : options.brokerWarmup;
                int chunk = bulk ? 20 : 500;
                List<String> slow = new ArrayList<>();
                double meanMs = Double.NaN; // the last run's (the broker warmest) without its cold start
                for (int part = 1; left > 0; part++) {
                    int ops = Math.max(10, Math.min(chunk, left));
                    left -= ops;
                    try {
                        Path csv = bench.work().resolve(scenario + "-warm" + part + "-bare.csv");
                        Figures warm = bare(scenario, bootstrap, clientProperties, replication, 0, ops, csv);
                        slow.add(Long.toString(warm.slow()));
                        meanMs = laterHalfMeanMs(csv);
                    } catch (IllegalStateException e) {
                        // An unmeasured run's failure (the bare loop stops at a fatal client error, e.g. Kafka 4.1's
                        // InvalidTxnStateException) costs only its warming: said, and the warming goes on.
                        slow.add("failed");
                        warmFailures.add(scenario + " warm-up run " + part + ": " + e.getMessage());
                    }
                }
                int ops = warmupOf(options.warmup, meanMs, bulk);
                warmups.put(scenario, ops);
                out.printf(
                        Locale.ROOT,
                        "  %-24s >=50ms per run of up to %d: %s; mean %.3f ms, warm-up of each run %d%s%n",
                        scenario,
                        chunk,
                        String.join(" ", slow),
                        meanMs,
                        ops,
                        options.warmup.equals("auto") && Double.isNaN(meanMs) ? " (no run measured: the floor)" : "");
            }
            for (String failure : warmFailures) {
                out.printf(
                        Locale.ROOT,
                        "  failed, unmeasured: %s%n",
                        failure.lines().findFirst().orElse(""));
            }
            int total = options.rounds * options.scenarios.size() * (options.aa ? 3 : 2);
            int done = 0;
            for (int round = 1; round <= options.rounds; round++) {
                for (String scenario : options.scenarios) {
                    boolean bulk = scenario.startsWith("bulk");
                    int warmup = warmups.get(scenario);
                    int measure = bulk ? Math.max(10, options.measure / 10) : options.measure;
                    // Sides: 0 omb-tx, 1 the bare loop, 2 the bare loop again (--aa), in the round's order.
                    int sides = options.aa ? 3 : 2;
                    Figures[] pair = new Figures[sides];
                    DiskProbe.Figures[] flushes = new DiskProbe.Figures[sides];
                    String failure = null;
                    for (int side : Bench.order(round, sides)) {
                        Path output = bench.work()
                                .resolve(scenario + "-" + round + (side == 0 ? "-omb.json" : "-bare" + side + ".csv"));
                        done++;
                        if (failure != null) {
                            continue; // the round is lost: its other sides are not run
                        }
                        try {
                            if (probeDisk) {
                                flushes[side] = DiskProbe.run(bench.work(), DISK_PROBE);
                            }
                            pair[side] = side == 0
                                    ? ombTx(bench, scenario, ombDriver, warmup, measure, output)
                                    : bare(scenario, bootstrap, clientProperties, replication, warmup, measure, output);
                        } catch (IllegalStateException e) {
                            // One side's run failed (a broker error, a fatal client error): the round is left out
                            // and said so, and the rounds measured so far and after it still count.
                            failure = e.getMessage();
                        }
                    }
                    if (failure != null) {
                        failed.add("round " + round + " " + scenario + ": " + failure);
                        out.printf(
                                Locale.ROOT,
                                "[%d/%d] round %d %-24s FAILED, left out: %s%n",
                                done,
                                total,
                                round,
                                scenario,
                                failure.lines().findFirst().orElse(""));
                        continue;
                    }
                    out.printf(
                            Locale.ROOT,
                            "[%d/%d] round %d %-24s omb-tx p50 %8.3f ms, total %9.1f ms, >=50ms %4d | bare p50 %8.3f"
                                    + " ms, total %9.1f ms, >=50ms %4d%s%n",
                            done,
                            total,
                            round,
                            scenario,
                            pair[0].p50(),
                            pair[0].total(),
                            pair[0].slow(),
                            pair[1].p50(),
                            pair[1].total(),
                            pair[1].slow(),
                            probeDisk
                                    ? String.format(
                                            Locale.ROOT,
                                            " | fsync p50 %.3f / %.3f ms",
                                            flushes[0].p50Micros() / 1000,
                                            flushes[1].p50Micros() / 1000)
                                    : "");
                    measured.computeIfAbsent(scenario, s -> new ArrayList<>()).add(pair);
                    FidelityPool.recordRound(bench.work(), scenario, round);
                    if (probeDisk) {
                        disk.computeIfAbsent(scenario, s -> new ArrayList<>()).add(flushes);
                    }
                }
            }
            if (!failed.isEmpty() || !warmFailures.isEmpty()) {
                // The work folder is kept; the broker's folder goes with its close. Its log says what it saw.
                Path logs = bench.work().resolve("broker-logs");
                cluster.copyLogs(logs);
                out.printf(Locale.ROOT, "The broker's logs are kept in %s%n", logs);
            }
        }
        boolean met = print(out, measured);
        if (probeDisk) {
            printDisk(out, disk);
        }
        if (!failed.isEmpty()) {
            out.printf(Locale.ROOT, "%n%d round(s) failed and are left out of the figures above:%n", failed.size());
            failed.forEach(f -> out.println("  " + f));
        }
        bench.finish(out, options.keepWork.keep || !failed.isEmpty() || !warmFailures.isEmpty());
        return met && failed.isEmpty() ? Cli.OK : 1;
    }

    /** {@code --pool}: the kept rounds of earlier runs' work folders, printed as one run's. */
    private static int pooled(PrintStream out, PrintStream err, Options options) {
        FidelityPool.Kept kept = FidelityPool.Kept.read(options.pool);
        boolean aa = kept.allAa();
        Map<String, List<Figures[]>> measured;
        try {
            measured = FidelityPool.rounds(options.pool, options.scenarios, aa);
        } catch (UsageException e) { // a listed round's file missing or unreadable
            err.println("error: " + e.getMessage());
            return Cli.BAD_INPUT;
        }
        if (measured.isEmpty()) {
            out.println("No measured rounds of " + String.join(", ", options.scenarios) + " in " + options.pool);
            return 1;
        }
        List<String> counts = new ArrayList<>();
        measured.forEach((scenario, rounds) -> counts.add(scenario + " " + rounds.size()));
        out.printf(
                Locale.ROOT,
                "Fidelity, pooled: the kept rounds of %d run(s) (%s); rounds per scenario: %s%n",
                options.pool.size(),
                options.pool.stream().map(Path::toString).collect(java.util.stream.Collectors.joining(", ")),
                String.join(", ", counts));
        kept.common().forEach((key, value) -> out.printf(Locale.ROOT, "  %s: %s%n", key, value));
        out.printf(Locale.ROOT, "  %s: %s%n", FidelityPool.BUILD_KEY, kept.builds());
        out.printf(
                Locale.ROOT,
                "  %s: %s%n",
                FidelityPool.AA_KEY,
                aa
                        ? "yes, in every run"
                        : kept.anyAa() ? "not in every run: the bare loop's second runs are left out" : "no");
        return print(out, measured) ? Cli.OK : 1;
    }

    /** The bare loop's client settings file as one line, its keys sorted (no date comment: comparable). */
    static String settingsLine(Path clientProperties) throws IOException {
        Properties props = new Properties();
        try (java.io.Reader r = Files.newBufferedReader(clientProperties)) {
            props.load(r);
        }
        return props.stringPropertyNames().stream()
                .sorted()
                .map(k -> k + "=" + props.getProperty(k))
                .collect(java.util.stream.Collectors.joining(" "));
    }

    /** How long the disk is probed before each run of a broker that fsyncs on its hot path. */
    static final Duration DISK_PROBE = Duration.ofSeconds(1);

    /**
     * Whether the broker flushes its logs on the hot path ({@code log.flush.interval.messages} or
     * {@code log.flush.interval.ms} given): Kafka's defaults leave flushing to the OS, and then the disk's flush time
     * is not in an operation's.
     */
    static boolean fsyncsOnItsHotPath(List<String> brokerConfig) {
        return brokerConfig.stream()
                .anyMatch(s -> s.startsWith("log.flush.interval.messages=") || s.startsWith("log.flush.interval.ms="));
    }

    /**
     * The disk's part: the probe's median flush before each run, median [min–max] over the runs of each side, and
     * its ratio omb-tx's run ÷ the bare loop's, round by round: how far the disk under the two loops moved apart, to
     * read beside how far their own figures did.
     */
    static void printDisk(PrintStream out, Map<String, List<DiskProbe.Figures[]>> disk) {
        out.printf(
                Locale.ROOT,
                "%nThe disk under the broker: fsync of a 100-byte append (as a log flush), p50 over %d s just before each"
                        + " run, ms, median [min–max] over the rounds (omb-tx's runs / the bare loop's), and omb-tx's ÷"
                        + " the bare loop's round by round; information, not a target%n",
                DISK_PROBE.toSeconds());
        for (Map.Entry<String, List<DiskProbe.Figures[]>> e : disk.entrySet()) {
            List<DiskProbe.Figures[]> rounds = e.getValue();
            double[] omb = new double[rounds.size()];
            double[] bare = new double[rounds.size()];
            double[] ratio = new double[rounds.size()];
            for (int i = 0; i < rounds.size(); i++) {
                omb[i] = rounds.get(i)[0].p50Micros() / 1000;
                bare[i] = rounds.get(i)[1].p50Micros() / 1000;
                ratio[i] = omb[i] / bare[i];
            }
            Arrays.sort(omb);
            Arrays.sort(bare);
            Arrays.sort(ratio);
            out.printf(Locale.ROOT, "%-25s | %s / %s | × %s%n", e.getKey(), spread(omb), spread(bare), spread(ratio));
        }
    }

    /** Binds every thread of process {@code pid} to {@code cpus}; the threads it starts later inherit that. */
    static void pin(long pid, String cpus) throws IOException, InterruptedException {
        if (ProcessHandle.of(pid).isEmpty()) {
            // taskset -a exits 0 for a process that is gone: it finds no threads to bind.
            throw new IllegalStateException(
                    "taskset could not pin process " + pid + " to CPU " + cpus + ": no such process");
        }
        Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(pid))
                .redirectErrorStream(true)
                .start();
        String output = new String(taskset.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (taskset.waitFor() != 0) {
            throw new IllegalStateException(
                    "taskset could not pin process " + pid + " to CPU " + cpus + ": " + output.strip());
        }
    }

    /** The CPUs this process may run on, from Linux's /proc/self/status; empty when that cannot be read. */
    static List<Integer> allowedCpus() {
        return allowedCpus(Path.of("/proc/self/status"));
    }

    /** The CPUs a process or thread may run on, from its /proc status file; empty when that cannot be read. */
    static List<Integer> allowedCpus(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return cpuList(line.substring("Cpus_allowed_list:".length()));
                }
            }
        } catch (IOException e) {
            // not Linux: unknown
        }
        return List.of();
    }

    /** A kernel CPU list ("0-2,5") as its CPUs in order. */
    static List<Integer> cpuList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.strip().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            int first = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
            int last = dash < 0 ? first : Integer.parseInt(part.substring(dash + 1));
            for (int cpu = first; cpu <= last; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus;
    }

    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null
                && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
                        .anyMatch(dir -> Files.isExecutable(Path.of(dir, program)));
    }

    /** The driver file's client settings as the bare loop reads them: common ones bare, the rest prefixed. */
    private static Path clientProperties(JsonNode driver, Path work) throws IOException {
        Properties all = new Properties();
        all.putAll(javaProperties(driver.path("commonConfig").asText("")));
        javaProperties(driver.path("producerConfig").asText("")).forEach((k, v) -> all.put("producer." + k, v));
        javaProperties(driver.path("consumerConfig").asText("")).forEach((k, v) -> all.put("consumer." + k, v));
        Path file = work.resolve("client.properties");
        try (Writer w = Files.newBufferedWriter(file)) {
            all.store(w, "client settings of the driver file");
        }
        return file;
    }

    private static Properties javaProperties(String text) throws IOException {
        Properties props = new Properties();
        props.load(new java.io.StringReader(text));
        return props;
    }

    /** {@code bin/benchmark} on the shipped workload with the round's counts, quietly; its result file read back. */
    private static Figures ombTx(Bench bench, String scenario, Path driver, int warmup, int measure, Path output)
            throws Exception {
        ObjectNode workload = (ObjectNode) YAML.readTree(
                bench.home().resolve("workloads/" + scenario + ".yaml").toFile());
        workload.remove("profiles");
        workload.put("warmupOperations", warmup);
        workload.put("measureOperations", measure);
        if (workload.path("operation").has("prefillMessages")) {
            ((ObjectNode) workload.path("operation")).put("prefillMessages", warmup + measure);
        }
        Path workloadFile = bench.work().resolve(scenario + ".yaml");
        YAML.writeValue(workloadFile.toFile(), workload);
        Path log = bench.work().resolve(output.getFileName() + ".log");
        List<String> command = new ArrayList<>(sidePrefix);
        command.addAll(List.of(
                bench.home().resolve("bin/benchmark").toString(),
                "-q",
                "-d",
                driver.toString(),
                "-o",
                output.toString()));
        if (clientVersion != null) {
            command.add("--client-version");
            command.add(clientVersion);
        }
        command.add(workloadFile.toString());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment()
                .put(
                        "OMBTX_JAVA_OPTS",
                        String.join(
                                " ",
                                HEAP_FLAGS + " -D" + LoopFiles.GAPS + "=" + gapFile(output) + " -D" + LoopFiles.PAUSES
                                        + "=" + pauseFile(output),
                                String.join(" ", jvmOpts))); // bin/lib's defaults
        Process process =
                builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        int exit = Bench.await(process, scenario);
        if (exit != 0 || !Files.exists(output)) {
            throw new IllegalStateException(
                    "bin/benchmark " + scenario + " exited " + exit + "; see " + log + ":\n" + Bench.tail(log));
        }
        return readOmbTx(scenario, output);
    }

    /** omb-tx's figures from its result file (and its loop-gap and paused-time files beside it, when kept). */
    static Figures readOmbTx(String scenario, Path output) throws IOException {
        Map<String, String> histograms = ResultReader.read(output).histograms();
        Map<String, Histogram> phases = new LinkedHashMap<>();
        histograms.forEach((name, encoded) -> {
            if (name.startsWith("phase.")) {
                phases.put(name.substring(6), Histograms.decode(encoded));
            }
        });
        // tx-fetch: the seeds' operation ends when the write is seen (their loop's last lap); omb-tx's operation is the
        // transaction and the wait for visibility is its end-to-end latency, from the record's publish time (taken
        // before the begin) to its receipt.
        String operations = scenario.equals("tx-fetch") ? "endToEndLatencyMicros" : "operationLatencyMicros";
        return Figures.of(Histograms.decode(histograms.get(operations)), phases, gapFile(output))
                .withPauses(pauseFile(output));
    }

    /**
     * --warmup auto: each run's warm-up would last this long at the pace of the broker warm-up's last run. That run is
     * a fresh JVM's, slower than a warmed loop: in one run of all the fast scenarios, base-writes' later half took 1.25
     * ms a mean operation against 0.25–0.46 warmed, tx-fetch's 4.2 against 1.1–2.1, and tx-writes', whose operations
     * wait out back-offs, 5.8 against 4.2–7.4. So a warm-up lasts from a fifth of this to all of it.
     */
    static final int AUTO_WARMUP_SECONDS = 30;
    /**
     * --warmup auto's floor and ceiling. The floor is the fixed default before it (1000); at 10000 the bare loops
     * of base-writes and tx-fetch, which were still getting faster after 1000 (a first 1000-operation block's p50
     * above the run's median in 9 and 11 of 12 runs), had settled ("Settled?" 1.013 and 0.971).
     */
    static final int AUTO_WARMUP_MIN = 1000;

    static final int AUTO_WARMUP_MAX = 10_000;

    /**
     * The bulk scenarios' ceiling is this share of {@link #AUTO_WARMUP_MAX}, the share of the measured operations they
     * get: 1000. It was a fiftieth, 200, which on Kafka 2.8.2 at one fsync per message (a bulk-acks-all operation of
     * about 4 ms) is under a second, and the bare loop's p50 was still halving within a measured run ("Settled?"
     * 0.938 [0.450–1.265] over 5 rounds).
     */
    static final int BULK_CEILING_SHARE = 10;

    /**
     * The warm-up operations of each run of a scenario: {@code --warmup}'s count, or for {@code auto} as many as take
     * {@link #AUTO_WARMUP_SECONDS} at {@code meanMs} (the broker warm-up's last run), within [{@link
     * #AUTO_WARMUP_MIN}, {@link #AUTO_WARMUP_MAX}]; the floor when no mean was measured. Bulk scenarios, whose
     * operations are transactions of many records, get a fiftieth of a count given and of the floor, and a {@link
     * #BULK_CEILING_SHARE}th of the ceiling.
     */
    static int warmupOf(String option, double meanMs, boolean bulk) {
        int scale = bulk ? 50 : 1;
        if (!option.equals("auto")) {
            int ops = Integer.parseInt(option);
            return ops == 0 ? 0 : Math.max(1, ops / scale);
        }
        if (Double.isNaN(meanMs) || meanMs <= 0) {
            return AUTO_WARMUP_MIN / scale;
        }
        return (int) Math.max(
                AUTO_WARMUP_MIN / scale,
                Math.min(
                        AUTO_WARMUP_MAX / (bulk ? BULK_CEILING_SHARE : 1),
                        Math.ceil(AUTO_WARMUP_SECONDS * 1000.0 / meanMs)));
    }

    /**
     * The mean of the second half of a bare run's operations, in ms, from its per-operation file (a header, then one
     * line per operation, its latency in ns first): a run started cold, whose first operations take many times a warm
     * one's (base-writes' first 500 on a fresh broker: a mean of 2.6 ms, a warmed loop's p50 0.24), without its cold
     * start. NaN for a run of fewer than 2.
     */
    static double laterHalfMeanMs(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        int operations = lines.size() - 1;
        if (operations < 2) {
            return Double.NaN;
        }
        return lines.subList(1 + operations / 2, lines.size()).stream()
                        .mapToLong(line -> Long.parseLong(line.substring(0, (line + ",").indexOf(','))))
                        .average()
                        .orElseThrow()
                / 1e6;
    }

    /** {@link SeedLoop} in a fresh JVM on this class path; its per-operation file read back. */
    private static Figures bare(
            String scenario,
            String bootstrap,
            Path clientProperties,
            short replication,
            int warmup,
            int measure,
            Path output)
            throws Exception {
        Path log = output.resolveSibling(output.getFileName() + ".log");
        List<String> command = new ArrayList<>(sidePrefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(HEAP_FLAGS.split(" ")));
        command.add("-D" + LoopFiles.GAPS + "=" + gapFile(output));
        // Both JVMs compile with HotSpot's defaults (no JIT flags on either side), as the seeds' loops ran.
        command.addAll(jvmOpts);
        command.addAll(List.of(
                "-cp",
                bareClassPath,
                SeedLoop.class.getName(),
                scenario,
                bootstrap,
                clientProperties.toString(),
                Short.toString(replication),
                Integer.toString(warmup),
                Integer.toString(measure),
                output.toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        int exit = Bench.await(process, scenario);
        if (exit != 0) {
            throw new IllegalStateException(
                    "the bare loop of " + scenario + " exited " + exit + "; see " + log + ":\n" + Bench.tail(log));
        }
        return readBare(output);
    }

    /** The bare loop's figures from its per-operation file (and its loop-gap file beside it). */
    static Figures readBare(Path output) throws IOException {
        List<String> lines = Files.readAllLines(output);
        String[] names = lines.get(0).split(",");
        Histogram operations = new Histogram(3);
        Map<String, Histogram> phases = new LinkedHashMap<>();
        for (int i = 1; i < names.length; i++) {
            phases.put(names[i], new Histogram(3));
        }
        long[] inOrder = new long[lines.size() - 1]; // the measured operations, as they ran
        for (int op = 0; op < inOrder.length; op++) {
            String[] values = lines.get(op + 1).split(",");
            inOrder[op] = Long.parseLong(values[0]) / 1000;
            operations.recordValue(inOrder[op]);
            for (int i = 1; i < values.length; i++) {
                phases.get(names[i]).recordValue(Long.parseLong(values[i]) / 1000);
            }
        }
        return Figures.of(operations, phases, gapFile(output), Figures.settling(inOrder));
    }

    private static Path gapFile(Path output) {
        return output.resolveSibling(output.getFileName() + ".gaps");
    }

    /** Where omb-tx's side writes how long each operation's clock was stopped ({@link LoopFiles#paused}). */
    static Path pauseFile(Path output) {
        return output.resolveSibling(output.getFileName() + ".pauses");
    }

    /**
     * The operations of {@link #BACKED_OFF_MICROS} or more, omb-tx's and the bare loop's, round by round, for the
     * scenarios where either side had any: the 20 ms back-off lands here, under the 50 ms of the target.
     */
    static void printBackedOff(PrintStream out, Map<String, List<Figures[]>> measured) {
        if (measured.values().stream().allMatch(Fidelity::noneBackedOff)) {
            return;
        }
        out.printf(
                Locale.ROOT,
                "%nOperations >= %d ms (where the back-offs land: the ~100 ms one, and the 20 ms one of a"
                        + " transaction's first write to a partition whose last markers are not yet written; on a"
                        + " broker that fsyncs every message, log.flush.interval.messages=1, an fsync-bound operation"
                        + " lands here too without one), median over the rounds and round by round (omb-tx / bare;"
                        + " round by round with --aa: omb-tx / bare / bare again); information, not a target%n",
                BACKED_OFF_MICROS / 1000);
        for (Map.Entry<String, List<Figures[]>> e : measured.entrySet()) {
            List<Figures[]> runs = e.getValue();
            if (noneBackedOff(runs)) {
                continue;
            }
            List<String> rounds = new ArrayList<>();
            for (Figures[] r : runs) {
                rounds.add(r[0].backedOff() + "/" + r[1].backedOff() + (r.length > 2 ? "/" + r[2].backedOff() : ""));
            }
            out.printf(
                    Locale.ROOT,
                    "%-25s | %7.1f / %-7.1f | %s%n",
                    e.getKey(),
                    sideMedian(runs, 0, Figures::backedOff),
                    sideMedian(runs, 1, Figures::backedOff),
                    String.join(" ", rounds));
        }
    }

    /** Whether no run of either side had an operation of {@link #BACKED_OFF_MICROS} or more. */
    private static boolean noneBackedOff(List<Figures[]> runs) {
        return runs.stream().allMatch(r -> r[0].backedOff() == 0 && r[1].backedOff() == 0);
    }

    /** The table; true when every target is met. */
    static boolean print(PrintStream out, Map<String, List<Figures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nomb-tx ÷ bare loop, median [min–max] over the rounds (target %.2f–%.2f); operations >= %d ms,"
                        + " median over the rounds (target: within 10%% of the bare loop's)%n",
                LOW,
                HIGH,
                SLOW_MICROS / 1000);
        out.printf(
                Locale.ROOT,
                "%-25s | %-19s | %-19s | %-19s | %-17s | %s%n",
                "scenario",
                "p50 ×",
                "p99 ×",
                "total ×",
                ">=50ms omb / bare",
                "verdict");
        boolean allMet = true;
        for (Map.Entry<String, List<Figures[]>> e : measured.entrySet()) {
            List<Figures[]> runs = e.getValue();
            double[] p50 = ratios(runs, Figures::p50);
            double[] p99 = ratios(runs, Figures::p99);
            double[] total = ratios(runs, Figures::total);
            double slowOmb = sideMedian(runs, 0, Figures::slow);
            double slowBare = sideMedian(runs, 1, Figures::slow);
            List<String> missed = new ArrayList<>();
            check(missed, "p50", p50);
            check(missed, "p99", p99);
            check(missed, "total", total);
            if (slowMissed(runs)) {
                missed.add(">=50ms");
            }
            allMet &= missed.isEmpty();
            out.printf(
                    Locale.ROOT,
                    "%-25s | %-19s | %-19s | %-19s | %7.1f / %-7.1f | %s%n",
                    e.getKey(),
                    spread(p50),
                    spread(p99),
                    spread(total),
                    slowOmb,
                    slowBare,
                    verdict(missed, runs));
        }
        boolean aa = measured.values().stream().allMatch(runs -> runs.get(0).length > 2);
        out.printf(
                Locale.ROOT,
                "%nPhase means, ms, median over the rounds (omb-tx / bare%s; —: not a phase of that side's loop,"
                        + " as tx-fetch's wait until the records are visible, which omb-tx measures as its end-to-end"
                        + " latency)%n",
                aa ? " / bare again, the A/A" : "");
        for (Map.Entry<String, List<Figures[]>> e : measured.entrySet()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-25s |", e.getKey()));
            for (String phase : e.getValue().get(0)[1].phaseMeans().keySet()) {
                line.append(' ').append(phase);
                for (int side = 0; side < (aa ? 3 : 2); side++) {
                    double mean =
                            sideMedian(e.getValue(), side, f -> f.phaseMeans().getOrDefault(phase, Double.NaN));
                    String shown = Double.isNaN(mean) ? "—" : String.format(Locale.ROOT, "%.3f", mean);
                    line.append(side == 0 ? " " : " / ").append(shown);
                }
                line.append(" |");
            }
            out.println(line);
        }
        printBackedOff(out, measured);
        out.printf(
                Locale.ROOT,
                "%nLoop gap, µs, from a commit returning to the next begin (what decides whether the next transaction"
                        + " meets the commit's markers; plain writes: from the last ack to the next send), median over"
                        + " the rounds of p50 and p90 (omb-tx / bare%s)%n",
                aa ? " / bare again" : "");
        for (Map.Entry<String, List<Figures[]>> e : measured.entrySet()) {
            List<Figures[]> runs = e.getValue();
            int sides = aa ? 3 : 2;
            double[] p50 = new double[sides];
            double[] p90 = new double[sides];
            for (int side = 0; side < sides; side++) {
                p50[side] = sideMedian(runs, side, Figures::gapP50);
                p90[side] = sideMedian(runs, side, Figures::gapP90);
            }
            if (Double.isNaN(p50[0]) && Double.isNaN(p50[1])) {
                continue; // no transactions, or not recorded (a worker JVM of its own)
            }
            out.printf(Locale.ROOT, "%-25s | p50 %s | p90 %s%n", e.getKey(), perSide(p50), perSide(p90));
        }
        printPauses(out, measured);
        printSettling(out, measured);
        printIntervals(out, measured);
        printSplit(out, measured);
        if (measured.values().stream().allMatch(runs -> runs.get(0).length > 2)) {
            printNoiseFloor(out, measured);
        }
        out.println("(total = sum of the measured operations' latencies; both sides decoded through HdrHistogram"
                + " at 3 significant digits; fewer than 1% of the operations on both sides counts as met)");
        return allMet;
    }

    /**
     * The A/A table: the bare loop against itself, round by round, so a reader sees how far two runs of the same loop
     * on this machine differ; omb-tx's median ratio is marked "inside" when it lies within that spread.
     */
    static void printNoiseFloor(PrintStream out, Map<String, List<Figures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nNoise floor (A/A): the bare loop ÷ itself run again in the same round, median [min–max]; omb-tx ÷"
                        + " bare's median beside it, 'inside' when within the A/A range%n");
        out.printf(
                Locale.ROOT,
                "%-25s | %-19s | %-19s | %-19s | %-17s | %s%n",
                "scenario",
                "p50 × (A/A)",
                "p99 × (A/A)",
                "total × (A/A)",
                ">=50ms bare / bare",
                "omb-tx ÷ bare: p50, p99, total");
        for (Map.Entry<String, List<Figures[]>> e : measured.entrySet()) {
            List<Figures[]> runs = e.getValue();
            List<Figures[]> aa = againstItself(runs);
            StringBuilder against = new StringBuilder();
            for (ToDoubleFunction<Figures> figure :
                    List.<ToDoubleFunction<Figures>>of(Figures::p50, Figures::p99, Figures::total)) {
                double[] floor = ratios(aa, figure);
                double omb = median(ratios(runs, figure));
                if (against.length() > 0) {
                    against.append(", ");
                }
                against.append(String.format(
                        Locale.ROOT,
                        "%.3f %s",
                        omb,
                        omb >= floor[0] && omb <= floor[floor.length - 1] ? "inside" : "outside"));
            }
            out.printf(
                    Locale.ROOT,
                    "%-25s | %-19s | %-19s | %-19s | %7.1f / %-7.1f | %s%n",
                    e.getKey(),
                    spread(ratios(aa, Figures::p50)),
                    spread(ratios(aa, Figures::p99)),
                    spread(ratios(aa, Figures::total)),
                    sideMedian(runs, 2, Figures::slow),
                    sideMedian(runs, 1, Figures::slow),
                    against);
        }
    }

    /** The median over the rounds of side {@code side}'s {@code figure}. */
    private static double sideMedian(List<Figures[]> runs, int side, ToDoubleFunction<Figures> figure) {
        return median(runs.stream()
                .mapToDouble(r -> figure.applyAsDouble(r[side]))
                .sorted()
                .toArray());
    }

    /**
     * omb-tx's paused time per operation: where its runner does its bookkeeping inside an operation with the clock
     * stopped (a transaction running ahead: after its last request, before its commit), which the bare loop does
     * not. Only the scenarios where omb-tx recorded any.
     */
    static void printPauses(PrintStream out, Map<String, List<Figures[]>> measured) {
        boolean header = false;
        for (Map.Entry<String, List<Figures[]>> e : measured.entrySet()) {
            // Rounds pooled from runs that kept no paused times have none: the median of those that did.
            List<Figures[]> paused = e.getValue().stream()
                    .filter(round -> !Double.isNaN(round[0].pauseP50()))
                    .toList();
            if (paused.isEmpty()) {
                continue;
            }
            double p50 = sideMedian(paused, 0, Figures::pauseP50);
            if (!header) {
                out.printf(
                        Locale.ROOT,
                        "%nPaused, µs: omb-tx's time inside an operation with its clock stopped, its runner's"
                                + " bookkeeping (a transaction: after its last request, before its commit, where the"
                                + " bare loop calls the commit at once), median over the rounds of p50 and p90%n");
                header = true;
            }
            out.printf(
                    Locale.ROOT,
                    "%-25s | p50 %7.1f | p90 %7.1f%s%n",
                    e.getKey(),
                    p50,
                    sideMedian(paused, 0, Figures::pauseP90),
                    paused.size() < e.getValue().size()
                            ? " (" + paused.size() + " of " + e.getValue().size() + " rounds)"
                            : "");
        }
    }

    /** The A/A pairs of {@code --aa} rounds: the bare loop's second run against its first. */
    private static List<Figures[]> againstItself(List<Figures[]> runs) {
        return runs.stream().map(r -> new Figures[] {r[2], r[1]}).toList();
    }

    /** One figure per side, "omb-tx / bare[ / bare again]", each 7.1f. */
    private static String perSide(double[] figures) {
        StringBuilder text = new StringBuilder();
        for (double figure : figures) {
            text.append(text.length() == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%7.1f", figure));
        }
        return text.toString();
    }

    /** The confidence of {@link #interval}: at least this share of such intervals holds the true median. */
    static final double CONFIDENCE = 0.90;

    /**
     * Whether the verdicts above are decided by the rounds measured: per figure, the distribution-free 90% confidence
     * interval of the median of the round-by-round ratios ({@link #interval}), and "decided" when it lies wholly
     * inside the target band (met) or wholly outside it (not met). A median inside the band with an interval that
     * crosses its edge is not a pass, and one outside it not a failure: more rounds or more operations per round
     * would decide it. The operations of 50 ms or more are compared round by round here (omb-tx ÷ bare of each
     * round's counts, target 0.90–1.10).
     */
    static void printIntervals(PrintStream out, Map<String, List<Figures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nDecided? %.0f%% confidence interval of each median ratio over the rounds (order statistics, no"
                        + " assumption of a distribution): 'met' or 'not met' when the interval lies wholly inside or"
                        + " wholly outside the target band, else 'undecided', with about how many rounds at this"
                        + " spread would decide it%n",
                CONFIDENCE * 100);
        out.printf(
                Locale.ROOT,
                "%-25s | %-38s | %-38s | %-38s | %s%n",
                "scenario",
                "p50 ×",
                "p99 ×",
                "total ×",
                ">=50ms × (round by round)");
        for (Map.Entry<String, List<Figures[]>> e : measured.entrySet()) {
            List<Figures[]> runs = e.getValue();
            printIntervalLine(out, e.getKey(), runs);
            if (runs.get(0).length > 2) {
                // The same for the bare loop against itself (--aa): a target it cannot meet decides nothing.
                List<Figures[]> aa = againstItself(runs);
                printIntervalLine(out, e.getKey() + " (A/A)", aa);
            }
        }
    }

    /**
     * The p50 taken apart. A transactional closed loop's operations fall in two modes: those that did not meet the
     * previous commit's markers (a few ms) and those that did and backed off (20 ms for a first write to a partition
     * on Kafka 4.x, ~100 ms of {@code retry.backoff.ms} for an offset commit or a 2.x-3.x client). A run's p50 is the
     * (0.5 ÷ share without back-off)-th percentile of the first mode, so it moves with the backed-off share, which is
     * a race between the broker's marker writes and the loop's next request and varies from run to run of one loop
     * (tx-writes on 4.1.1: 16% to 38% in ten of the bare loop's own runs). The two figures it is made of are printed
     * apart: the share of operations of {@link #BACKED_OFF_MICROS} or more (omb-tx ÷ bare of each round's counts,
     * with its interval against ±{@link #SLOW_TOLERANCE}) and the median of the operations under it (with its
     * interval against the p50's band); with {@code --aa} each beside the bare loop's against itself, which says
     * whether the rounds can decide it at all.
     */
    static void printSplit(PrintStream out, Map<String, List<Figures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nThe p50 taken apart: operations >= %d ms (backed off) as a share of all, median over the rounds"
                        + " (omb-tx / bare), and omb-tx ÷ bare of their counts round by round with its %.0f%% interval"
                        + " (against %.2f–%.2f); the median of the operations under %d ms, omb-tx ÷ bare with its"
                        + " interval (target %.2f–%.2f)%n",
                BACKED_OFF_MICROS / 1000,
                CONFIDENCE * 100,
                1 - SLOW_TOLERANCE,
                1 + SLOW_TOLERANCE,
                BACKED_OFF_MICROS / 1000,
                LOW,
                HIGH);
        for (Map.Entry<String, List<Figures[]>> e : measured.entrySet()) {
            List<Figures[]> runs = e.getValue();
            if (runs.stream().anyMatch(r -> Double.isNaN(r[0].fastP50()) || Double.isNaN(r[1].fastP50()))) {
                continue; // a round with no fast operation on one side: nothing to take apart
            }
            out.printf(
                    Locale.ROOT,
                    "%-25s | backed off %4.1f%% / %4.1f%% | %s%n",
                    e.getKey(),
                    100 * sideMedian(runs, 0, Figures::backedOffShare),
                    100 * sideMedian(runs, 1, Figures::backedOffShare),
                    splitFigures(runs));
            if (runs.get(0).length > 2) {
                List<Figures[]> aa = againstItself(runs);
                out.printf(Locale.ROOT, "%-25s | %-27s | %s%n", e.getKey() + " (A/A)", "", splitFigures(aa));
            }
        }
    }

    /** The split's two comparisons of {@code runs}' first side against its second. */
    private static String splitFigures(List<Figures[]> runs) {
        double[] backedOff = runs.stream()
                .filter(r -> r[1].backedOff() > 0)
                .mapToDouble(r -> (double) r[0].backedOff() / r[1].backedOff())
                .sorted()
                .toArray();
        boolean few = runs.stream()
                .allMatch(r -> r[0].backedOff() < 0.01 * r[0].count() && r[1].backedOff() < 0.01 * r[1].count());
        double[] fast = ratios(runs, Figures::fastP50);
        return String.format(
                Locale.ROOT,
                "backed off × %s | under %d ms p50 × %.3f %s",
                few || backedOff.length == 0
                        ? "too few to compare"
                        : String.format(
                                Locale.ROOT,
                                "%.3f %s",
                                median(backedOff),
                                decided(backedOff, 1 - SLOW_TOLERANCE, 1 + SLOW_TOLERANCE)),
                BACKED_OFF_MICROS / 1000,
                median(fast),
                decided(fast, LOW, HIGH));
    }

    /**
     * Whether the warm-up was long enough: the bare loop's {@link Figures#settling} per round. omb-tx's result holds
     * its operations as a histogram, out of order, so only the bare side can be taken apart; a bare loop still getting
     * faster says both sides measured part of their warm-up, and omb-tx, with more code on its path to compile, may
     * be further from its steady state than the bare loop is.
     */
    static void printSettling(PrintStream out, Map<String, List<Figures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nSettled? The bare loop's p50 of its measured operations' second half ÷ their first half, median"
                        + " [min–max] over the rounds: below %.2f the loop was still getting faster after the warm-up"
                        + " (raise --warmup)%n",
                LOW);
        for (Map.Entry<String, List<Figures[]>> e : measured.entrySet()) {
            double[] settling = e.getValue().stream()
                    .mapToDouble(r -> r[1].settling())
                    .filter(x -> !Double.isNaN(x))
                    .sorted()
                    .toArray();
            if (settling.length == 0) {
                continue;
            }
            out.printf(
                    Locale.ROOT,
                    "%-25s | %s%s%n",
                    e.getKey(),
                    spread(settling),
                    median(settling) < LOW ? " still warming up" : "");
        }
    }

    /** One line of the intervals' table: {@code runs}' first side against its second. */
    private static void printIntervalLine(PrintStream out, String label, List<Figures[]> runs) {
        double[] slow = runs.stream()
                .filter(r -> r[1].slow() > 0)
                .mapToDouble(r -> (double) r[0].slow() / r[1].slow())
                .sorted()
                .toArray();
        double slowOmb = sideMedian(runs, 0, Figures::slow);
        double slowBare = sideMedian(runs, 1, Figures::slow);
        out.printf(
                Locale.ROOT,
                "%-25s | %-38s | %-38s | %-38s | %s%n",
                label,
                decided(ratios(runs, Figures::p50), LOW, HIGH),
                decided(ratios(runs, Figures::p99), LOW, HIGH),
                decided(ratios(runs, Figures::total), LOW, HIGH),
                rare(slowOmb, slowBare, runs) || slow.length == 0
                        ? "too few to compare"
                        : decided(slow, 1 - SLOW_TOLERANCE, 1 + SLOW_TOLERANCE));
    }

    /** The interval of {@code sorted}'s median and what it decides against [{@code low}, {@code high}]. */
    private static String decided(double[] sorted, double low, double high) {
        double[] interval = interval(sorted);
        if (interval == null) {
            return "too few rounds";
        }
        String verdict = interval[0] >= low && interval[1] <= high
                ? "met"
                : interval[1] < low || interval[0] > high ? "not met" : "undecided";
        if (verdict.equals("undecided")) {
            long rounds = roundsToDecide(sorted, low, high);
            verdict += rounds < 0 ? " (at the band's edge)" : " (≈" + rounds + " rounds)";
        }
        return String.format(Locale.ROOT, "[%.3f–%.3f] %s", interval[0], interval[1], verdict);
    }

    /** Beyond this many rounds an estimate says only that the median sits at the band's edge. */
    static final long MAX_ROUNDS_ESTIMATE = 10_000;

    /**
     * About how many rounds would decide an undecided median at the spread measured: an order-statistics interval
     * narrows as one over the square root of the rounds, so it must shrink by the factor by which it overreaches
     * the room between the median and the band's edge on its side (both edges for a median inside the band);
     * -1 when that takes more than {@link #MAX_ROUNDS_ESTIMATE} rounds (the median is at the edge) or there is no
     * interval to scale (fewer than 5 rounds), 0 when the interval already decides. An estimate for planning the
     * next run, not a verdict.
     */
    static long roundsToDecide(double[] sorted, double low, double high) {
        double[] interval = interval(sorted);
        if (interval == null) {
            return -1;
        }
        double m = median(sorted);
        double factor;
        if (m < low) {
            factor = (interval[1] - m) / (low - m);
        } else if (m > high) {
            factor = (m - interval[0]) / (m - high);
        } else {
            factor = Math.max(
                    m == low ? Double.POSITIVE_INFINITY : (m - interval[0]) / (m - low),
                    m == high ? Double.POSITIVE_INFINITY : (interval[1] - m) / (high - m));
        }
        if (factor <= 1) {
            return 0;
        }
        double rounds = Math.ceil(sorted.length * factor * factor);
        return rounds > MAX_ROUNDS_ESTIMATE ? -1 : (long) rounds;
    }

    /**
     * The distribution-free {@link #CONFIDENCE} confidence interval of the median of {@code sorted}: the k-th smallest
     * and k-th largest values, for the largest k whose interval covers the median with that probability (the number
     * of values below the median is Binomial(n, ½)); null when even the whole range covers it less often (fewer than
     * 5 values).
     */
    static double[] interval(double[] sorted) {
        return OrderStatistics.medianInterval(sorted, CONFIDENCE);
    }

    /** Both sides' slow operations under 1% of the operations: too few for a ±10% comparison to mean anything. */
    private static boolean rare(double slowOmb, double slowBare, List<Figures[]> runs) {
        double operations = runs.get(0)[1].count();
        return slowOmb < 0.01 * operations && slowBare < 0.01 * operations;
    }

    /**
     * The verdict column: MET, or NOT MET with the figures missed. With {@code --aa} each missed ratio is set beside
     * the bare loop's against itself: a figure the bare loop ÷ itself also misses (its median outside the band too),
     * with omb-tx's median inside the A/A's [min–max], is marked "A/A misses it too", and when every missed figure is
     * so marked the verdict says the target cannot be decided by these rounds on this machine, rather than that
     * omb-tx measured another loop. A miss wider than the bare loop's own spread stays omb-tx's.
     */
    static String verdict(List<String> missed, List<Figures[]> runs) {
        if (missed.isEmpty()) {
            return "MET";
        }
        if (runs.get(0).length < 3) {
            return "NOT MET (" + String.join(", ", missed) + ")";
        }
        List<Figures[]> aa = againstItself(runs);
        List<String> marked = new ArrayList<>();
        int alsoAa = 0;
        for (String name : missed) {
            ToDoubleFunction<Figures> figure =
                    switch (name) {
                        case "p50" -> Figures::p50;
                        case "p99" -> Figures::p99;
                        case "total" -> Figures::total;
                        default -> null;
                    };
            boolean aaMisses;
            String aaValue;
            if (figure != null) {
                double[] floors = ratios(aa, figure);
                double floor = median(floors);
                double omb = median(ratios(runs, figure));
                aaMisses = (floor < LOW || floor > HIGH) && omb >= floors[0] && omb <= floors[floors.length - 1];
                aaValue = String.format(Locale.ROOT, "%.3f", floor);
            } else {
                aaMisses = slowMissed(aa);
                aaValue = String.format(
                        Locale.ROOT, "%.1f / %.1f", sideMedian(aa, 0, Figures::slow), sideMedian(aa, 1, Figures::slow));
            }
            if (aaMisses) {
                alsoAa++;
                marked.add(name + ": A/A misses it too, " + aaValue);
            } else {
                marked.add(name);
            }
        }
        return (alsoAa == missed.size() ? "NOT DECIDED here (" : "NOT MET (")
                + String.join(alsoAa > 0 ? "; " : ", ", marked) + ")";
    }

    /** Whether the first side's operations of 50 ms or more (median) are off the second's by more than 10%. */
    private static boolean slowMissed(List<Figures[]> runs) {
        double first = sideMedian(runs, 0, Figures::slow);
        double second = sideMedian(runs, 1, Figures::slow);
        return Math.abs(first - second) > SLOW_TOLERANCE * second && !rare(first, second, runs);
    }

    private static void check(List<String> missed, String name, double[] sortedRatios) {
        double median = median(sortedRatios);
        if (median < LOW || median > HIGH) {
            missed.add(name);
        }
    }

    private static double[] ratios(List<Figures[]> runs, ToDoubleFunction<Figures> figure) {
        return Bench.ratios(runs, 0, 1, figure);
    }

    private static String spread(double[] values) {
        return Bench.spread(values, "%.3f");
    }
}

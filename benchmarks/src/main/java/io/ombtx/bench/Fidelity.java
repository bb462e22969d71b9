package io.ombtx.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.KafkaVersion;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.config.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Whether omb-tx measures the loop it claims to reproduce: for each closed-loop scenario, omb-tx's own run of the
 * workload ({@code bin/benchmark}, a fresh JVM) and {@link SeedLoop}'s bare kafka-clients loop (a fresh JVM too),
 * alternated on one embedded broker for N rounds (the order flips every round, with {@code --aa} goes through the six
 * orders of three, so neither side always runs on the warmer broker; {@link Bench#order}), compared on p50, p99, total
 * time (the sum of the operations' latencies, seed 001's "N txes in T ms") and the number of operations of 50 ms
 * or more, where the ~100 ms {@code retry.backoff.ms} collisions of back-to-back transactions show. Both sides'
 * latencies go through the same HdrHistogram arithmetic.
 *
 * <p>This class runs the rounds; each side's figures are {@link FidelityFigures}, the tables and verdicts
 * {@link FidelityReport}'s, the pooling of kept rounds {@link FidelityPool}'s.
 */
public final class Fidelity {

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
        Map<String, List<FidelityFigures[]>> measured = new LinkedHashMap<>();
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
                        FidelityFigures warm = bare(scenario, bootstrap, clientProperties, replication, 0, ops, csv);
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
                    FidelityFigures[] pair = new FidelityFigures[sides];
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
        boolean met = FidelityReport.print(out, measured);
        if (probeDisk) {
            FidelityReport.printDisk(out, disk);
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
        Map<String, List<FidelityFigures[]>> measured;
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
        return FidelityReport.print(out, measured) ? Cli.OK : 1;
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
    private static FidelityFigures ombTx(
            Bench bench, String scenario, Path driver, int warmup, int measure, Path output) throws Exception {
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
                                HEAP_FLAGS + " -D" + LoopFiles.GAPS + "=" + FidelityFigures.gapFile(output) + " -D"
                                        + LoopFiles.PAUSES + "=" + FidelityFigures.pauseFile(output),
                                String.join(" ", jvmOpts))); // bin/lib's defaults
        Process process =
                builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        int exit = Bench.await(process, scenario);
        if (exit != 0 || !Files.exists(output)) {
            throw new IllegalStateException(
                    "bin/benchmark " + scenario + " exited " + exit + "; see " + log + ":\n" + Bench.tail(log));
        }
        return FidelityFigures.readOmbTx(scenario, output);
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
    private static FidelityFigures bare(
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
        command.add("-D" + LoopFiles.GAPS + "=" + FidelityFigures.gapFile(output));
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
        return FidelityFigures.readBare(output);
    }
}

package io.ombtx.runner;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.ConfigFields;
import io.ombtx.driver.api.config.YamlFiles;
import io.ombtx.runner.cli.BenchmarkArgs;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.CommonOptions;
import io.ombtx.runner.cluster.ClusterReuse;
import io.ombtx.runner.cluster.ClusterSystem;
import io.ombtx.runner.cluster.ClusterSystems;
import io.ombtx.runner.config.BrokerSetup;
import io.ombtx.runner.config.ClusterProfile;
import io.ombtx.runner.config.EmbeddedSystem;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.PlanText;
import io.ombtx.runner.plan.Repetitions;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.plan.TansuLimits;
import io.ombtx.runner.run.ConformanceSummary;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/benchmark-suite}: runs every (driver, workloads) entry of a suite file with one profile, each result
 * in its own file under one results folder, through the same code path as {@code bin/benchmark}.
 */
public final class SuiteMain {

    /** bin/benchmark-suite's command line: the suite file, plus the options it shares with bin/benchmark. */
    @Command(
            name = "bin/benchmark-suite",
            customSynopsis = "bin/benchmark-suite [--profile quick|full] [-o DIR] [--dry-run] [options] SUITE.yaml",
            description = "Runs a suite: a file listing driver YAMLs and the workloads to run with each (see"
                    + " suites/), each result in its own file under one results folder, through the same code path"
                    + " as bin/benchmark.",
            optionListHeading = "%nOptions (as bin/benchmark's):%n",
            footer = {
                "In a suite, -o names the results folder (default results/<suite>-<profile>-<UTC time>/) and"
                        + " --profile defaults to the suite's 'profile', else full.",
                "A suite's 'repeat: N' (or one per profile, {quick: 2, full: 5}) and 'interleave: true' apply to"
                        + " every entry unless the entry sets its own or --repeat/--interleave are given; an entry's"
                        + " 'name' names its comparison in the results.",
                "Paths in a suite are relative to the omb-tx folder. Exit codes as bin/benchmark: 0 done; 1 a run"
                        + " failed or ended early; 2 bad input; 3 every run complete, and a broker guarantee judged"
                        + " broken (conformance); 130 interrupted.",
                "",
                "Examples:",
                "  bin/benchmark-suite --profile quick suites/kafka-seeds.yaml",
                "  bin/benchmark-suite --dry-run --profile full suites/kafka-seeds.yaml"
            })
    static final class Options {
        @Parameters(
                paramLabel = "SUITE.yaml",
                arity = "0..1",
                description = "the suite file, e.g." + " suites/kafka-seeds.yaml")
        @Cli.Required("missing SUITE.yaml (see --help)")
        Path suite;

        @Mixin
        CommonOptions common = new CommonOptions();
    }

    /** Runs one suite entry; {@link Main#run(BenchmarkArgs, PrintStream, PrintStream)} outside tests. */
    interface Runner {
        int run(BenchmarkArgs args, PrintStream out, PrintStream err);
    }

    private static final List<String> SUITE_KEYS =
            List.of("name", "description", "profile", "repeat", "interleave", "reuseBrokers", "runs");
    private static final List<String> RUN_KEYS = List.of(
            "name",
            "driver",
            "drivers",
            "workloads",
            "repeat",
            "interleave",
            "brokerVersion",
            "transactionVersion",
            "clientVersion",
            "brokers",
            "brokerProfile",
            "brokerSystem",
            "profiles");

    private SuiteMain() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * One suite entry: a comparison of its drivers × workloads, optionally on another embedded broker release and
     * transaction version (null: unset; those replace the workloads' own; --broker-version and
     * --transaction-version replace them).
     *
     * @param name the comparison's name (leads its results' group id), or null
     * @param repeat the entry's own repetitions, or null for the suite's
     * @param interleave the entry's own interleaving, or null for the suite's
     * @param clientVersion the client release the entry's runs use (the seed's set-up), or null
     * @param brokers the entry's embedded broker count, or null (the workloads' and driver's need)
     * @param brokerProfile the entry's embedded broker profile, or null (the workloads')
     * @param profiles the suite profiles the entry runs in ({@code profiles: [full]}), or null for every profile
     * @param brokerSystem the entry's embedded broker system (kafka or tansu), or null (the workloads')
     */
    record Entry(
            List<Path> drivers,
            List<Path> workloads,
            String name,
            Integer repeat,
            Boolean interleave,
            String brokerVersion,
            Integer transactionVersion,
            String clientVersion,
            Integer brokers,
            ClusterProfile brokerProfile,
            List<String> profiles,
            EmbeddedSystem brokerSystem) {}

    /**
     * An entry that runs on the embedded Tansu (its own {@code brokerSystem}, or {@code --broker-system tansu}) and
     * asks its cluster for what Tansu cannot give is refused naming the entry's key, not a command-line flag it was
     * never given; a flag given too is blamed by the planner, as it wins over the entry.
     */
    private static void tansuEntry(String file, int index, Entry entry, BenchmarkArgs args) {
        EmbeddedSystem system = args.brokerSystem() != null ? args.brokerSystem() : entry.brokerSystem();
        if (system != EmbeddedSystem.TANSU) {
            return;
        }
        String chosenBy = args.brokerSystem() != null
                ? "--broker-system tansu"
                : "runs[" + index + "].brokerSystem tansu in " + file;
        TansuLimits.Problem problem = TansuLimits.entryProblem(
                args.brokerVersion() == null ? entry.brokerVersion() : null,
                args.brokers() == null ? entry.brokers() : null,
                args.brokerProfile() == null ? entry.brokerProfile() : null,
                args.transactionVersion() == null ? entry.transactionVersion() : null,
                chosenBy);
        if (problem != null) {
            throw new ConfigException(file, "runs[" + index + "]." + problem.key(), problem.message());
        }
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, null);
    }

    /** @param runner runs one entry; null: {@link Main#run}, embedded clusters kept across entries when reused */
    static int run(String[] args, PrintStream out, PrintStream err, Runner runner) {
        return Cli.execute(new Options(), args, out, err, options -> run(options, out, err, runner));
    }

    private static int run(Options options, PrintStream out, PrintStream err, Runner given) {
        try (ClusterReuse shared = new ClusterReuse()) {
            Runner runner = given != null ? given : (args, o, e) -> Main.run(args, o, e, shared);
            return runSuite(options, out, err, runner);
        }
    }

    private static int runSuite(Options options, PrintStream out, PrintStream err, Runner runner) {
        CommonOptions common = options.common;
        BenchmarkArgs given = common.toArgs(List.of(), List.of(), null, null, false); // the options as given
        try {
            Path suiteFile = options.suite;
            JsonNode suite = YamlFiles.read(suiteFile);
            String name =
                    suite.path("name").asText(suiteFile.getFileName().toString().replaceFirst("\\.ya?ml$", ""));
            String profile = given.profile() != null
                    ? given.profile()
                    : suite.path("profile").asText("full");
            List<Entry> entries = entries(suiteFile, suite, profile);
            Path output = given.output();
            if (output == null) {
                String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
                output = Path.of("results", name + "-" + profile + "-" + stamp);
            }
            int suiteRepeat = repeat(suiteFile.toString(), "repeat", suite.get("repeat"), profile, 1);
            boolean suiteInterleave = new ConfigFields(suiteFile.toString(), suite, "").bool("interleave", false);
            boolean reuseBrokers = common.reuseBrokersGiven()
                    || flag(suiteFile.toString(), "reuseBrokers", suite.get("reuseBrokers"), profile);
            List<BenchmarkArgs> runs = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) {
                Entry entry = entries.get(i);
                if (entry.profiles() != null && !entry.profiles().contains(profile)) {
                    continue; // read and checked, but not part of this profile
                }
                BenchmarkArgs args = common.toArgs(entry.drivers(), entry.workloads(), profile, output, false);
                tansuEntry(suiteFile.toString(), i, entry, args);
                String version = args.brokerVersion() != null ? args.brokerVersion() : entry.brokerVersion();
                Integer transactionVersion = args.transactionVersion();
                if (transactionVersion == null && entry.transactionVersion() != null) {
                    // Checked here so the entry is blamed, not --transaction-version.
                    String problem =
                            ClusterSystems.installed().transactionVersionProblem(version, entry.transactionVersion());
                    if (problem != null) {
                        throw new ConfigException(suiteFile.toString(), "runs[" + i + "].transactionVersion", problem);
                    }
                    transactionVersion = entry.transactionVersion();
                }
                // --repeat and --interleave on the command line win over the entry's, which win over the suite's.
                int repeat = common.repeatGiven() != null
                        ? common.repeatGiven()
                        : entry.repeat() != null ? entry.repeat() : suiteRepeat;
                boolean interleave =
                        common.interleaveGiven() || (entry.interleave() != null ? entry.interleave() : suiteInterleave);
                runs.add(args.withSetup(
                                version,
                                transactionVersion,
                                entry.clientVersion(),
                                entry.brokers(),
                                entry.brokerProfile())
                        .withRepetitions(repeat, interleave, entry.name())
                        .withReuseBrokers(reuseBrokers)
                        .withBrokerSystem(entry.brokerSystem(), suiteFile.toString(), "runs[" + i + "].brokerSystem"));
            }
            List<RunSpec> planned = new ArrayList<>();
            for (BenchmarkArgs run : runs) {
                planned.addAll(Main.plan(run)); // every entry's mistakes before the first entry runs
            }
            int status = Main.OK;
            for (BenchmarkArgs run : runs) {
                int code = runner.run(run, out, err);
                if (code == Main.BAD_INPUT || code == Main.INTERRUPTED) {
                    return code;
                }
                status = Main.worse(status, code);
            }
            if (!given.dryRun()) {
                ConformanceSummary.print(output, out);
                out.println("Suite " + name + " (" + profile + ") done: results in " + output
                        + (status == Main.GUARANTEE_BROKEN ? " (exit 3: a broker broke a guarantee, see above)" : ""));
            } else {
                out.println("Suite " + name + " (" + profile + "): " + runs.size()
                        + (runs.size() == 1 ? " entry, " : " entries, ") + PlanText.estimate(planned, reuseBrokers));
                if (reuseBrokers) {
                    out.println(Main.reuseLine(planned));
                }
            }
            return status;
        } catch (ConfigException | UsageException e) {
            err.println("error: " + e.getMessage());
            return Main.BAD_INPUT;
        }
    }

    private static List<Entry> entries(Path suiteFile, JsonNode suite, String profile) {
        String file = suiteFile.toString();
        check(file, "", suite, SUITE_KEYS);
        JsonNode runs = suite.get("runs");
        if (runs == null || !runs.isArray() || runs.isEmpty()) {
            throw new ConfigException(file, "runs", "expected a list of {driver, workloads} entries");
        }
        Path home = OmbTxHome.locate();
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            JsonNode run = runs.get(i);
            String where = "runs[" + i + "]";
            if (!run.isObject()) {
                throw new ConfigException(file, where, "expected a mapping with driver and workloads");
            }
            check(file, where, run, RUN_KEYS);
            List<Path> drivers = new ArrayList<>();
            if (run.has("driver") == run.has("drivers")) {
                throw new ConfigException(file, where + ".driver", "give one driver file (driver) or a list (drivers)");
            }
            if (run.has("driver")) {
                drivers.add(existing(
                        file, where + ".driver", home, run.path("driver").asText(null)));
            } else {
                JsonNode list = run.get("drivers");
                if (!list.isArray() || list.isEmpty()) {
                    throw new ConfigException(file, where + ".drivers", "expected a list of driver files");
                }
                for (JsonNode d : list) {
                    drivers.add(existing(file, where + ".drivers", home, d.asText()));
                }
            }
            JsonNode workloads = run.get("workloads");
            if (workloads == null || !workloads.isArray() || workloads.isEmpty()) {
                throw new ConfigException(file, where + ".workloads", "expected a list of workload files");
            }
            List<Path> paths = new ArrayList<>();
            for (JsonNode w : workloads) {
                paths.add(existing(file, where + ".workloads", home, w.asText()));
            }
            ConfigFields fields = new ConfigFields(file, run, where);
            Integer repeat = run.has("repeat") ? repeat(file, where + ".repeat", run.get("repeat"), profile, 1) : null;
            Boolean interleave = run.has("interleave") ? fields.bool("interleave", false) : null;
            entries.add(new Entry(
                    drivers,
                    paths,
                    fields.text("name", null),
                    repeat,
                    interleave,
                    brokerRelease(fields),
                    WorkloadLoader.transactionVersion(fields),
                    clientRelease(fields),
                    run.has("brokers") ? fields.wholeNumber("brokers", 1, 1, ClusterSystem.MAX_EMBEDDED_BROKERS) : null,
                    brokerProfile(fields),
                    profiles(file, where + ".profiles", run.get("profiles")),
                    run.has("brokerSystem")
                            ? fields.choice("brokerSystem", EmbeddedSystem.class, EmbeddedSystem.KAFKA)
                            : null));
        }
        return entries;
    }

    /** An entry's {@code brokerVersion} as a release the installed broker system knows, or null when not given. */
    private static String brokerRelease(ConfigFields fields) {
        String text = WorkloadLoader.brokerVersion(fields);
        try {
            return text == null ? null : ClusterSystems.installed().release(text);
        } catch (IllegalArgumentException e) {
            throw fields.error("brokerVersion", e.getMessage());
        }
    }

    /** An entry's {@code clientVersion} as a release the installed broker system knows, or null when not given. */
    private static String clientRelease(ConfigFields fields) {
        String text = BrokerSetup.clientVersion(fields);
        try {
            return text == null ? null : ClusterSystems.installed().clientRelease(text);
        } catch (IllegalArgumentException e) {
            throw fields.error("clientVersion", e.getMessage());
        }
    }

    /** An entry's {@code profiles}: a list of profile names, or null (absent: every profile). */
    private static List<String> profiles(String file, String key, JsonNode value) {
        if (value == null) {
            return null;
        }
        if (!value.isArray() || value.isEmpty()) {
            throw new ConfigException(
                    file,
                    key,
                    "expected a list of the profiles the entry runs in, e.g. [full], got " + ConfigFields.show(value));
        }
        List<String> names = new ArrayList<>();
        for (JsonNode name : value) {
            if (!name.isTextual() || name.asText().isBlank()) {
                throw new ConfigException(file, key, "expected profile names, got " + ConfigFields.show(name));
            }
            names.add(name.asText().trim());
        }
        return List.copyOf(names);
    }

    private static ClusterProfile brokerProfile(ConfigFields fields) {
        if (!fields.has("brokerProfile")) {
            return null;
        }
        try {
            return ClusterProfile.parse(fields.text("brokerProfile", null));
        } catch (IllegalArgumentException e) {
            throw fields.error("brokerProfile", e.getMessage());
        }
    }

    /**
     * A repeat setting: a whole number, or one per profile ({@code {quick: 2, full: 5}}, a profile it does not name
     * repeating once). Checked whichever profile runs.
     */
    static int repeat(String file, String key, JsonNode value, String profile, int fallback) {
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (value.isObject()) {
            int chosen = fallback;
            for (var it = value.fields(); it.hasNext(); ) {
                var e = it.next();
                int n = wholeRepeat(file, key + "." + e.getKey(), e.getValue());
                if (e.getKey().equals(profile)) {
                    chosen = n;
                }
            }
            return chosen;
        }
        return wholeRepeat(file, key, value);
    }

    /**
     * A yes/no suite setting: true or false, or one per profile ({@code {verdict: true}}, a profile it does not name
     * taking false). Checked whichever profile runs.
     */
    static boolean flag(String file, String key, JsonNode value, String profile) {
        if (value == null || value.isNull()) {
            return false;
        }
        if (value.isObject()) {
            boolean chosen = false;
            for (var it = value.fields(); it.hasNext(); ) {
                var e = it.next();
                boolean b = oneFlag(file, key + "." + e.getKey(), e.getValue());
                if (e.getKey().equals(profile)) {
                    chosen = b;
                }
            }
            return chosen;
        }
        return oneFlag(file, key, value);
    }

    private static boolean oneFlag(String file, String key, JsonNode value) {
        if (!value.isBoolean()) {
            throw new ConfigException(
                    file,
                    key,
                    "expected true or false (or one per profile, e.g. {verdict: true}), got "
                            + ConfigFields.show(value));
        }
        return value.asBoolean();
    }

    private static int wholeRepeat(String file, String key, JsonNode value) {
        if (!value.canConvertToInt()
                || !value.isIntegralNumber()
                || value.asInt() < 1
                || value.asInt() > Repetitions.MAX) {
            throw new ConfigException(
                    file,
                    key,
                    "expected a whole number of runs from 1 to " + Repetitions.MAX
                            + " (or one per profile, e.g. {quick: 2, full: 5}), got " + ConfigFields.show(value));
        }
        return value.asInt();
    }

    private static Path existing(String file, String key, Path home, String path) {
        if (path == null || path.isBlank()) {
            throw new ConfigException(file, key, "required: a file path");
        }
        Path resolved = Path.of(path).isAbsolute() ? Path.of(path) : home.resolve(path);
        if (!Files.isRegularFile(resolved)) {
            throw new ConfigException(file, key, "no such file: " + path);
        }
        return resolved;
    }

    private static void check(String file, String prefix, JsonNode node, List<String> known) {
        new ConfigFields(file, node, prefix).onlyKeys(known);
    }
}

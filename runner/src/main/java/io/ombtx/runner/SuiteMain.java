package io.ombtx.runner;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.driver.api.KeySuggestions;
import io.ombtx.runner.cli.UsageException;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.YamlFiles;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * {@code bin/benchmark-suite}: runs every (driver, workloads) entry of a suite file with one profile, each result
 * in its own file under one results folder, through the same code path as {@code bin/benchmark}.
 */
public final class SuiteMain {

    static final String USAGE = """
            Usage: bin/benchmark-suite [--profile quick|full] [-o DIR] [--dry-run] [--report-interval S] SUITE.yaml

            Runs a suite: a file listing driver YAMLs and the workloads to run with each (see suites/).
              --profile NAME        workload profile: quick (short counts, minutes in all) or full (the seeds'
                                    counts); default: the suite's 'profile', else full
              -o, --output DIR      results folder (default results/<suite>-<profile>-<UTC time>/)
              --dry-run             print the whole plan and exit
              --report-interval S   progress line interval in seconds
              -h, --help            this text
            Paths in a suite are relative to the omb-tx folder. Exit codes as bin/benchmark.
            """;

    private static final List<String> SUITE_KEYS = List.of("name", "description", "profile", "runs");
    private static final List<String> RUN_KEYS = List.of("driver", "workloads");

    private SuiteMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    record Entry(Path driver, List<Path> workloads) {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            String profile = null;
            Path output = null;
            boolean dryRun = false;
            String interval = null;
            Path suiteFile = null;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--profile" -> profile = next(args, ++i, "--profile");
                    case "-o", "--output" -> output = Path.of(next(args, ++i, args[i - 1]));
                    case "--dry-run" -> dryRun = true;
                    case "--report-interval" -> interval = next(args, ++i, "--report-interval");
                    case "-h", "--help" -> {
                        out.print(USAGE);
                        return Main.OK;
                    }
                    default -> {
                        if (args[i].startsWith("-") || suiteFile != null) {
                            throw new UsageException("unexpected argument " + args[i] + " (see --help)");
                        }
                        suiteFile = Path.of(args[i]);
                    }
                }
            }
            if (suiteFile == null) {
                throw new UsageException("missing SUITE.yaml (see --help)");
            }
            JsonNode suite = YamlFiles.read(suiteFile);
            String name = suite.path("name").asText(suiteFile.getFileName().toString().replaceFirst("\\.ya?ml$", ""));
            profile = profile != null ? profile : suite.path("profile").asText("full");
            List<Entry> entries = entries(suiteFile, suite);
            if (output == null) {
                String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
                output = Path.of("results", name + "-" + profile + "-" + stamp);
            }
            int status = Main.OK;
            for (Entry entry : entries) {
                List<String> runArgs = new ArrayList<>(List.of("-d", entry.driver().toString(), "--profile", profile,
                        "-o", output.toString()));
                if (dryRun) {
                    runArgs.add("--dry-run");
                }
                if (interval != null) {
                    runArgs.addAll(List.of("--report-interval", interval));
                }
                entry.workloads().forEach(w -> runArgs.add(w.toString()));
                int code = Main.run(runArgs.toArray(String[]::new), out, err);
                if (code == Main.BAD_INPUT || code == Main.INTERRUPTED) {
                    return code;
                }
                status = Math.max(status, code);
            }
            if (!dryRun) {
                out.println("Suite " + name + " (" + profile + ") done: results in " + output);
            }
            return status;
        } catch (ConfigException | UsageException e) {
            err.println("error: " + e.getMessage());
            return Main.BAD_INPUT;
        }
    }

    private static List<Entry> entries(Path suiteFile, JsonNode suite) {
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
            Path driver = existing(file, where + ".driver", home, run.path("driver").asText(null));
            JsonNode workloads = run.get("workloads");
            if (workloads == null || !workloads.isArray() || workloads.isEmpty()) {
                throw new ConfigException(file, where + ".workloads", "expected a list of workload files");
            }
            List<Path> paths = new ArrayList<>();
            for (JsonNode w : workloads) {
                paths.add(existing(file, where + ".workloads", home, w.asText()));
            }
            entries.add(new Entry(driver, paths));
        }
        return entries;
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
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!known.contains(key)) {
                throw new ConfigException(file, prefix.isEmpty() ? key : prefix + "." + key, KeySuggestions.unknownKey(key, known));
            }
        }
    }

    private static String next(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new UsageException(flag + " needs a value");
        }
        return args[i];
    }
}

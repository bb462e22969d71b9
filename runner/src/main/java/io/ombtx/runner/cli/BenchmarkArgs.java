package io.ombtx.runner.cli;

import io.ombtx.broker.BrokerProfile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code bin/benchmark}'s arguments: OMB's flags, plus omb-tx's. */
public record BenchmarkArgs(
        List<Path> drivers,
        List<String> workers,
        Path workersFile,
        Path output,
        boolean extraConsumers,
        List<Path> workloads,
        String profile,
        boolean dryRun,
        Integer brokers,
        BrokerProfile brokerProfile,
        Map<String, String> brokerSettings,
        Integer reportingIntervalSeconds,
        int workerTimeoutSeconds,
        boolean quiet,
        boolean help) {

    public static final String USAGE = """
            Usage: bin/benchmark [options] WORKLOAD.yaml...

            Runs each workload against each driver and writes one result JSON per run. With no bootstrap
            servers in a driver's commonConfig (or bootstrap.servers=embedded), a real Apache Kafka broker is
            started on loopback for the run and removed afterwards.

            OMB options:
              -d, --drivers FILE[,FILE...]   driver YAML files (required), e.g. driver-kafka-tx/kafka-tx.yaml
              -w, --workers URL[,URL...]     run on remote bin/benchmark-worker processes (http://host:8080);
                                             the first half produce, the rest consume
              -wf, --workers-file FILE       YAML file with a 'workers:' list of URLs, instead of -w
              -o, --output PATH              result file (a single run) or folder (default: results/);
                                             an existing file is never overwritten
              --worker-timeout SECONDS       how long to wait for a worker's answer before ending the run
                                             with an error and a partial result (default 120)
              -x, --extra                    accepted for OMB compatibility; has no effect here

            omb-tx options:
              --profile NAME                 apply the workloads' 'profiles: NAME:' overrides (quick, full)
              --dry-run                      print the expanded plan (sweeps included) and exit; touches no broker
              --brokers N                    embedded broker count (default: what workload and driver need)
              --broker-profile NAME          embedded broker settings: default | max-consistency
              --broker-config KEY=VALUE      embedded broker setting, repeatable (e.g.
                                             group.coordinator.append.linger.ms=1)
              --report-interval SECONDS      progress line interval (default: the workload's, else 10)
              -q, --quiet                    print nothing but errors
              -h, --help                     this text

            Exit codes: 0 done; 1 a run failed or ended early (its partial result is still written);
            2 bad input (file, key and expectation are named); 130 interrupted (partial result written).
            """;

    public static BenchmarkArgs parse(String[] args) {
        List<Path> drivers = new ArrayList<>();
        List<String> workers = new ArrayList<>();
        Path workersFile = null;
        Path output = null;
        boolean extra = false;
        List<Path> workloads = new ArrayList<>();
        String profile = null;
        boolean dryRun = false;
        Integer brokers = null;
        BrokerProfile brokerProfile = null;
        Map<String, String> brokerSettings = new LinkedHashMap<>();
        Integer interval = null;
        int workerTimeout = 120;
        boolean quiet = false;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "-d", "--drivers" -> split(value(args, ++i, arg)).forEach(d -> drivers.add(Path.of(d)));
                case "-w", "--workers" -> workers.addAll(split(value(args, ++i, arg)));
                case "-wf", "--workers-file" -> workersFile = Path.of(value(args, ++i, arg));
                case "-o", "--output" -> output = Path.of(value(args, ++i, arg));
                case "-x", "--extra" -> extra = true;
                case "--profile" -> profile = value(args, ++i, arg);
                case "--dry-run" -> dryRun = true;
                case "--brokers" -> brokers = positive(value(args, ++i, arg), arg, 9);
                case "--broker-profile" -> {
                    try {
                        brokerProfile = BrokerProfile.parse(value(args, ++i, arg));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--broker-profile: " + e.getMessage());
                    }
                }
                case "--broker-config" -> {
                    String setting = value(args, ++i, arg);
                    int eq = setting.indexOf('=');
                    if (eq <= 0) {
                        throw new UsageException("--broker-config expects KEY=VALUE, got '" + setting + "'");
                    }
                    brokerSettings.put(setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
                }
                case "--report-interval" -> interval = positive(value(args, ++i, arg), arg, 3600);
                case "--worker-timeout" -> workerTimeout = positive(value(args, ++i, arg), arg, 86_400);
                case "-q", "--quiet" -> quiet = true;
                case "-h", "--help" -> help = true;
                default -> {
                    if (arg.startsWith("-")) {
                        throw new UsageException("unknown option " + arg + " (see --help)");
                    }
                    workloads.add(Path.of(arg));
                }
            }
        }
        if (!help) {
            if (drivers.isEmpty()) {
                throw new UsageException("missing -d/--drivers: which driver YAML(s) to run (see --help)");
            }
            if (workloads.isEmpty()) {
                throw new UsageException("missing workload file(s): give one or more WORKLOAD.yaml (see --help)");
            }
            if (!workers.isEmpty() && workersFile != null) {
                throw new UsageException("give -w/--workers or -wf/--workers-file, not both");
            }
        }
        return new BenchmarkArgs(drivers, workers, workersFile, output, extra, workloads, profile, dryRun, brokers,
                brokerProfile, brokerSettings, interval, workerTimeout, quiet, help);
    }

    private static String value(String[] args, int index, String flag) {
        if (index >= args.length || args[index].startsWith("-") && args[index].length() > 1 && !args[index].matches("-\\d.*")) {
            throw new UsageException(flag + " needs a value (see --help)");
        }
        return args[index];
    }

    private static Integer positive(String text, String flag, int max) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value < 1 || value > max) {
                throw new UsageException(flag + " expects a whole number from 1 to " + max + ", got " + text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " expects a whole number, got '" + text + "'");
        }
    }

    private static List<String> split(String list) {
        List<String> items = new ArrayList<>();
        for (String item : list.split(",")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }
}

package io.ombtx.runner.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options bin/benchmark and bin/benchmark-suite share (a picocli mixin): where results go, which workers run
 * the load, the profile, the embedded broker and the console. The OMB ones are listed with the command's own
 * options; the omb-tx ones and the broker's in help sections of their own (see {@link Cli#OMB_TX_SECTION}).
 */
public class CommonOptions {

    @Option(names = {"-w", "--workers"}, split = ",", paramLabel = "URL", order = 10,
            description = "remote workers, e.g. http://host:8080 (bin/benchmark-worker or stock OMB's); as in"
                    + " OMB the first half produce, the rest consume")
    List<String> workers = new ArrayList<>();

    @Option(names = {"-wf", "--workers-file"}, paramLabel = "FILE", order = 11,
            description = "YAML file with a 'workers:' list of URLs, instead of -w")
    Path workersFile;

    @Option(names = {"-o", "--output"}, paramLabel = "PATH", order = 12,
            description = "result file (a single run) or folder (default: results/); an existing file is never"
                    + " overwritten")
    Path output;

    @Option(names = {"-x", "--extra"}, order = 13,
            description = "allocate extra consumer workers (OMB's meaning: of the distributed workers, more consume"
                    + " than produce, so a backlog drains faster)")
    boolean extraConsumers;

    @Option(names = "--worker-timeout", paramLabel = "SECONDS", converter = Converters.TimeoutSeconds.class,
            order = 14, description = "how long to wait for a worker's answer before ending the run with an error"
                    + " and a partial result (default: ${DEFAULT-VALUE})")
    int workerTimeoutSeconds = 120;

    @Option(names = "--profile", paramLabel = "NAME", order = Cli.OMB_TX_SECTION,
            description = "apply the workloads' 'profiles: NAME:' overrides: quick (short counts, minutes in all) or"
                    + " full (the seeds' counts)")
    String profile;

    @Option(names = "--dry-run", order = Cli.OMB_TX_SECTION + 1,
            description = "print the expanded plan (sweeps included) and exit; touches no broker")
    boolean dryRun;

    @Option(names = "--report-interval", paramLabel = "SECONDS", converter = Converters.ReportSeconds.class,
            order = Cli.OMB_TX_SECTION + 2, description = "progress line interval (default: the workload's, else 10)")
    Integer reportingIntervalSeconds;

    @Option(names = {"-q", "--quiet"}, order = Cli.OMB_TX_SECTION + 3, description = "print nothing but errors")
    boolean quiet;

    @Mixin
    BrokerOptions broker = new BrokerOptions();

    public List<String> workers() {
        return nonBlank(workers);
    }

    public Path workersFile() {
        return workersFile;
    }

    public Path output() {
        return output;
    }

    public boolean extraConsumers() {
        return extraConsumers;
    }

    public int workerTimeoutSeconds() {
        return workerTimeoutSeconds;
    }

    public String profile() {
        return profile;
    }

    public boolean dryRun() {
        return dryRun;
    }

    public Integer reportingIntervalSeconds() {
        return reportingIntervalSeconds;
    }

    public boolean quiet() {
        return quiet;
    }

    public BrokerOptions broker() {
        return broker;
    }

    /** Checks what picocli does not: -w and -wf together. */
    public void validate() {
        if (!workers().isEmpty() && workersFile != null) {
            throw new UsageException("give -w/--workers or -wf/--workers-file, not both");
        }
    }

    /**
     * The typed arguments of one bin/benchmark invocation: these options, with the given drivers and workloads
     * and, where not null, {@code profile} and {@code output} in place of the options'.
     */
    public BenchmarkArgs toArgs(List<Path> drivers, List<Path> workloads, String profile, Path output, boolean help) {
        return new BenchmarkArgs(List.copyOf(drivers), workers(), workersFile, output != null ? output : this.output,
                extraConsumers, List.copyOf(workloads), profile != null ? profile : profile(), dryRun(),
                broker().brokers(), broker().profile(), broker().settings(), reportingIntervalSeconds(),
                workerTimeoutSeconds, quiet(), help);
    }

    static List<String> nonBlank(List<String> items) {
        List<String> kept = new ArrayList<>();
        for (String item : items) {
            if (!item.isBlank()) {
                kept.add(item.trim());
            }
        }
        return List.copyOf(kept);
    }
}

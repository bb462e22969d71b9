package io.ombtx.runner.cli;

import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.worker.WorkerToken;
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
public class CommonOptions implements Cli.Validated {

    @Option(
            names = {"-w", "--workers"},
            split = ",",
            paramLabel = "URL",
            order = 10,
            description = "remote workers, e.g. http://host:8080 (bin/benchmark-worker or stock OMB's); as in"
                    + " OMB the first half produce, the rest consume")
    List<String> workers = new ArrayList<>();

    @Option(
            names = {"-wf", "--workers-file"},
            paramLabel = "FILE",
            order = 11,
            description = "YAML file with a 'workers:' list of URLs, instead of -w")
    Path workersFile;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "PATH",
            order = 12,
            description = "result file (a single run; one that exists is exit 2) or folder (default: results/;"
                    + " each run gets a new name there)")
    Path output;

    @Option(
            names = {"-x", "--extra"},
            order = 13,
            description = "allocate extra consumer workers (OMB's meaning: of the distributed workers, more consume"
                    + " than produce, so a backlog drains faster)")
    boolean extraConsumers;

    @Option(
            names = "--worker-timeout",
            paramLabel = "SECONDS",
            converter = Converters.WholeNumber.class,
            order = 14,
            description = "how long to wait for a worker's answer before ending the run with an error"
                    + " and a partial result (default: ${DEFAULT-VALUE})")
    @Converters.Bounds(min = 1, max = 86_400)
    int workerTimeoutSeconds = 120;

    @Option(
            names = "--token-file",
            paramLabel = "FILE",
            order = 15,
            description = "a file holding the token the workers were started with (bin/benchmark-worker"
                    + " --token-file), sent with every request to them (default: the environment variable "
                    + WorkerToken.ENV + ", if set)")
    Path tokenFile;

    /** The token read by {@link #validate()}; null: none. */
    private WorkerToken workerToken;

    @Option(
            names = "--teardown-timeout",
            paramLabel = "SECONDS",
            converter = Converters.WholeNumber.class,
            order = Cli.OMB_TX_SECTION + 4,
            description = "once a run ends early (stall, worker failure, Ctrl-C), how"
                    + " long stopping, the last figures and closing may take in all; a step still running then is"
                    + " abandoned and named in the partial result (default: ${DEFAULT-VALUE})")
    @Converters.Bounds(min = 1, max = 86_400)
    int teardownTimeoutSeconds = 30;

    @Option(
            names = "--fault-command",
            paramLabel = "TEMPLATE",
            order = Cli.OMB_TX_SECTION + 5,
            description = "how a workload's faults reach an external cluster's brokers: a command run with /bin/sh -c"
                    + " for each action, with {action} (kill, pause, resume, stop, restart), {host}, {port} and"
                    + " {broker} (node id) filled in, e.g. 'ssh {host} sudo /usr/local/bin/omb-tx-fault {action}'"
                    + " (the deploy playbook installs omb-tx-fault); embedded brokers need none")
    String faultCommand;

    @Option(
            names = "--profile",
            paramLabel = "NAME",
            order = Cli.OMB_TX_SECTION,
            description = "apply the workloads' 'profiles: NAME:' overrides: quick (short counts, minutes in all) or"
                    + " full (the seeds' counts)")
    String profile;

    @Option(
            names = "--dry-run",
            order = Cli.OMB_TX_SECTION + 1,
            description = "print the expanded plan (sweeps included) and exit; touches no broker")
    boolean dryRun;

    @Option(
            names = "--report-interval",
            paramLabel = "SECONDS",
            converter = Converters.WholeNumber.class,
            order = Cli.OMB_TX_SECTION + 2,
            description = "progress line interval (default: the workload's, else 10)")
    @Converters.Bounds(min = 1, max = 3600)
    Integer reportingIntervalSeconds;

    @Option(
            names = "--repeat",
            paramLabel = "N",
            converter = Converters.WholeNumber.class,
            order = Cli.OMB_TX_SECTION + 5,
            description = "run each (driver, workload) N times, each on a fresh"
                    + " embedded broker (fresh topics on a cluster); the results share a group id and say which"
                    + " repetition they are (default: 1, or a suite's 'repeat')")
    @Converters.Bounds(min = 1, max = 1000)
    Integer repeat;

    @Option(
            names = "--interleave",
            order = Cli.OMB_TX_SECTION + 6,
            description = "with --repeat: alternate the"
                    + " runs of the comparison (A B A B ...) instead of A A B B, so drift hits every side alike; they then"
                    + " share one group id")
    boolean interleave;

    @Option(
            names = "--reuse-brokers",
            order = Cli.OMB_TX_SECTION + 7,
            description = "runs in a row on the same embedded cluster (release, brokers, profile, settings) and"
                    + " without faults share one, started once; each run keeps its own topics and transactional ids"
                    + " (default: a fresh cluster per run, or a suite's 'reuseBrokers')")
    boolean reuseBrokers;

    @Option(
            names = {"-q", "--quiet"},
            order = Cli.OMB_TX_SECTION + 3,
            description = "print nothing but errors (a run that exits 1 says why in one line on the error stream)")
    boolean quiet;

    @Mixin
    BrokerOptions broker = new BrokerOptions();

    /** Checks what picocli does not: -w and -wf together. */
    @Override
    public void validate() {
        if (!nonBlank(workers).isEmpty() && workersFile != null) {
            throw new UsageException("give -w/--workers or -wf/--workers-file, not both");
        }
        if (faultCommand != null) {
            io.ombtx.runner.fault.FaultCommand.problem(faultCommand).ifPresent(problem -> {
                throw new UsageException("--fault-command: " + problem);
            });
        }
        try {
            workerToken = WorkerToken.resolve(tokenFile, System.getenv()).orElse(null);
        } catch (IllegalArgumentException e) {
            throw new UsageException((tokenFile != null ? "--token-file " : "") + e.getMessage());
        }
    }

    /**
     * How these options are read (they have no getters of their own): the typed arguments of one bin/benchmark
     * invocation, with the given drivers and workloads and, where not null, {@code profile} and {@code output} in
     * place of the options'.
     */
    public BenchmarkArgs toArgs(List<Path> drivers, List<Path> workloads, String profile, Path output, boolean help) {
        return new BenchmarkArgs(
                List.copyOf(drivers),
                nonBlank(workers),
                workersFile,
                output != null ? output : this.output,
                extraConsumers,
                List.copyOf(workloads),
                profile != null ? profile : this.profile,
                dryRun,
                broker.brokers(),
                broker.profile(),
                broker.settings(),
                reportingIntervalSeconds,
                workerTimeoutSeconds,
                teardownTimeoutSeconds,
                faultCommand,
                quiet,
                help,
                broker.brokerVersion(),
                broker.transactionVersion(),
                broker.clientVersion(),
                repeat == null ? 1 : repeat,
                interleave,
                null,
                reuseBrokers,
                broker.system(),
                null,
                broker.security(),
                workerToken);
    }

    /** --repeat as given, null when absent (a suite's own setting then applies). */
    public Integer repeatGiven() {
        return repeat;
    }

    /** Whether --reuse-brokers was given. */
    public boolean reuseBrokersGiven() {
        return reuseBrokers;
    }

    /** Whether --interleave was given. */
    public boolean interleaveGiven() {
        return interleave;
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

package io.ombtx.runner.cli;

import io.ombtx.broker.BrokerProfile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/benchmark}'s arguments, typed: OMB's flags plus omb-tx's. Parsed by {@link BenchmarkCommand};
 * bin/benchmark-suite builds one per suite entry from the same {@link CommonOptions}.
 *
 * @param extraConsumers OMB's {@code -x/--extra}: allocate more of the distributed workers to consumers
 * @param workerTimeoutSeconds how long to wait for a worker's answer
 * @param teardownTimeoutSeconds the deadline shared by the steps left once a run ends early
 * @param faultCommand the template that injects faults into an external cluster, or null
 */
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
        int teardownTimeoutSeconds,
        String faultCommand,
        boolean quiet,
        boolean help) {

    /** The generated {@code --help} text. */
    public static final String USAGE = Cli.usage(new BenchmarkCommand());

    /**
     * Reads {@code bin/benchmark}'s command line.
     *
     * @throws UsageException one line naming the option and what was expected
     */
    public static BenchmarkArgs parse(String[] args) {
        BenchmarkCommand command = new BenchmarkCommand();
        return command.toArgs(Cli.parse(command, args));
    }
}

package io.ombtx.runner.cli;

import io.ombtx.runner.config.ClusterProfile;
import io.ombtx.runner.config.EmbeddedSystem;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.worker.WorkerToken;
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
 * @param brokerVersion the embedded broker's Kafka release (null: the workload's, else the default)
 * @param transactionVersion Kafka 4.x's transaction.version for the embedded broker (null: the workload's, else
 *        the broker's default)
 * @param clientVersion the client release the local worker's drivers run on (null: the workload's, else the
 *        built-in client)
 * @param repeat runs of each (driver, workload), each on a fresh embedded broker or fresh topics
 * @param interleave alternate the runs of the comparison in each round (A B A B) instead of A A B B
 * @param comparison a name for the comparison these runs make (a suite entry's), recorded in each result and
 *     leading its group id; null for none
 * @param reuseBrokers runs in a row on the same embedded cluster, without faults, share one started once
 *     ({@code --reuse-brokers})
 * @param brokerSystem the embedded broker system ({@code --broker-system}, or a suite entry's; null: the workload's,
 *     else Kafka)
 * @param brokerSystemSource where a suite entry chose {@code brokerSystem} ("FILE", "runs[N].brokerSystem"), null
 *     when the command line did (or nothing)
 * @param brokerSecurity the embedded cluster's security ({@code --broker-security}; null: the workload's, else
 *     none)
 * @param workerToken the token sent to remote workers ({@code --token-file}, else {@code OMBTX_WORKER_TOKEN}); null
 *     for none
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
        ClusterProfile brokerProfile,
        Map<String, String> brokerSettings,
        Integer reportingIntervalSeconds,
        int workerTimeoutSeconds,
        int teardownTimeoutSeconds,
        String faultCommand,
        boolean quiet,
        boolean help,
        String brokerVersion,
        Integer transactionVersion,
        String clientVersion,
        int repeat,
        boolean interleave,
        String comparison,
        boolean reuseBrokers,
        EmbeddedSystem brokerSystem,
        List<String> brokerSystemSource,
        io.ombtx.runner.config.BrokerSecurity brokerSecurity,
        WorkerToken workerToken) {

    /** These arguments with a suite entry's repetitions, interleaving and comparison name in place of their own. */
    public BenchmarkArgs withRepetitions(int repeat, boolean interleave, String comparison) {
        Edit e = new Edit(this);
        e.repeat = repeat;
        e.interleave = interleave;
        e.comparison = comparison;
        return e.done();
    }

    /**
     * These arguments with a suite entry's set-up: the embedded broker's release and transaction version as given
     * (the caller has already let the command line win), and the client release, broker count and profile where the
     * command line leaves them open (each null: keep these arguments' own).
     */
    public BenchmarkArgs withSetup(
            String version, Integer transactions, String client, Integer brokerCount, ClusterProfile profile) {
        Edit e = new Edit(this);
        e.brokerVersion = version;
        e.transactionVersion = transactions;
        e.clientVersion = clientVersion != null ? clientVersion : client;
        e.brokers = brokers != null ? brokers : brokerCount;
        e.brokerProfile = brokerProfile != null ? brokerProfile : profile;
        return e.done();
    }

    /** These arguments with embedded clusters kept between runs ({@code reuseBrokers}) or not. */
    public BenchmarkArgs withReuseBrokers(boolean reuse) {
        Edit e = new Edit(this);
        e.reuseBrokers = reuse;
        return e.done();
    }

    /**
     * These arguments with a suite entry's embedded broker system where the command line leaves it open (null: keep
     * these arguments' own).
     */
    public BenchmarkArgs withBrokerSystem(EmbeddedSystem system, String file, String key) {
        if (brokerSystem != null || system == null) {
            return this;
        }
        Edit e = new Edit(this);
        e.brokerSystem = system;
        e.brokerSystemSource = List.of(file, key);
        return e.done();
    }

    /** A copy of the arguments to change a few of: the one place that lists every component. */
    private static final class Edit {
        private final BenchmarkArgs from;
        Integer brokers;
        ClusterProfile brokerProfile;
        String brokerVersion;
        Integer transactionVersion;
        String clientVersion;
        int repeat;
        boolean interleave;
        String comparison;
        boolean reuseBrokers;
        EmbeddedSystem brokerSystem;
        List<String> brokerSystemSource;

        Edit(BenchmarkArgs from) {
            this.from = from;
            brokers = from.brokers;
            brokerProfile = from.brokerProfile;
            brokerVersion = from.brokerVersion;
            transactionVersion = from.transactionVersion;
            clientVersion = from.clientVersion;
            repeat = from.repeat;
            interleave = from.interleave;
            comparison = from.comparison;
            reuseBrokers = from.reuseBrokers;
            brokerSystem = from.brokerSystem;
            brokerSystemSource = from.brokerSystemSource;
        }

        BenchmarkArgs done() {
            return new BenchmarkArgs(
                    from.drivers,
                    from.workers,
                    from.workersFile,
                    from.output,
                    from.extraConsumers,
                    from.workloads,
                    from.profile,
                    from.dryRun,
                    brokers,
                    brokerProfile,
                    from.brokerSettings,
                    from.reportingIntervalSeconds,
                    from.workerTimeoutSeconds,
                    from.teardownTimeoutSeconds,
                    from.faultCommand,
                    from.quiet,
                    from.help,
                    brokerVersion,
                    transactionVersion,
                    clientVersion,
                    repeat,
                    interleave,
                    comparison,
                    reuseBrokers,
                    brokerSystem,
                    brokerSystemSource,
                    from.brokerSecurity,
                    from.workerToken);
        }
    }

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

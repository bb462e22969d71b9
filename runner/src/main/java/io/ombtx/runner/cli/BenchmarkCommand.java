package io.ombtx.runner.cli;

import io.ombtx.runner.config.UsageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bin/benchmark}'s command line: OMB's flags, plus omb-tx's (picocli; read into {@link BenchmarkArgs}). */
@Command(
        name = "bin/benchmark",
        customSynopsis = "bin/benchmark -d DRIVER.yaml[,DRIVER.yaml...] [options] WORKLOAD.yaml...",
        description = "Runs each workload against each driver and writes one result JSON per run. With no bootstrap"
                + " servers in a driver's commonConfig (or bootstrap.servers=embedded), a real Apache Kafka broker is"
                + " started on loopback for the run and removed afterwards.",
        optionListHeading = "%nOMB options (same names and meaning as OMB's bin/benchmark):%n",
        footer = {
            "Exit codes: 0 done; 1 a run failed (also when every measured operation failed) or ended early (its"
                    + " result is still written); 2 bad input (file, key and expectation are named); 3 every run complete, and a broker"
                    + " guarantee a workload's conformance judged broken (a verdict on the broker); 130 interrupted"
                    + " (partial result written).",
            "",
            "Examples:",
            "  bin/benchmark -d driver-kafka-tx/kafka-tx.yaml --profile quick workloads/tx-writes.yaml",
            "  bin/benchmark -d driver-kafka-tx/kafka-tx.yaml --dry-run workloads/rps-sweep.yaml",
            "  bin/benchmark -d driver-kafka-tx/kafka-tx.yaml --broker-config group.coordinator.append.linger.ms=0 \\",
            "      workloads/base-streaming.yaml",
            "  bin/benchmark -d driver-kafka-tx/kafka-tx-tuned.yaml -w http://w1:8080,http://w2:8080 \\",
            "      workloads/tx-writes.yaml"
        })
public final class BenchmarkCommand implements Cli.Validated {

    @Parameters(
            paramLabel = "WORKLOAD.yaml",
            arity = "0..*",
            description = "workload YAML files: OMB's format plus omb-tx's fields (see workloads/)")
    List<Path> workloads = new ArrayList<>();

    @Option(
            names = {"-d", "--drivers"},
            split = ",",
            paramLabel = "FILE",
            order = 1,
            description =
                    "driver YAML files (required), e.g. driver-kafka-tx/kafka-tx.yaml; a shipped driver may also be"
                            + " named from any folder by its file name or name: (kafka-tx, redpanda-tx.yaml)")
    List<String> drivers = new ArrayList<>();

    @Mixin
    CommonOptions common = new CommonOptions();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    /** Where to serve live metrics ({@code --metrics-port}). */
    public MetricsOptions metrics() {
        return metrics;
    }

    @Override
    public void validate() {
        if (drivers().isEmpty()) {
            throw new UsageException("missing -d/--drivers: which driver YAML(s) to run (see --help)");
        }
        if (workloads.isEmpty()) {
            throw new UsageException("missing workload file(s): give one or more WORKLOAD.yaml (see --help)");
        }
    }

    List<Path> drivers() {
        return CommonOptions.nonBlank(drivers).stream().map(Path::of).toList();
    }

    /** The typed arguments; {@code help}: whether -h/--help was given ({@link Cli#parse(Object, String[])}). */
    public BenchmarkArgs toArgs(boolean help) {
        return common.toArgs(drivers(), workloads, null, null, help);
    }
}

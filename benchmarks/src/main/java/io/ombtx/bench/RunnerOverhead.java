package io.ombtx.bench;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.Converters;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/**
 * How much the runner costs and how well it keeps a target rate: at 1K, 10K and 50K msg/s it runs the omb-tx
 * runner (kafka-tx driver, plain publish) and, as the baseline, a bare kafka-clients loop at the same rate, both
 * in this JVM against the same embedded broker, and prints achieved rate, publish-delay p99 and CPU seconds per
 * million messages, with runner/baseline ratios.
 */
public final class RunnerOverhead {

    private static final int SECONDS = Integer.getInteger("bench.seconds", 20);

    /** {@code bin/bench runner-overhead [RATE...]}. */
    @Command(
            name = "bin/bench runner-overhead",
            description = "How much the runner costs and how well it keeps a target rate: at each rate it runs the"
                    + " omb-tx runner (kafka-tx driver, plain publish) and, as the baseline, a bare kafka-clients loop,"
                    + " both in this JVM against the same embedded broker, and prints achieved rate, publish-delay p99"
                    + " and CPU seconds per million messages, with runner/baseline ratios.",
            footer = {
                "Each point runs for 20 s (Java system property bench.seconds).",
                "",
                "Example:",
                "  bin/bench runner-overhead 1000 10000"
            })
    static final class Options implements Cli.Validated {
        @picocli.CommandLine.Mixin
        Bench.KeepWork keepWork = new Bench.KeepWork();

        // Strings, converted in validate(): picocli leaves a variable-arity positional it cannot convert unmatched,
        // which would read "unexpected argument" instead of what a rate must be.
        @Parameters(
                paramLabel = "RATE",
                arity = "0..*",
                description = "target rates in msg/s (default: 1000 10000 50000)")
        List<String> rates = new ArrayList<>();

        @Override
        public void validate() {
            rates();
        }

        int[] rates() {
            if (rates.isEmpty()) {
                return new int[] {1_000, 10_000, 50_000};
            }
            try {
                return rates.stream()
                        .mapToInt(new Converters.WholeNumber(1, Integer.MAX_VALUE)::convert)
                        .toArray();
            } catch (TypeConversionException e) {
                throw new UsageException("RATE " + e.getMessage());
            }
        }
    }

    private RunnerOverhead() {}

    record Figures(double achievedRate, double delayP99Micros, double cpuSecondsPerMillion) {}

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, RunnerOverhead::run);
    }

    private static int run(Options options) throws Exception {
        int[] rates = options.rates();
        PrintStream out = System.out;
        Bench bench = Bench.create();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start()) {
            DriverFile driver = bench.kafkaTx(DriverOverrides.none(), cluster);
            out.printf(
                    Locale.ROOT,
                    "Runner overhead, %d s per point, embedded Kafka %s, %d cores%n",
                    SECONDS,
                    EmbeddedKafkaCluster.brokerVersion(),
                    Runtime.getRuntime().availableProcessors());
            out.printf(
                    Locale.ROOT,
                    "%8s | %21s | %21s | %14s | %27s%n",
                    "target",
                    "achieved msg/s",
                    "delay p99 (us)",
                    "",
                    "CPU s / million msgs");
            out.printf(
                    Locale.ROOT,
                    "%8s | %10s %10s | %10s %10s | %14s | %8s %8s %9s%n",
                    "msg/s",
                    "runner",
                    "bare",
                    "runner",
                    "bare",
                    "rate ratio",
                    "runner",
                    "bare",
                    "ratio");
            for (int rate : rates) {
                Figures bare = bare(cluster.bootstrapServers(), rate);
                Figures runner = runner(bench, driver, rate);
                out.printf(
                        Locale.ROOT,
                        "%8d | %10.0f %10.0f | %10.0f %10.0f | %14.3f | %8.2f %8.2f %9.2f%n",
                        rate,
                        runner.achievedRate(),
                        bare.achievedRate(),
                        runner.delayP99Micros(),
                        bare.delayP99Micros(),
                        runner.achievedRate() / bare.achievedRate(),
                        runner.cpuSecondsPerMillion(),
                        bare.cpuSecondsPerMillion(),
                        runner.cpuSecondsPerMillion() / bare.cpuSecondsPerMillion());
            }
        }
        bench.finish(System.out, options.keepWork.keep);
        return Cli.OK;
    }

    /** The omb-tx runner end to end (plan, worker, driver, stats, result file) at {@code rate}. */
    private static Figures runner(Bench bench, DriverFile driver, int rate) throws Exception {
        long messages = (long) rate * SECONDS;
        Path file = bench.work().resolve("bench-" + rate + ".yaml");
        Path workloadFile = Files.writeString(
                file,
                String.format(
                        Locale.ROOT,
                        """
                name: runner-overhead-%d
                messageSize: 100
                subscriptionsPerTopic: 0
                producerRate: %d
                warmupMessages: %d
                measureMessages: %d
                reportingIntervalSeconds: 3600
                """,
                        rate,
                        rate,
                        rate,
                        messages));
        Workload workload = WorkloadLoader.load(workloadFile, null).get(0);
        Bench.Run run = bench.run(driver, workload);
        return new Figures(
                run.result().summary().messagesPerSecond(),
                run.result().aggregatedPublishDelayLatency().p99(),
                run.cpuNanos() / 1e9 / ((messages + rate) / 1e6));
    }

    /** The baseline: a bare paced loop over KafkaProducer.send, nothing else (no warm-up, as before). */
    private static Figures bare(String bootstrap, int rate) throws Exception {
        Properties props = new Properties();
        props.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        props.setProperty(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.setProperty(ProducerConfig.BATCH_SIZE_CONFIG, "1048576");
        BareLoop.Figures f = BareLoop.run(bootstrap, props, rate, 0, (long) rate * SECONDS);
        return new Figures(f.achievedRate(), f.delayP99Micros(), f.cpuSecondsPerMillion());
    }
}

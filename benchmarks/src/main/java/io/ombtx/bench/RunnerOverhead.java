package io.ombtx.bench;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.Converters;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.stats.Histograms;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/**
 * How much the runner costs and how well it keeps a target rate: at each rate the omb-tx runner (kafka-tx driver,
 * plain publish) and, as the baseline, a bare paced loop over {@code KafkaProducer.send}, both in this JVM against
 * the same embedded broker, alternated for N rounds: achieved rate, publish-delay p99 and CPU seconds per million
 * messages, with the ratios.
 */
public final class RunnerOverhead {

    private static final int SECONDS = Integer.getInteger("bench.seconds", 20);

    /** {@code bin/bench runner-overhead [-n N] [RATE...]}. */
    @Command(
            name = "bin/bench runner-overhead",
            description = "How much the runner costs and how well it keeps a target rate: at each rate it runs the"
                    + " omb-tx runner (kafka-tx driver, plain publish) and, as the baseline, a bare kafka-clients loop,"
                    + " both in this JVM against the same embedded broker, and prints achieved rate, publish-delay p99"
                    + " and CPU seconds per million messages, with runner/baseline ratios.",
            footer = {
                "Each run lasts 20 s (Java system property bench.seconds).",
                "",
                "Example:",
                "  bin/bench runner-overhead -n 5 10000"
            })
    static final class Options implements Cli.Validated {
        @picocli.CommandLine.Mixin
        Bench.KeepWork keepWork = new Bench.KeepWork();

        @Option(
                names = {"-n", "--rounds"},
                paramLabel = "N",
                converter = Converters.WholeNumber.class,
                description = "rounds at each rate, each running both sides (default: ${DEFAULT-VALUE})")
        @Converters.Bounds(min = 1, max = 100)
        int rounds = 1;

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
        PrintStream out = System.out;
        Bench bench = Bench.create();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start()) {
            DriverFile driver = bench.kafkaTx(cluster);
            out.printf(
                    Locale.ROOT,
                    "Runner overhead, %d round(s) of %d s per side at each rate, embedded Kafka %s, %d cores; %s%n",
                    options.rounds,
                    SECONDS,
                    EmbeddedKafkaCluster.brokerVersion(),
                    Runtime.getRuntime().availableProcessors(),
                    Bench.RATIOS);
            out.printf(
                    Locale.ROOT,
                    "%8s | %-42s | %-17s | %s%n",
                    "msg/s",
                    "achieved msg/s: runner, bare, ratio",
                    "delay p99 (us)",
                    "CPU s / million msgs: runner, bare, ratio");
            for (int rate : options.rates()) {
                List<Bench.Pair<Figures>> rounds = new ArrayList<>();
                for (int round = 1; round <= options.rounds; round++) {
                    rounds.add(Bench.round(
                            round, () -> runner(bench, driver, rate), () -> bare(cluster.bootstrapServers(), rate)));
                }
                out.printf(
                        Locale.ROOT,
                        "%8d | %8.0f %8.0f %-24s | %8.0f %8.0f | %6.2f %6.2f %s%n",
                        rate,
                        Bench.median(rounds, true, Figures::achievedRate),
                        Bench.median(rounds, false, Figures::achievedRate),
                        Bench.ratio(Bench.ratios(rounds, Figures::achievedRate)),
                        Bench.median(rounds, true, Figures::delayP99Micros),
                        Bench.median(rounds, false, Figures::delayP99Micros),
                        Bench.median(rounds, true, Figures::cpuSecondsPerMillion),
                        Bench.median(rounds, false, Figures::cpuSecondsPerMillion),
                        Bench.ratio(Bench.ratios(rounds, Figures::cpuSecondsPerMillion)));
            }
        }
        bench.finish(out, options.keepWork.keep);
        return Cli.OK;
    }

    /** The omb-tx runner end to end (plan, worker, driver, stats, result file) at {@code rate}, 1 s of warm-up. */
    private static Figures runner(Bench bench, DriverFile driver, int rate) throws Exception {
        long messages = (long) rate * SECONDS;
        Bench.Run run = bench.run(
                driver,
                bench.workload(
                        "runner-overhead-" + rate,
                        """
                        messageSize: 100
                        subscriptionsPerTopic: 0
                        producerRate: %d
                        warmupMessages: %d
                        measureMessages: %d
                        reportingIntervalSeconds: 3600
                        """
                                .formatted(rate, rate, messages)));
        return new Figures(
                run.result().summary().messagesPerSecond(),
                run.result().aggregatedPublishDelayLatency().p99(),
                run.cpuNanos() / 1e9 / ((messages + rate) / 1e6));
    }

    /**
     * The baseline: a bare paced loop over {@code KafkaProducer.send} of 100-byte messages on a fresh topic, nothing
     * else, for as many messages as the runner's measured phase. Message {@code i} is due at {@code start + i / rate};
     * the loop parks until then (as the runner's pacer does, without its last-microseconds spin) and records how late
     * the send started, the publish delay: whatever delay this loop shows, the machine imposes on any load generator.
     */
    private static Figures bare(String bootstrap, int rate) throws Exception {
        Properties props = new Properties();
        props.setProperty("bootstrap.servers", bootstrap);
        props.setProperty("acks", "all");
        props.setProperty("linger.ms", "0");
        props.setProperty("batch.size", "1048576");
        String topic = "bare-" + rate + "-" + System.nanoTime();
        Bench.createTopic(bootstrap, topic, 1, (short) 1);
        long messages = (long) rate * SECONDS;
        long interval = 1_000_000_000L / rate;
        byte[] payload = new byte[100];
        Histogram delays = Histograms.create();
        AtomicLong acked = new AtomicLong();
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, payload)).get();
            long cpuBefore = Bench.cpuNanos();
            long start = System.nanoTime();
            for (long i = 0; i < messages; i++) {
                long intended = start + i * interval;
                Bench.parkUntil(intended);
                delays.recordValue(Histograms.clamp((System.nanoTime() - intended) / 1000));
                producer.send(new ProducerRecord<>(topic, payload), (m, e) -> acked.incrementAndGet());
            }
            producer.flush();
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Figures(
                    acked.get() / seconds,
                    delays.getValueAtPercentile(99),
                    (Bench.cpuNanos() - cpuBefore) / 1e9 / (messages / 1e6));
        }
    }
}

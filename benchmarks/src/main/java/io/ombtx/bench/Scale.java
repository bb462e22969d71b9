package io.ombtx.bench;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.Converters;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.result.RunResult;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/**
 * Transactions at scale against the same load written bare: N transactional producers publishing together at one
 * total rate, each committing its transaction 100 ms after its begin, through the omb-tx runner (a transactional
 * PUBLISH of N producers) and as N threads on kafka-clients (begin, paced sends, commit), alternated for N rounds on one
 * embedded broker; printed with omb-tx ÷ bare for the achieved rate, the transaction's p50 and p99 (begin to the
 * commit's return) and the CPU time per committed transaction.
 */
public final class Scale {

    private static final int WARMUP_SECONDS = Integer.getInteger("bench.warmupSeconds", 10);
    private static final int SECONDS = Integer.getInteger("bench.seconds", 30);
    /** Kafka Streams' exactly-once commit interval, and omb-tx's default for a transactional PUBLISH. */
    static final long COMMIT_INTERVAL_MS = 100;

    /** {@code bin/bench scale [--rate R] [N...]}. */
    @Command(
            name = "bin/bench scale",
            description = "Transactions at scale against the same load written bare on kafka-clients: N transactional"
                    + " producers at one total rate, each committing 100 ms after its begin, through the omb-tx runner"
                    + " and as N bare threads, on one embedded broker; prints omb-tx ÷ bare for the achieved rate, the"
                    + " transaction's p50 and p99 and the CPU time per committed transaction.",
            footer = {
                "Each side warms up for 10 s and measures for 30 s (Java system properties bench.warmupSeconds,"
                        + " bench.seconds).",
                "",
                "Example:",
                "  bin/bench scale --rate 2000 10 100 1000"
            })
    static final class Options implements Cli.Validated {
        @picocli.CommandLine.Mixin
        Bench.KeepWork keepWork = new Bench.KeepWork();

        @Option(
                names = {"-n", "--rounds"},
                paramLabel = "N",
                converter = Converters.WholeNumber.class,
                description = "rounds at each N, each running both sides (default: ${DEFAULT-VALUE})")
        @Converters.Bounds(min = 1, max = 100)
        int rounds = 1;

        @Option(
                names = "--rate",
                paramLabel = "MSG/S",
                description = "the total rate of all producers, msg/s (default: 2000, which one broker on two cores"
                        + " holds with a thousand producers)")
        String rate = "2000";

        @Parameters(paramLabel = "N", arity = "0..*", description = "numbers of producers (default: 10 100 1000)")
        List<String> counts = new ArrayList<>();

        @Override
        public void validate() {
            counts();
            rate();
        }

        int rate() {
            try {
                return new Converters.WholeNumber(1, 10_000_000).convert(rate);
            } catch (TypeConversionException e) {
                throw new UsageException("--rate " + e.getMessage());
            }
        }

        int[] counts() {
            if (counts.isEmpty()) {
                return new int[] {10, 100, 1_000};
            }
            try {
                return counts.stream()
                        .mapToInt(new Converters.WholeNumber(1, 10_000)::convert)
                        .toArray();
            } catch (TypeConversionException e) {
                throw new UsageException("N " + e.getMessage());
            }
        }
    }

    private Scale() {}

    /** One side's figures: msg/s committed, transaction latency (ms), CPU ms per committed transaction. */
    record Figures(double rate, double p50Millis, double p99Millis, double committed, double cpuMillisPerTransaction) {}

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, Scale::run);
    }

    private static int run(Options options) throws Exception {
        int rate = options.rate();
        PrintStream out = System.out;
        Bench bench = Bench.create();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start()) {
            DriverFile driver = bench.kafkaTx(cluster);
            out.printf(
                    Locale.ROOT,
                    "Transactions at scale: %d msg/s in all, commit %d ms after each begin, %d round(s) of %d s warm-up"
                            + " + %d s per side, embedded Kafka %s, %d cores; %s%n",
                    rate,
                    COMMIT_INTERVAL_MS,
                    options.rounds,
                    WARMUP_SECONDS,
                    SECONDS,
                    EmbeddedKafkaCluster.brokerVersion(),
                    Runtime.getRuntime().availableProcessors(),
                    Bench.RATIOS);
            out.printf(
                    Locale.ROOT,
                    "%6s | %-15s %-8s | %-15s %-8s | %-15s %-8s | %-15s %-8s | %s%n",
                    "N",
                    "msg/s omb, bare",
                    "ratio",
                    "tx p50 (ms)",
                    "ratio",
                    "tx p99 (ms)",
                    "ratio",
                    "CPU ms / tx",
                    "ratio",
                    "committed");
            for (int producers : options.counts()) {
                List<Bench.Pair<Figures>> rounds = new ArrayList<>();
                for (int round = 1; round <= options.rounds; round++) {
                    rounds.add(Bench.round(
                            round,
                            () -> ombTx(bench, driver, producers, rate),
                            () -> bare(cluster.bootstrapServers(), producers, rate)));
                }
                out.printf(
                        Locale.ROOT,
                        "%6d | %7.0f %7.0f %-8s | %7.1f %7.1f %-8s | %7.1f %7.1f %-8s | %7.3f %7.3f %-8s | %.0f / %.0f%n",
                        producers,
                        Bench.median(rounds, true, Figures::rate),
                        Bench.median(rounds, false, Figures::rate),
                        Bench.ratio(Bench.ratios(rounds, Figures::rate)),
                        Bench.median(rounds, true, Figures::p50Millis),
                        Bench.median(rounds, false, Figures::p50Millis),
                        Bench.ratio(Bench.ratios(rounds, Figures::p50Millis)),
                        Bench.median(rounds, true, Figures::p99Millis),
                        Bench.median(rounds, false, Figures::p99Millis),
                        Bench.ratio(Bench.ratios(rounds, Figures::p99Millis)),
                        Bench.median(rounds, true, Figures::cpuMillisPerTransaction),
                        Bench.median(rounds, false, Figures::cpuMillisPerTransaction),
                        Bench.ratio(Bench.ratios(rounds, Figures::cpuMillisPerTransaction)),
                        Bench.median(rounds, true, Figures::committed),
                        Bench.median(rounds, false, Figures::committed));
            }
        }
        out.println("Aim: omb-tx at >= 0.95 of the bare rate, at <= 1.1 of its CPU per committed transaction.");
        bench.finish(out, options.keepWork.keep);
        return Cli.OK;
    }

    /**
     * The omb-tx runner end to end: a transactional PUBLISH of {@code producers} producers at {@code rate}. Its CPU
     * time covers the whole run (producers made, warm-up, measurement, close), per committed transaction of the
     * whole run, estimated from the measured ones by the run's length; the bare side counts the same way.
     */
    private static Figures ombTx(Bench bench, DriverFile driver, int producers, int rate) throws Exception {
        Bench.Run run = bench.run(
                driver,
                bench.workload(
                        "scale-" + producers,
                        """
                        partitionsPerTopic: 16
                        messageSize: 100
                        producersPerTopic: %d
                        subscriptionsPerTopic: 0
                        producerRate: %d
                        operation: {kind: PUBLISH, transactional: true, commitIntervalMs: %d}
                        warmupDurationSeconds: %d
                        testDurationSeconds: %d
                        """
                                .formatted(producers, rate, COMMIT_INTERVAL_MS, WARMUP_SECONDS, SECONDS)));
        RunResult r = run.result();
        long committed = r.counts().committed();
        double whole = committed * (WARMUP_SECONDS + SECONDS) / (double) SECONDS;
        return new Figures(
                r.rate() == null ? Double.NaN : r.rate().achieved(),
                r.operationLatency().p50(),
                r.operationLatency().p99(),
                committed,
                run.cpuNanos() / 1e6 / Math.max(1, whole));
    }

    /**
     * The same load written bare: {@code producers} threads, each with a transactional KafkaProducer of its own, each
     * pacing its share of the rate and committing {@value #COMMIT_INTERVAL_MS} ms after each begin (a transaction
     * begins with a message and stays open for the whole interval, as Kafka Streams' and omb-tx's do).
     */
    static Figures bare(String bootstrap, int producers, int rate) throws Exception {
        String topic = "bare-scale-" + producers + "-" + System.nanoTime();
        Properties common = new Properties();
        common.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        Bench.createTopic(bootstrap, topic, 16, (short) 1);
        long cpuStart = Bench.cpuNanos();
        List<KafkaProducer<byte[], byte[]>> clients = new ArrayList<>();
        for (int i = 0; i < producers; i++) {
            Properties props = new Properties();
            props.putAll(common);
            props.setProperty(ProducerConfig.ACKS_CONFIG, "all");
            props.setProperty(ProducerConfig.LINGER_MS_CONFIG, "0");
            props.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-" + i);
            // What omb-tx fits N producers into on this heap, so both sides hold the same buffers.
            long share = Runtime.getRuntime().maxMemory() / 2 / producers;
            if (share < 32L << 20) {
                props.setProperty(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(share * 4 / 5));
                props.setProperty(ProducerConfig.BATCH_SIZE_CONFIG, Long.toString(Math.min(1 << 20, share / 10)));
            } else {
                props.setProperty(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(1 << 20));
            }
            KafkaProducer<byte[], byte[]> client =
                    new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
            client.initTransactions();
            clients.add(client);
        }
        Recorder latencies = new Recorder(3);
        AtomicLong messages = new AtomicLong();
        AtomicLong committed = new AtomicLong();
        long start = System.nanoTime();
        long measureFrom = start + WARMUP_SECONDS * 1_000_000_000L;
        long end = measureFrom + SECONDS * 1_000_000_000L;
        long interval = Math.round(1e9 * producers / rate);
        byte[] payload = new byte[100];
        CountDownLatch done = new CountDownLatch(producers);
        for (int i = 0; i < producers; i++) {
            KafkaProducer<byte[], byte[]> client = clients.get(i);
            long first = start + (long) i * interval / producers;
            Thread thread = new Thread(
                    () -> {
                        try {
                            long next = first;
                            while (next < end) {
                                Bench.parkUntil(next); // a transaction begins with its first message, as omb-tx's do
                                long begin = System.nanoTime();
                                client.beginTransaction();
                                int sent = 0;
                                long cut = begin + COMMIT_INTERVAL_MS * 1_000_000L;
                                do {
                                    Bench.parkUntil(next);
                                    client.send(new ProducerRecord<>(topic, payload));
                                    sent++;
                                    next += interval;
                                } while (next < cut && next < end);
                                Bench.parkUntil(Math.min(cut, end)); // open for the whole interval, as omb-tx's are
                                client.commitTransaction();
                                long committedAt = System.nanoTime();
                                if (begin >= measureFrom) {
                                    latencies.recordValue((committedAt - begin) / 1000);
                                    messages.addAndGet(sent);
                                    committed.incrementAndGet();
                                }
                                // A commit longer than the interval: the sends it held back go at once, as omb-tx's do.
                            }
                        } finally {
                            done.countDown();
                        }
                    },
                    "bare-producer-" + i);
            thread.setDaemon(true);
            thread.start();
        }
        done.await();
        long measuredNanos = Math.max(1, System.nanoTime() - measureFrom);
        for (KafkaProducer<byte[], byte[]> client : clients) {
            client.close();
        }
        long cpu = Bench.cpuNanos() - cpuStart;
        var histogram = latencies.getIntervalHistogram();
        double whole = committed.get() * (WARMUP_SECONDS + SECONDS) / (double) SECONDS;
        return new Figures(
                messages.get() / (measuredNanos / 1e9),
                histogram.getValueAtPercentile(50) / 1000.0,
                histogram.getValueAtPercentile(99) / 1000.0,
                committed.get(),
                cpu / 1e6 / Math.max(1, whole));
    }
}

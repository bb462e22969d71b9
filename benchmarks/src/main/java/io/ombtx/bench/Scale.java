package io.ombtx.bench;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.Converters;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.result.RunResult;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
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
 * PUBLISH of N producers) and as N threads on kafka-clients (begin, paced sends, commit), one after the other on one
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
    record Figures(double rate, double p50Millis, double p99Millis, long committed, double cpuMillisPerTransaction) {}

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, Scale::run);
    }

    private static int run(Options options) throws Exception {
        int rate = options.rate();
        PrintStream out = System.out;
        Bench bench = Bench.create();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start()) {
            DriverFile driver = bench.kafkaTx(DriverOverrides.none(), cluster);
            out.printf(
                    Locale.ROOT,
                    "Transactions at scale: %d msg/s in all, commit %d ms after each begin, %d s warm-up + %d s per"
                            + " side, embedded Kafka %s, %d cores%n",
                    rate,
                    COMMIT_INTERVAL_MS,
                    WARMUP_SECONDS,
                    SECONDS,
                    EmbeddedKafkaCluster.brokerVersion(),
                    Runtime.getRuntime().availableProcessors());
            out.printf(
                    Locale.ROOT,
                    "%6s | %23s | %23s | %23s | %23s | %11s%n",
                    "",
                    "achieved msg/s",
                    "tx p50 (ms)",
                    "tx p99 (ms)",
                    "CPU ms / committed tx",
                    "committed");
            out.printf(
                    Locale.ROOT,
                    "%6s | %7s %7s %7s | %7s %7s %7s | %7s %7s %7s | %7s %7s %7s | %5s %5s%n",
                    "N",
                    "omb-tx",
                    "bare",
                    "ratio",
                    "omb-tx",
                    "bare",
                    "ratio",
                    "omb-tx",
                    "bare",
                    "ratio",
                    "omb-tx",
                    "bare",
                    "ratio",
                    "omb",
                    "bare");
            for (int producers : options.counts()) {
                Figures bare = bare(cluster.bootstrapServers(), producers, rate);
                Figures omb = ombTx(bench, driver, producers, rate);
                out.printf(
                        Locale.ROOT,
                        "%6d | %7.0f %7.0f %7.3f | %7.1f %7.1f %7.3f | %7.1f %7.1f %7.3f | %7.3f %7.3f %7.3f | %5d %5d%n",
                        producers,
                        omb.rate(),
                        bare.rate(),
                        omb.rate() / bare.rate(),
                        omb.p50Millis(),
                        bare.p50Millis(),
                        omb.p50Millis() / bare.p50Millis(),
                        omb.p99Millis(),
                        bare.p99Millis(),
                        omb.p99Millis() / bare.p99Millis(),
                        omb.cpuMillisPerTransaction(),
                        bare.cpuMillisPerTransaction(),
                        omb.cpuMillisPerTransaction() / bare.cpuMillisPerTransaction(),
                        omb.committed(),
                        bare.committed());
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
        Path file = bench.work().resolve("scale-" + producers + ".yaml");
        Files.writeString(
                file,
                String.format(
                        Locale.ROOT,
                        """
                        name: scale-%d
                        partitionsPerTopic: 16
                        messageSize: 100
                        producersPerTopic: %d
                        subscriptionsPerTopic: 0
                        producerRate: %d
                        operation: {kind: PUBLISH, transactional: true, commitIntervalMs: %d}
                        warmupDurationSeconds: %d
                        testDurationSeconds: %d
                        """,
                        producers,
                        producers,
                        rate,
                        COMMIT_INTERVAL_MS,
                        WARMUP_SECONDS,
                        SECONDS));
        Workload workload = WorkloadLoader.load(file, null).get(0);
        Bench.Run run = bench.run(driver, workload);
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

    private static void awaitTime(long nanoTime) {
        long wait;
        while ((wait = nanoTime - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
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
        try (Admin admin = Admin.create(common)) {
            admin.createTopics(List.of(new NewTopic(topic, 16, (short) 1)))
                    .all()
                    .get();
        }
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
                                awaitTime(next); // a transaction begins with its first message, as omb-tx's do
                                long begin = System.nanoTime();
                                client.beginTransaction();
                                int sent = 0;
                                long cut = begin + COMMIT_INTERVAL_MS * 1_000_000L;
                                do {
                                    awaitTime(next);
                                    client.send(new ProducerRecord<>(topic, payload));
                                    sent++;
                                    next += interval;
                                } while (next < cut && next < end);
                                awaitTime(Math.min(cut, end)); // open for the whole interval, as omb-tx's are
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

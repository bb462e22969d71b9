package io.ombtx.bench;

import io.ombtx.broker.KafkaVersion;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.PlanOptions;
import io.ombtx.runner.result.LatencySummary;
import io.ombtx.runner.result.RunResult;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/**
 * What a transaction costs over its non-transactional baseline: tx/base ratios of p50, p99 and total time for
 * writes and streaming, in both orders of the ack wait, with the client's default retry.backoff.ms and with 0, on
 * each chosen embedded Kafka (2.8 and 4.1 with either transaction version). Each repetition runs every pair on a
 * fresh broker, base then tx, so the two sides of a ratio share the broker and the machine's state of the moment;
 * the ratios are then summarised over the repetitions as median and spread (min–max), never from a single run.
 */
public final class TxOverhead {

    /** A pair of workloads compared: the base and the transactional side, in one order of the ack wait. */
    record Pair(String scenario, String order, String base, String tx) {}

    static final List<Pair> PAIRS = List.of(
            new Pair("writes", "seeds", "base-writes", "tx-writes"),
            new Pair("writes", "ack-first", "base-writes", "tx-writes-ack-first"),
            new Pair("streaming", "seeds", "base-streaming", "tx-streaming"),
            new Pair("streaming", "ack-first", "base-streaming-ack-first", "tx-streaming-ack-first"));

    /** A broker to run on: a Kafka release and, on 4.x, the transaction version (null: the broker's default). */
    record Broker(String label, String version, Integer transactionVersion) {

        /** {@code 2.8.2}, {@code 4.1.1} or {@code 4.1.1-tv1} / {@code 4.1.1-tv2}. */
        static Broker parse(String text) {
            String[] parts = text.trim().split("-tv", 2);
            KafkaVersion version;
            try {
                version = KafkaVersion.parse(parts[0]);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--brokers " + text + ": " + e.getMessage());
            }
            Integer tv = null;
            if (parts.length == 2) {
                try {
                    tv = Integer.parseInt(parts[1]);
                } catch (NumberFormatException e) {
                    throw new UsageException(
                            "--brokers expects RELEASE or RELEASE-tvN (e.g. 4.1.1-tv1), got '" + text + "'");
                }
                String problem = version.transactionVersionProblem(tv);
                if (problem != null) {
                    throw new UsageException("--brokers " + text + ": " + problem);
                }
            }
            return new Broker(text.trim(), version.toString(), tv);
        }
    }

    /** {@code bin/bench tx-overhead [quick|full] [options]}. */
    @Command(
            name = "bin/bench tx-overhead",
            description = "tx/base ratios (p50, p99, total; median and spread over the repetitions) for writes and"
                    + " streaming, in both orders of the ack wait (seeds: commit, then wait; ack-first: wait, then"
                    + " sendOffsets and commit), with the client's default retry.backoff.ms and with 0, on each"
                    + " embedded Kafka chosen. Every run starts a fresh broker.",
            footer = {
                "Examples:",
                "  bin/bench tx-overhead                              # everything, quick counts, 5 repetitions",
                "  bin/bench tx-overhead --scenarios streaming --backoff default --brokers 4.1.1 -n 5",
                "  bin/bench tx-overhead full --brokers 2.8.2,4.1.1-tv1,4.1.1-tv2"
            })
    static final class Options implements Cli.Validated {
        @picocli.CommandLine.Mixin
        Bench.KeepWork keepWork = new Bench.KeepWork();

        @Parameters(
                paramLabel = "PROFILE",
                arity = "0..1",
                converter = QuickOrFull.class,
                description = "workload profile: quick (default) or full (the seeds' counts)")
        String profile = "quick";

        @Option(
                names = {"-n", "--repetitions"},
                paramLabel = "N",
                description = "repetitions of every run" + " (default: ${DEFAULT-VALUE}; the spread needs several)")
        int repetitions = 5;

        @Option(
                names = "--scenarios",
                split = ",",
                paramLabel = "NAME",
                description = "writes, streaming" + " (default: both)")
        List<String> scenarios = new ArrayList<>(List.of("writes", "streaming"));

        @Option(
                names = "--orders",
                split = ",",
                paramLabel = "ORDER",
                description = "seeds (acks awaited after the"
                        + " commit), ack-first (before sendOffsets/commit) (default: both)")
        List<String> orders = new ArrayList<>(List.of("seeds", "ack-first"));

        @Option(
                names = "--backoff",
                split = ",",
                paramLabel = "CLIENT",
                description = "default (the client's" + " retry.backoff.ms), 0 (retry.backoff.ms=0) (default: both)")
        List<String> backoffs = new ArrayList<>(List.of("default", "0"));

        @Option(
                names = "--brokers",
                split = ",",
                paramLabel = "KAFKA",
                description =
                        "embedded brokers:"
                                + " RELEASE or RELEASE-tvN for Kafka 4.x's transaction.version (default: 2.8.2,4.1.1-tv1,4.1.1-tv2)")
        List<String> brokers = new ArrayList<>(List.of("2.8.2", "4.1.1-tv1", "4.1.1-tv2"));

        /** Every choice checked while parsing, so a typo exits 2 before any broker starts. */
        @Override
        public void validate() {
            brokers.forEach(Broker::parse);
            chosenPairs(this);
            for (String backoff : backoffs) {
                if (!backoff.equals("default") && !backoff.equals("0")) {
                    throw new UsageException("--backoff expects default or 0, got '" + backoff + "'");
                }
            }
            if (repetitions < 1 || repetitions > 100) {
                throw new UsageException("--repetitions expects 1 to 100, got " + repetitions);
            }
        }
    }

    static final class QuickOrFull implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            if (!text.equals("quick") && !text.equals("full")) {
                throw new TypeConversionException("expects quick or full, got '" + text + "'");
            }
            return text;
        }
    }

    private TxOverhead() {}

    /** One run's figures: operation latency p50 and p99 and the total (sum over the measured operations), ms. */
    record Figures(double p50Millis, double p99Millis, double totalMillis, String brokerVersion) {}

    /** One side-by-side comparison: the chosen broker, client setting and pair. */
    record Cell(Broker broker, String backoff, Pair pair) {}

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, TxOverhead::run);
    }

    private static int run(Options options) throws Exception {
        List<Broker> brokers = options.brokers.stream().map(Broker::parse).toList();
        List<Pair> pairs = chosenPairs(options);
        PrintStream out = System.out;
        Bench bench = Bench.create();
        Map<Cell, List<Figures[]>> measured = new LinkedHashMap<>();
        int total = options.repetitions * brokers.size() * options.backoffs.size() * pairs.size() * 2;
        int done = 0;
        for (int repetition = 1; repetition <= options.repetitions; repetition++) {
            for (Broker broker : brokers) {
                for (String backoff : options.backoffs) {
                    DriverFile driver = bench.kafkaTxEmbedded(
                            backoff.equals("0")
                                    ? new DriverOverrides(
                                            null, Map.of("producerConfig", Map.of("retry.backoff.ms", "0")))
                                    : DriverOverrides.none());
                    PlanOptions plan = PlanOptions.builder()
                            .brokerVersion(broker.version())
                            .transactionVersion(broker.transactionVersion())
                            .build();
                    for (Pair pair : pairs) {
                        Figures base = figures(bench.runEmbedded(driver, load(bench, pair.base(), options), plan));
                        Figures tx = figures(bench.runEmbedded(driver, load(bench, pair.tx(), options), plan));
                        done += 2;
                        out.printf(
                                Locale.ROOT,
                                "[%d/%d] repetition %d, %s, backoff %s, %s %s: base p50 %.3f ms," + " tx p50 %.3f ms%n",
                                done,
                                total,
                                repetition,
                                broker.label(),
                                backoff,
                                pair.scenario(),
                                pair.order(),
                                base.p50Millis(),
                                tx.p50Millis());
                        measured.computeIfAbsent(new Cell(broker, backoff, pair), c -> new ArrayList<>())
                                .add(new Figures[] {base, tx});
                    }
                }
            }
        }
        print(out, options, measured);
        bench.finish(out, options.keepWork.keep);
        return Cli.OK;
    }

    static List<Pair> chosenPairs(Options options) {
        for (String scenario : options.scenarios) {
            if (!scenario.equals("writes") && !scenario.equals("streaming")) {
                throw new UsageException("--scenarios expects writes or streaming, got '" + scenario + "'");
            }
        }
        for (String order : options.orders) {
            if (!order.equals("seeds") && !order.equals("ack-first")) {
                throw new UsageException("--orders expects seeds or ack-first, got '" + order + "'");
            }
        }
        return PAIRS.stream()
                .filter(p -> options.scenarios.contains(p.scenario()) && options.orders.contains(p.order()))
                .toList();
    }

    private static Workload load(Bench bench, String name, Options options) {
        return WorkloadLoader.load(bench.home().resolve("workloads/" + name + ".yaml"), options.profile)
                .get(0);
    }

    private static Figures figures(RunResult result) {
        LatencySummary ops = result.operationLatency();
        if (ops.count() == 0) {
            throw new IllegalStateException(result.workload() + " measured no operations ("
                    + result.status().key() + ")");
        }
        return new Figures(
                ops.p50(), ops.p99(), ops.totalMillis(), result.broker().version());
    }

    private static void print(PrintStream out, Options options, Map<Cell, List<Figures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nTransaction overhead, tx/base, profile %s, closed loop, %d repetition(s) on a fresh"
                        + " broker each: median [min–max]%n",
                options.profile,
                options.repetitions);
        out.printf(
                Locale.ROOT,
                "%-10s %-9s %-10s %-9s | %-22s | %-22s | %-22s | %s%n",
                "kafka",
                "ran",
                "scenario",
                "order",
                "p50 ×",
                "p99 ×",
                "total ×",
                "client");
        measured.forEach((cell, runs) -> {
            String ran = runs.stream()
                    .map(r -> r[1].brokerVersion())
                    .distinct()
                    .reduce((a, b) -> a + "/" + b)
                    .orElse("?");
            out.printf(
                    Locale.ROOT,
                    "%-10s %-9s %-10s %-9s | %-22s | %-22s | %-22s | retry.backoff.ms %s%n",
                    cell.broker().label(),
                    ran,
                    cell.pair().scenario(),
                    cell.pair().order(),
                    spread(runs, Figures::p50Millis),
                    spread(runs, Figures::p99Millis),
                    spread(runs, Figures::totalMillis),
                    cell.backoff());
        });
        out.println("(ratio = tx run ÷ the base run of the same repetition; total = sum of per-operation latencies,"
                + " seed 001's \"N txes in T ms\"; 'ran' is the broker version the results report)");
    }

    /** Median [min–max] of the per-repetition ratios tx ÷ base of one figure. */
    static String spread(List<Figures[]> runs, ToDoubleFunction<Figures> figure) {
        return Bench.spread(Bench.ratios(runs, 1, 0, figure), "%.1f");
    }

    /** The median of values sorted ascending. */
}

package io.ombtx.bench;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.result.LatencySummary;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/**
 * What a transaction costs over its non-transactional baseline on the embedded broker: tx-writes / base-writes
 * and tx-streaming / base-streaming, p50 and total time, with the client's default retry.backoff.ms and with 0
 * (seed 003's tuning), side by side. All eight runs share one broker and run in this JVM.
 */
public final class TxOverhead {

    private static final List<String[]> PAIRS = List.of(
            new String[] {"writes", "base-writes", "tx-writes"},
            new String[] {"streaming", "base-streaming", "tx-streaming"});

    /** {@code bin/bench tx-overhead [quick|full]}. */
    @Command(name = "bin/bench tx-overhead",
            description = "What a transaction costs over its non-transactional baseline on the embedded broker:"
                    + " tx-writes / base-writes and tx-streaming / base-streaming, p50 and total time, with the"
                    + " client's default retry.backoff.ms and with 0 (seed 003's tuning), side by side.",
            footer = {"Example:", "  bin/bench tx-overhead full"})
    static final class Options {
        @Parameters(paramLabel = "PROFILE", arity = "0..1", converter = QuickOrFull.class,
                description = "workload profile: quick (default) or full (the seeds' counts)")
        String profile = "quick";
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

    private TxOverhead() {
    }

    record Figures(double p50Millis, double totalMillis, long operations) {
    }

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, TxOverhead::run);
    }

    private static int run(Options options) throws Exception {
        String profile = options.profile;
        PrintStream out = System.out;
        Bench bench = Bench.create();
        Map<String, DriverOverrides> clients = new LinkedHashMap<>();
        clients.put("default retry.backoff.ms", DriverOverrides.none());
        clients.put("retry.backoff.ms=0", new DriverOverrides(null, Map.of("producerConfig", "retry.backoff.ms=0\n")));
        Map<String, Map<String, Figures>> figures = new LinkedHashMap<>();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start()) {
            for (Map.Entry<String, DriverOverrides> client : clients.entrySet()) {
                DriverFile driver = bench.kafkaTx(client.getValue(), cluster);
                Map<String, Figures> byWorkload = new LinkedHashMap<>();
                for (String[] pair : PAIRS) {
                    for (String name : new String[] {pair[1], pair[2]}) {
                        Path file = bench.home().resolve("workloads/" + name + ".yaml");
                        Workload workload = WorkloadLoader.load(file, profile).get(0);
                        byWorkload.put(name, figures(bench.run(driver, workload), workload));
                    }
                }
                figures.put(client.getKey(), byWorkload);
            }
            out.printf(Locale.ROOT, "%nTransaction overhead on embedded Kafka %s (1 broker, group.coordinator.append.linger.ms=%s),"
                    + " profile %s, closed loop%n", EmbeddedKafkaCluster.brokerVersion(),
                    cluster.settings().get("group.coordinator.append.linger.ms"), profile);
        }
        out.printf(Locale.ROOT, "%-10s | %-26s | %9s %9s | %9s %9s | %8s %8s%n", "scenario", "client",
                "base p50", "tx p50", "base tot", "tx tot", "p50 ×", "total ×");
        for (Map.Entry<String, Map<String, Figures>> client : figures.entrySet()) {
            for (String[] pair : PAIRS) {
                Figures base = client.getValue().get(pair[1]);
                Figures tx = client.getValue().get(pair[2]);
                out.printf(Locale.ROOT, "%-10s | %-26s | %7.3fms %7.3fms | %7.0fms %7.0fms | %8.1f %8.1f%n", pair[0],
                        client.getKey(), base.p50Millis(), tx.p50Millis(), base.totalMillis(), tx.totalMillis(),
                        tx.p50Millis() / base.p50Millis(), tx.totalMillis() / base.totalMillis());
            }
        }
        out.println("(total = sum of per-operation latencies over the measured operations, seed 001's \"N txes in T ms\")");
        return Cli.OK;
    }

    private static Figures figures(Bench.Run run, Workload workload) {
        LatencySummary ops = run.result().operationLatency();
        if (ops.count() == 0) {
            throw new IllegalStateException(workload.name() + " measured no operations ("
                    + run.result().status().key() + ")");
        }
        return new Figures(ops.p50(), ops.totalMillis(), ops.count());
    }
}

package io.ombtx.bench;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.config.DriverConfig;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.result.ResultWriter;
import io.ombtx.runner.run.RunCoordinator;
import io.ombtx.runner.run.RunOptions;
import io.ombtx.runner.worker.LocalWorker;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a transaction costs over its non-transactional baseline on the embedded broker: tx-writes / base-writes
 * and tx-streaming / base-streaming, p50 and total time, with the client's default retry.backoff.ms and with 0
 * (seed 003's tuning), side by side. All eight runs share one broker and run in this JVM.
 * Arguments: [quick|full] (workload profile, default quick).
 */
public final class TxOverhead {

    private static final List<String[]> PAIRS = List.of(
            new String[] {"writes", "base-writes", "tx-writes"},
            new String[] {"streaming", "base-streaming", "tx-streaming"});

    private TxOverhead() {
    }

    record Figures(double p50Millis, double totalMillis, long operations) {
    }

    public static void main(String[] args) throws Exception {
        String profile = args.length > 0 ? args[0] : "quick";
        PrintStream out = System.out;
        Path home = io.ombtx.runner.OmbTxHome.locate();
        Path work = Files.createTempDirectory("omb-tx-bench-");
        Map<String, DriverOverrides> clients = new LinkedHashMap<>();
        clients.put("default retry.backoff.ms", DriverOverrides.none());
        clients.put("retry.backoff.ms=0", new DriverOverrides(null, Map.of("producerConfig", "retry.backoff.ms=0\n")));
        Map<String, Map<String, Figures>> figures = new LinkedHashMap<>();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start()) {
            for (Map.Entry<String, DriverOverrides> client : clients.entrySet()) {
                DriverConfig driver = DriverConfig.load(home.resolve("driver-kafka-tx/kafka-tx.yaml"))
                        .effective(client.getValue(), cluster.bootstrapServers());
                Map<String, Figures> byWorkload = new LinkedHashMap<>();
                for (String[] pair : PAIRS) {
                    for (String name : new String[] {pair[1], pair[2]}) {
                        Workload workload = WorkloadLoader.load(home.resolve("workloads/" + name + ".yaml"), profile).get(0);
                        byWorkload.put(name, run(driver, workload, work));
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
    }

    @SuppressWarnings("unchecked")
    private static Figures run(DriverConfig driver, Workload workload, Path work) throws Exception {
        RunOptions options = new RunOptions(work, null, null, null, Map.of(), null, true);
        Path result = new RunCoordinator(options, System.out, () -> List.of(new LocalWorker()),
                new RunCoordinator.Interruption()).run(driver, workload).resultFile();
        Map<String, Object> r = ResultWriter.json().readValue(result.toFile(), Map.class);
        Map<String, Object> ops = (Map<String, Object>) r.get("operationLatency");
        return new Figures(((Number) ops.get("p50")).doubleValue(), ((Number) ops.get("totalMillis")).doubleValue(),
                ((Number) ops.get("count")).longValue());
    }
}

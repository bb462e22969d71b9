package io.ombtx.driver.kafka;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationProducer;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Not a test: a quick closed-loop comparison on one embedded broker (one operation after another, seed 000's
 * method). Prints p50 / p99 of a plain 2-message write and a 2-message transaction, with Kafka's default
 * retry.backoff.ms and with 0, as ratios against the plain write measured in the same run.
 * Run: java -cp <test class path> io.ombtx.driver.kafka.ClosedLoopProbe [measured ops, default 500] [reverse]
 * ("reverse" measures retry.backoff.ms=0 first, to tell a real difference from a warm-up order effect).
 */
public final class ClosedLoopProbe {

    public static void main(String[] args) throws Exception {
        int measured = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int warmup = Math.max(50, measured / 5);
        Path dir = Files.createTempDirectory("omb-tx-probe");
        try (EmbeddedKafkaCluster kafka =
                EmbeddedKafkaCluster.builder().brokers(1).start()) {
            System.out.printf(
                    "embedded Kafka %s, 1 broker, %d warm-up + %d measured operations each%n",
                    EmbeddedKafkaCluster.brokerVersion(), warmup, measured);
            boolean reverse = args.length > 1 && args[1].equals("reverse");
            for (String backoff : reverse ? new String[] {"0", null} : new String[] {null, "0"}) {
                String label = backoff == null ? "retry.backoff.ms default (100)" : "retry.backoff.ms=" + backoff;
                double[] plain = run(kafka, dir, backoff, false, warmup, measured);
                double[] tx = run(kafka, dir, backoff, true, warmup, measured);
                System.out.printf(
                        "%-32s plain write p50 %7.3f ms p99 %7.3f | tx p50 %7.3f ms p99 %7.3f | p50 ratio %.1fx%n",
                        label, plain[0], plain[1], tx[0], tx[1], tx[0] / plain[0]);
                System.out.printf(
                        "%-32s tx phases p50 (ms): begin %.3f send %.3f resolve %.3f commit %.3f%n",
                        "", tx[2], tx[3], tx[4], tx[5]);
            }
        }
    }

    /** Returns {p50, p99, begin p50, send p50, resolve p50, commit p50} in ms. */
    private static double[] run(
            EmbeddedKafkaCluster kafka, Path dir, String backoff, boolean transactional, int warmup, int measured)
            throws Exception {
        Path yaml = TestDrivers.yaml(dir, kafka.bootstrapServers(), null);
        String text = Files.readString(yaml);
        text = backoff == null ? text.replace("  retry.backoff.ms=0\n", "") : text;
        Files.writeString(yaml, text);
        try (KafkaTxBenchmarkDriver driver = TestDrivers.driver(yaml)) {
            driver.configureOperation(new OperationSpec(OperationKind.WRITE, transactional, 2, 2, false, true));
            String topic = TestDrivers.topic(transactional ? "probe-tx" : "probe-plain");
            driver.createTopic(topic, 2).get(60, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer(topic).get(60, TimeUnit.SECONDS);
            OperationProducer operations = (OperationProducer) producer;
            long[][] nanos = new long[5][measured];
            byte[] payload = new byte[100];
            for (int i = 0; i < warmup + measured; i++) {
                OperationTimings t =
                        operations.runOperation(Optional.empty(), payload).get(60, TimeUnit.SECONDS);
                if (i >= warmup) {
                    int k = i - warmup;
                    nanos[0][k] = t.totalNanos();
                    nanos[1][k] = t.nanos(Phase.BEGIN);
                    nanos[2][k] = t.nanos(Phase.SEND);
                    nanos[3][k] = t.nanos(Phase.RESOLVE);
                    nanos[4][k] = t.nanos(Phase.COMMIT);
                }
            }
            producer.close();
            return new double[] {
                pct(nanos[0], 50),
                pct(nanos[0], 99),
                pct(nanos[1], 50),
                pct(nanos[2], 50),
                pct(nanos[3], 50),
                pct(nanos[4], 50)
            };
        }
    }

    private static double pct(long[] values, double percentile) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, index)] / 1e6;
    }
}

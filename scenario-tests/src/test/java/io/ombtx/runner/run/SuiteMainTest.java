package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.SuiteMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped suites and workloads are valid: a dry run of each plans every run without a broker. */
class SuiteMainTest {

    @TempDir
    Path dir;

    private String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SuiteMain.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {
            Integer.toString(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }

    @Test
    void theKafkaSuitePlansEveryScenarioInBothProfiles() {
        Path suite = io.ombtx.runner.OmbTxHome.locate().resolve("suites/kafka-seeds.yaml");
        String[] quick = run("--dry-run", "--profile", "quick", suite.toString());
        assertEquals("0", quick[0], quick[2]);
        for (String scenario : new String[] {
            "base-writes",
            "tx-writes",
            "base-streaming",
            "tx-streaming",
            "tx-send-offsets",
            "tx-fetch",
            "bulk-tx",
            "bulk-acks-all",
            "acks-sla-yolo",
            "acks-sla-throughput",
            "acks-sla-durable",
            "rps-sweep-1000",
            "rps-sweep-25000"
        }) {
            assertTrue(quick[1].contains(scenario + " × kafka-tx"), scenario + " in " + quick[1]);
        }
        String[] full = run("--dry-run", "--profile", "full", suite.toString());
        assertEquals("0", full[0], full[2]);
        assertTrue(full[1].contains("rps-sweep-100000 × kafka-tx"), full[1]);
        assertTrue(full[1].contains("acks-sla-durable-1000000 × kafka-tx"), full[1]);
        assertTrue(full[1].contains("embedded Kafka, 3 broker(s)"), "acks-sla needs three brokers");
    }

    @Test
    void aSuitesDryRunEndsWithItsTotalOfRunsAndAnEstimateOfTime() throws Exception {
        Files.writeString(
                dir.resolve("timed.yaml"),
                "name: timed\nmessageSize: 10\nproducerRate: 100\ntestDurationSeconds: 60\n"
                        + "warmupDurationSeconds: 30\n");
        Files.writeString(dir.resolve("counted.yaml"), "name: counted\nmessageSize: 10\nmeasureOperations: 5\n");
        Path suite = Files.writeString(
                dir.resolve("s.yaml"),
                "name: s\nrepeat: 2\nruns:\n  - driver: driver-kafka-tx/kafka-tx.yaml\n    workloads: [" + dir
                        + "/timed.yaml, " + dir + "/counted.yaml]\n");
        String[] r = run("--dry-run", suite.toString());
        assertEquals("0", r[0], r[2]);
        String last = r[1].lines().reduce((a, b) -> b).orElse("");
        assertEquals(
                "Suite s (full): 1 entry, 4 run(s), estimated time at least 4 min (warm-ups and measurements of the"
                        + " time-based runs, and about 20 s of set-up per run on an embedded broker); on top, what 2"
                        + " count-based run(s) take",
                last);
    }

    @Test
    void withClustersKeptTheEstimateCountsOneStartAndTheKeptRunsSetUp() throws Exception {
        Files.writeString(
                dir.resolve("timed.yaml"),
                "name: timed\nmessageSize: 10\nproducerRate: 100\ntestDurationSeconds: 60\n"
                        + "warmupDurationSeconds: 30\n");
        Path suite = Files.writeString(
                dir.resolve("s.yaml"),
                "name: s\nrepeat: 4\nreuseBrokers: true\nruns:\n  - driver: driver-kafka-tx/kafka-tx.yaml\n"
                        + "    workloads: [" + dir + "/timed.yaml]\n");
        String[] r = run("--dry-run", suite.toString());
        assertEquals("0", r[0], r[2]);
        List<String> lines = r[1].lines().toList();
        // 4 x 90 s measured, one start (20 s) and three runs on the kept cluster (2 s each): 386 s
        assertEquals(
                "Suite s (full): 1 entry, 4 run(s), estimated time at least 6 min (warm-ups and measurements of the"
                        + " time-based runs, and about 20 s of set-up per embedded cluster started, 2 s per run on a"
                        + " kept one)",
                lines.get(lines.size() - 2));
        assertEquals(
                "Brokers: --reuse-brokers: 1 embedded cluster start(s) for 4 run(s) (runs in a row on the same"
                        + " cluster and without faults share one)",
                lines.get(lines.size() - 1));
    }

    @Test
    void everyShippedSuiteIsValid() throws Exception {
        try (var suites = Files.list(io.ombtx.runner.OmbTxHome.locate().resolve("suites"))) {
            for (Path suite : suites.toList()) {
                String[] r = run("--dry-run", suite.toString());
                assertEquals("0", r[0], suite + ": " + r[2]);
            }
        }
    }

    @Test
    void aMissingWorkloadInASuiteIsNamed() throws Exception {
        Path suite = Files.writeString(
                dir.resolve("s.yaml"),
                "name: s\nruns:\n  - driver: driver-kafka-tx/kafka-tx.yaml\n    workloads: [workloads/nope.yaml]\n");
        String[] r = run("--dry-run", suite.toString());
        assertEquals("2", r[0]);
        assertTrue(r[2].contains("s.yaml: key 'runs[0].workloads': no such file: workloads/nope.yaml"), r[2]);
    }
}

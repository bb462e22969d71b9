package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Redpanda driver on the embedded Tansu: the runner says first that Tansu stands in for Redpanda, the driver says
 * once, in one line, which Redpanda-only steps it skipped on a broker that is not Redpanda (and nothing else about
 * Redpanda), and the run completes with the result saying tansu.
 */
@Tag("integration")
class RedpandaDriverOnTansuTest {

    @TempDir
    Path dir;

    @Test
    void itSaysOnceWhatItSkippedAndRunsTransactions() throws Exception {
        Path workload = Files.writeString(
                dir.resolve("w.yaml"),
                "name: w\nmessageSize: 10\npartitionsPerTopic: 2\nsubscriptionsPerTopic: 0\nwarmupOperations: 5\n"
                        + "measureOperations: 20\n"
                        + "operation: {kind: WRITE, transactional: true, messagesPerOperation: 2}\n");
        Path results = dir.resolve("results");
        // The driver logs through the runner's console loggers, which print on System.out.
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream before = System.out;
        Main.Captured o;
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
        try {
            o = Main.capture(
                    "-d", "redpanda-tx", "--broker-system", "tansu", "-o", results.toString(), workload.toString());
        } finally {
            System.setOut(before);
        }
        String out = o.out() + console.toString(StandardCharsets.UTF_8);
        assertEquals(0, o.code(), out + o.err());
        assertTrue(
                out.contains("driver redpanda-tx is written for Redpanda but names no cluster (commonConfig's"
                        + " bootstrap.servers): it runs on the embedded Tansu, not Redpanda, and the result says"
                        + " broker.system tansu"),
                out);
        // Two lines name Redpanda: the runner's note before the run, and the driver's one line of what it skipped.
        assertEquals(2, out.lines().filter(l -> l.contains("Redpanda")).count(), out);
        List<String> skipped = out.lines()
                .filter(l -> l.contains("skipped the Redpanda-only steps"))
                .toList();
        assertEquals(1, skipped.size(), out);
        assertTrue(
                skipped.get(0)
                        .matches(
                                ".* WARN RedpandaTxBenchmarkDriver - driver redpanda-tx: the cluster at 127\\.0\\.0\\.1:"
                                        + "\\d+ is Tansu, not Redpanda \\(its cluster id is tansu_cluster\\): skipped the"
                                        + " Redpanda-only steps: no Admin API read \\(adminApiUrl not set\\), the"
                                        + " enable_transactions/enable_idempotence check, and the topicConfig filter \\(no"
                                        + " topicConfig keys\\)"),
                skipped.get(0));
        RunResult r;
        try (Stream<Path> files = Files.list(results)) {
            r = ResultReader.read(files.filter(f -> f.toString().endsWith(".json"))
                    .findFirst()
                    .orElseThrow());
        }
        assertEquals(RunResult.Status.COMPLETE, r.status(), r.partialReason());
        assertEquals(RunResult.Broker.SystemKind.TANSU, r.broker().system());
        assertEquals(20, r.counts().committed());
        @SuppressWarnings("unchecked")
        Map<String, Object> preflight = (Map<String, Object>) r.environment().get("preflight");
        assertEquals("tansu", preflight.get("brokerFlavour"));
        assertEquals(
                List.of(skipped.get(0).substring(skipped.get(0).indexOf("driver redpanda-tx:"))),
                preflight.get("notes"));
    }
}

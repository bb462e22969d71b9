package io.ombtx.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.cli.BenchmarkArgs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A suite's {@code reuseBrokers}: true, false or one per profile, handed to every entry's run; --reuse-brokers wins;
 * anything else is exit 2 naming the key.
 */
class SuiteReuseBrokersTest {

    @TempDir
    Path dir;

    private record Outcome(int code, List<BenchmarkArgs> runs, String err) {}

    private Outcome suite(String reuse, String... options) throws Exception {
        Path driver = Files.writeString(
                dir.resolve("d.yaml"), "name: d\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        Path suite = Files.writeString(
                dir.resolve("s.yaml"),
                (reuse == null ? "" : "reuseBrokers: " + reuse + "\n") + "runs:\n  - driver: " + driver
                        + "\n    workloads: [workloads/base-writes.yaml, workloads/tx-writes.yaml]\n"
                        + "  - driver: " + driver + "\n    workloads: [workloads/tx-fetch.yaml]\n");
        List<String> args = new ArrayList<>(List.of(options));
        args.add(suite.toString());
        List<BenchmarkArgs> runs = new ArrayList<>();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SuiteMain.run(
                args.toArray(String[]::new),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                (a, out2, err2) -> {
                    runs.add(a);
                    return Main.OK;
                });
        return new Outcome(code, runs, err.toString(StandardCharsets.UTF_8));
    }

    private static List<Boolean> reuse(Outcome o) {
        return o.runs().stream().map(BenchmarkArgs::reuseBrokers).toList();
    }

    @Test
    void perProfileTheNamedProfileReusesAndTheOthersDoNot() throws Exception {
        assertEquals(List.of(true, true), reuse(suite("{verdict: true}", "--profile", "verdict")));
        assertEquals(List.of(false, false), reuse(suite("{verdict: true}", "--profile", "quick")));
        assertEquals(List.of(true, true), reuse(suite("true", "--profile", "quick")));
        assertEquals(List.of(false, false), reuse(suite(null, "--profile", "quick")));
        assertEquals(List.of(true, true), reuse(suite("false", "--profile", "quick", "--reuse-brokers")));
    }

    @Test
    void anythingButTrueOrFalseIsBadInputNamingTheKey() throws Exception {
        Outcome bad = suite("{verdict: maybe}", "--profile", "quick");
        assertEquals(2, bad.code());
        assertTrue(bad.err().startsWith("error: "), bad.err());
        assertTrue(bad.err().contains("reuseBrokers.verdict"), bad.err());
        assertTrue(bad.err().contains("expected true or false"), bad.err());
        assertEquals(List.of(), bad.runs(), "nothing ran");
    }
}

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

/** A suite entry's {@code profiles: [...]}: read and checked always, run only in the profiles it names. */
class SuiteEntryProfilesTest {

    @TempDir
    Path dir;

    private record Outcome(int code, List<BenchmarkArgs> runs, String err) {}

    private Outcome suite(String profile, String entries) throws Exception {
        Path driver = Files.writeString(
                dir.resolve("d.yaml"), "name: d\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        Path suite = Files.writeString(dir.resolve("s.yaml"), "runs:\n" + entries.replace("DRIVER", driver.toString()));
        List<BenchmarkArgs> runs = new ArrayList<>();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SuiteMain.run(
                new String[] {"--profile", profile, suite.toString()},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                (args, out2, err2) -> {
                    runs.add(args);
                    return Main.OK;
                });
        return new Outcome(code, runs, err.toString(StandardCharsets.UTF_8));
    }

    private static final String TWO_ENTRIES =
            """
              - name: always
                driver: DRIVER
                workloads: [workloads/base-writes.yaml]
              - name: slow
                profiles: [full]
                driver: DRIVER
                workloads: [workloads/tx-writes.yaml]
            """;

    @Test
    void anEntryRunsOnlyInTheProfilesItNames() throws Exception {
        Outcome quick = suite("quick", TWO_ENTRIES);
        assertEquals(0, quick.code(), quick.err());
        assertEquals(
                List.of("always"),
                quick.runs().stream().map(BenchmarkArgs::comparison).toList());
        Outcome full = suite("full", TWO_ENTRIES);
        assertEquals(
                List.of("always", "slow"),
                full.runs().stream().map(BenchmarkArgs::comparison).toList());
    }

    @Test
    void profilesMustBeAListOfNamesEvenWhenTheEntryIsLeftOut() throws Exception {
        Outcome bad = suite(
                "quick",
                """
                  - driver: DRIVER
                    profiles: full
                    workloads: [workloads/base-writes.yaml]
                """);
        assertEquals(2, bad.code());
        assertTrue(bad.err().startsWith("error: "), bad.err());
        assertTrue(bad.err().contains("s.yaml: key 'runs[0].profiles'"), bad.err());
        assertTrue(bad.err().contains("expected a list of the profiles the entry runs in"), bad.err());
        assertEquals(List.of(), bad.runs());
    }
}

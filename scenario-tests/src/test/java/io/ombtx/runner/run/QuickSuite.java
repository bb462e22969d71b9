package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.SuiteMain;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A shipped suite's quick profile run for real by bin/benchmark-suite, its exit code 0 asserted.
 *
 * @param log the console
 * @param runs each result written, by file name
 */
record QuickSuite(String log, List<RunResult> runs) {

    /** Runs {@code suite} (from the repository's root) with its results in {@code results}. */
    static QuickSuite run(String suite, Path results) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = SuiteMain.run(
                new String[] {
                    "--profile",
                    "quick",
                    "-o",
                    results.toString(),
                    OmbTxHome.locate().resolve(suite).toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        List<RunResult> runs = new ArrayList<>();
        try (Stream<Path> files = Files.list(results)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                runs.add(ResultReader.read(file));
            }
        }
        return new QuickSuite(log, runs);
    }
}

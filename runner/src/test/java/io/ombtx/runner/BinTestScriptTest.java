package io.ombtx.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/test as its reader meets it: what the machine lacks is named before anything runs, and the run closes with a
 * line per part. Its shell part runs here with shellcheck taken off PATH, or replaced by a stand-in that passes or
 * has findings, so no real check is needed and each run takes a moment.
 */
class BinTestScriptTest {

    /** A part's summary line: name, verdict, time, log. */
    private static final Pattern SUMMARY_LINE =
            Pattern.compile("^(java|unit|shell|charts|deploy) +(passed|FAILED) +\\d+m\\d\\ds  \\S+\\.log$");

    @TempDir
    Path dir;

    record Outcome(int code, String output, long millis) {
        List<String> lines() {
            return output.lines().toList();
        }
    }

    @Test
    void withoutShellcheckTheShellPartStopsAtOnceAndSaysWhatToInstall() throws Exception {
        Outcome run = binTest(pathWithout("shellcheck"), "shell");

        assertEquals(2, run.code(), run.output());
        assertTrue(run.millis() < 10_000, "it took " + run.millis() + " ms:\n" + run.output());
        assertTrue(run.output().contains("shellcheck, for shell: shellcheck not found"), run.output());
        assertTrue(run.output().contains("install: apt-get install shellcheck"), run.output());
        assertFalse(run.output().contains("=== omb-tx tests: shell ==="), "nothing ran:\n" + run.output());
        assertFalse(Files.exists(dir.resolve("logs")), "no log was begun");
    }

    @Test
    void aPassingPartHasItsSummaryLineAndLog() throws Exception {
        String clean = "for argument; do [ \"$argument\" = - ] && cat >/dev/null; done; exit 0";
        Outcome run = binTest(withShellcheck(clean) + File.pathSeparator + System.getenv("PATH"), "shell");

        assertEquals(0, run.code(), run.output());
        List<String> lines = run.lines();
        int summary = lines.indexOf("=== omb-tx tests: summary ===");
        assertTrue(summary >= 0, run.output());
        String line = lines.get(summary + 1);
        assertTrue(SUMMARY_LINE.matcher(line).matches(), line);
        assertTrue(line.startsWith("shell   passed "), line);
        assertTrue(line.endsWith(dir.resolve("logs/shell.log").toString()), line);
        assertEquals("=== omb-tx tests passed: shell ===", lines.get(lines.size() - 1), run.output());
        assertTrue(
                Files.readString(dir.resolve("logs/shell.log")).contains("shellcheck: "),
                "the part's output is in its log");
    }

    @Test
    void aFailedPartSaysWhyUnderItsSummaryLineAndAgainLast() throws Exception {
        // Two findings in one script, as shellcheck prints them; deploy's templates (read from stdin) pass.
        String findings =
                """
                for argument; do [ "$argument" = - ] && { cat >/dev/null; exit 0; }; done
                printf '\\nIn bin/example line 2:\\necho $x\\n     ^-- SC2154 (warning): x is referenced but not assigned.\\n'
                printf '     ^-- SC2086 (info): Double quote to prevent globbing and word splitting.\\n'
                exit 1
                """;
        Outcome run = binTest(withShellcheck(findings) + File.pathSeparator + System.getenv("PATH"), "shell");

        assertEquals(1, run.code(), run.output());
        List<String> lines = run.lines();
        int summary = lines.indexOf("=== omb-tx tests: summary ===");
        assertTrue(summary >= 0, run.output());
        String line = lines.get(summary + 1);
        assertTrue(SUMMARY_LINE.matcher(line).matches(), line);
        assertTrue(line.startsWith("shell   FAILED "), line);
        assertEquals("        2 shellcheck findings in 1 file: bin/example", lines.get(summary + 2), run.output());
        assertEquals("=== omb-tx tests FAILED: shell ===", lines.get(lines.size() - 1), run.output());
        assertTrue(
                lines.stream().anyMatch(l -> l.matches("=== omb-tx tests: shell FAILED in \\d+m\\d\\ds .*")),
                "the part's time as it ends:\n" + run.output());
        assertTrue(Files.readString(dir.resolve("logs/shell.log")).contains("SC2086"), "the findings are in the log");
    }

    /** Runs bin/test with PATH as given and its logs in the temporary folder. */
    private Outcome binTest(String path, String... parts) throws Exception {
        Path output = dir.resolve("output.txt");
        List<String> command = new java.util.ArrayList<>(
                List.of("bash", OmbTxHome.locate().resolve("bin/test").toString()));
        command.addAll(List.of(parts));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("PATH", path);
        builder.environment().put("OMBTX_TEST_LOGS", dir.resolve("logs").toString());
        long start = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("bin/test did not end in 120 s:\n" + Files.readString(output));
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        return new Outcome(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8), millis);
    }

    /** A folder holding a stand-in shellcheck running SCRIPT (sh). */
    private String withShellcheck(String script) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("stand-in"));
        Path shellcheck = folder.resolve("shellcheck");
        Files.writeString(shellcheck, "#!/bin/sh\n" + script + "\n");
        assertTrue(shellcheck.toFile().setExecutable(true));
        return folder.toString();
    }

    /** A PATH of one folder linking every command of this one's folders but the one named. */
    private String pathWithout(String left) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("path-without-" + left));
        Set<String> seen = new HashSet<>(Set.of(left));
        for (String entry : System.getenv("PATH").split(File.pathSeparator)) {
            Path source = Path.of(entry.isEmpty() ? "." : entry);
            if (!Files.isDirectory(source)) {
                continue;
            }
            try (Stream<Path> commands = Files.list(source)) {
                for (Path command : commands.toList()) {
                    if (seen.add(command.getFileName().toString())) {
                        Files.createSymbolicLink(folder.resolve(command.getFileName()), command.toAbsolutePath());
                    }
                }
            }
        }
        return folder.toString();
    }
}

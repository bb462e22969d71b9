package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The console's account of a written run: where the result is, also when it could not go where it was asked. */
class ConsoleSummaryTest {

    private static RunResult fixture() throws Exception {
        Path folder =
                Path.of(ConsoleSummaryTest.class.getResource("/real-results").toURI());
        try (var files = Files.list(folder)) {
            return ResultReader.read(
                    files.filter(p -> p.getFileName().toString().startsWith("base-writes"))
                            .findFirst()
                            .orElseThrow());
        }
    }

    private static String print(RunCoordinator.Outcome outcome) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ConsoleSummary(new RunConsole(new PrintStream(out, true, StandardCharsets.UTF_8), false)).print(outcome);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aResultKeptElsewhereNamesBothPathsAndTheSummaryFollows() throws Exception {
        RunResult result = fixture();
        String console = print(new RunCoordinator.Outcome(
                Path.of("/home/u/.omb-tx/unsaved/r.json"),
                result,
                "could not write /data/results/r.json: No space left on device"));
        assertTrue(
                console.contains("Result kept in /home/u/.omb-tx/unsaved/r.json (could not write /data/results/r.json:"
                        + " No space left on device)"),
                console);
        assertTrue(console.contains("Operations: "), "the summary is printed anyway:\n" + console);
        assertFalse(console.contains("written to"), console);
    }

    @Test
    void aResultSavedNowhereSaysSoAndTheSummaryFollows() throws Exception {
        String console = print(new RunCoordinator.Outcome(null, fixture(), "could not write /data/r.json: Read-only"));
        assertTrue(
                console.contains("Result NOT saved (could not write /data/r.json: Read-only, and every fallback folder"
                        + " failed too)"),
                console);
        assertTrue(console.contains("Operations: "), console);
    }
}

package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measured run that did not show what it was asked to — its exactly-once check failed, after the run or live, or a
 * declared fault could not be carried out — is no success: the result stays complete (the measurement stands, the
 * verdict and the fault's error are in it) but bin/benchmark exits 1 and the console says why. On a real recorded
 * run of the eos matrix (coordinator killed, aborts on, both checks passed) and on copies of it with one verdict
 * turned.
 */
class VerdictExitTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static Path recorded() throws Exception {
        try (var files = Files.list(OmbTxHome.locate().resolve("charts/tests/fixtures/eos-matrix"))) {
            return files.filter(
                            p -> p.getFileName().toString().startsWith("tx-streaming-broker-coordinator-kill-aborts"))
                    .findFirst()
                    .orElseThrow();
        }
    }

    private RunCoordinator.Outcome outcome(Consumer<ObjectNode> edit) throws Exception {
        ObjectNode tree = (ObjectNode) JSON.readTree(recorded().toFile());
        edit.accept(tree);
        Path file = dir.resolve("r-" + System.nanoTime() + ".json");
        JSON.writeValue(file.toFile(), tree);
        RunResult result = ResultReader.read(file);
        return new RunCoordinator.Outcome(file, result);
    }

    private static String console(RunCoordinator.Outcome outcome) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ConsoleSummary(new RunConsole(new PrintStream(out, true, StandardCharsets.UTF_8), false)).print(outcome);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theRecordedRunPassedBothChecksAndItsFaultHappened() throws Exception {
        RunCoordinator.Outcome passed = outcome(tree -> {});
        assertEquals(RunResult.Status.COMPLETE, passed.result().status());
        assertEquals(List.of(), passed.verdictFailures());
        assertTrue(passed.complete());
        assertEquals(null, passed.shortfall());
        assertFalse(console(passed).contains("Verdict FAILED"));
    }

    @Test
    void aFailedCheckAfterTheRunIsExitOne() throws Exception {
        RunCoordinator.Outcome failed = outcome(tree -> {
            ObjectNode eos = (ObjectNode) tree.get("exactlyOnce");
            eos.put("duplicated", 3);
            eos.put("passed", false);
        });
        assertEquals(RunResult.Status.COMPLETE, failed.result().status(), "the measurement stands");
        assertFalse(failed.complete());
        assertEquals(
                List.of("exactly-once check failed (3 duplicated, 0 missing, 0 unexpected, 0 aborted seen)"),
                failed.verdictFailures());
        assertTrue(console(failed).contains("Verdict FAILED (exit code 1): exactly-once check failed (3 duplicated"));
        assertEquals(
                "exactly-once check failed (3 duplicated, 0 missing, 0 unexpected, 0 aborted seen); result in "
                        + failed.resultFile(),
                failed.shortfall(),
                "the line a quiet run prints on the error stream");
    }

    /** A result not where -o asked (the name was taken during the run) is exit 1 and says where it went. */
    @Test
    void aResultNotWhereItWasAskedIsExitOneAndSaysWhere() throws Exception {
        RunCoordinator.Outcome kept = outcome(tree -> {});
        RunCoordinator.Outcome moved = new RunCoordinator.Outcome(
                kept.resultFile(), kept.result(), "/x/r.json appeared during the run and is not replaced");
        assertFalse(moved.complete());
        assertEquals(
                "complete; result kept in " + kept.resultFile() + " (/x/r.json appeared during the run and is not"
                        + " replaced)",
                moved.shortfall());
    }

    @Test
    void aFailedLiveCheckIsExitOne() throws Exception {
        RunCoordinator.Outcome failed =
                outcome(tree -> ((ObjectNode) tree.get("exactlyOnce").get("live")).put("passed", false));
        assertFalse(failed.complete());
        assertEquals(List.of("live exactly-once check failed"), failed.verdictFailures());
    }

    @Test
    void aDeclaredFaultNotCarriedOutIsExitOne() throws Exception {
        RunCoordinator.Outcome failed =
                outcome(tree -> ((ObjectNode) tree.get("faults").get(0))
                        .put("error", "still under way when the run ended (180 s after the measurement)"));
        assertFalse(failed.complete());
        assertEquals(
                List.of("faults[0] not carried out: still under way when the run ended (180 s after the measurement)"),
                failed.verdictFailures());
        assertTrue(console(failed).contains("Verdict FAILED (exit code 1): faults[0] not carried out"));
    }
}

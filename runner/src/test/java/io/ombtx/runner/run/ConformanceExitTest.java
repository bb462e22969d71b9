package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.runner.Main;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broken broker guarantee is a verdict on the broker, not a failed run: on the recorded pass of
 * suites/broker-conformance.yaml (charts/tests/fixtures/conformance: Kafka 4.1.1 and Tansu 0.6.0), Tansu's broken
 * aborted-records guarantee leaves its run complete (its exactly-once FAIL is the guarantee's verdict), names itself
 * in one line, and is exit 3, which a failed run's 1 outranks; a guarantee not judged is a failed run.
 */
class ConformanceExitTest {

    private static final Path RECORDED = OmbTxHome.locate().resolve("charts/tests/fixtures/conformance");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static Path run(String system, String guarantee) throws Exception {
        try (Stream<Path> files = Files.list(RECORDED)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                RunResult r = ResultReader.read(file);
                if (r.broker().system().key().equals(system)
                        && r.conformance().guarantee().equals(guarantee)) {
                    return file;
                }
            }
        }
        throw new AssertionError("no recorded " + guarantee + " on " + system);
    }

    private static RunCoordinator.Outcome outcome(Path file) throws Exception {
        return new RunCoordinator.Outcome(file, ResultReader.read(file));
    }

    @Test
    void tansusBrokenGuaranteeIsAVerdictNotAFailedRun() throws Exception {
        RunCoordinator.Outcome tansu = outcome(run("tansu", "aborted-invisible"));
        RunResult.Conformance c = tansu.result().conformance();
        assertEquals(RunResult.Conformance.Verdict.FAIL, c.verdict());
        assertFalse(tansu.result().exactlyOnce().passed(), "the check it was judged from failed");
        assertTrue(tansu.complete(), "the run itself did what it was asked: " + tansu.verdictFailures());
        assertEquals(List.of(), tansu.verdictFailures());
        String line = RunCoordinator.brokenGuarantee(tansu.result());
        assertTrue(
                line.startsWith("Conformance of tansu 0.6.0: aborted-invisible (aborted records invisible to"
                        + " read_committed): FAIL [checked " + c.counts().get("checked")),
                line);
        assertTrue(line.contains("abortedSeen " + c.counts().get("abortedSeen")), line);
        assertTrue(line.endsWith("; first violation: " + c.firstViolation()), line);
    }

    @Test
    void kafkasKeptGuaranteeIsNothingToReport() throws Exception {
        RunCoordinator.Outcome kafka = outcome(run("kafka", "aborted-invisible"));
        assertEquals(
                RunResult.Conformance.Verdict.PASS, kafka.result().conformance().verdict());
        assertTrue(kafka.complete());
        assertNull(RunCoordinator.brokenGuarantee(kafka.result()));
    }

    @Test
    void aGuaranteeNotJudgedIsAFailedRun() throws Exception {
        ObjectNode tree =
                (ObjectNode) JSON.readTree(run("kafka", "timeout-aborts").toFile());
        ObjectNode conformance = (ObjectNode) tree.get("conformance");
        conformance.put("verdict", "not-judged");
        conformance.put("note", "this cluster system has no probe of timeout-aborts");
        Path file = dir.resolve("not-judged.json");
        JSON.writeValue(file.toFile(), tree);
        RunCoordinator.Outcome notJudged = outcome(file);
        assertFalse(notJudged.complete());
        assertEquals(
                List.of("conformance timeout-aborts not judged: this cluster system has no probe of timeout-aborts"),
                notJudged.verdictFailures());
    }

    @Test
    void aFailedRunOutranksABrokenGuaranteeWhichOutranksDone() {
        assertEquals(Main.GUARANTEE_BROKEN, Main.worse(Main.OK, Main.GUARANTEE_BROKEN));
        assertEquals(Main.FAILED, Main.worse(Main.GUARANTEE_BROKEN, Main.FAILED));
        assertEquals(Main.FAILED, Main.worse(Main.FAILED, Main.GUARANTEE_BROKEN));
        assertEquals(Main.BAD_INPUT, Main.worse(Main.GUARANTEE_BROKEN, Main.BAD_INPUT));
        assertEquals(Main.OK, Main.worse(Main.OK, Main.OK));
    }

    @Test
    void aSuiteEndsWithEveryVerdictOneLineEach() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ConformanceSummary.print(RECORDED, new PrintStream(out, true, StandardCharsets.UTF_8));
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        long broken;
        try (Stream<Path> files = Files.list(RECORDED)) {
            broken = files.filter(f -> f.toString().endsWith(".json"))
                    .map(f -> {
                        try {
                            return ResultReader.read(f).conformance().verdict();
                        } catch (Exception e) {
                            throw new AssertionError(e);
                        }
                    })
                    .filter(v -> v == RunResult.Conformance.Verdict.FAIL)
                    .count();
        }
        assertEquals(
                "Conformance: 14 guarantee verdict(s), " + broken
                        + " broken (a verdict on the broker, not a failure of the run):",
                lines.get(0));
        assertEquals(15, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(1).matches("  kafka 4\\.1\\.1 +aborted-invisible +PASS *"), lines.get(1));
        assertTrue(lines.get(8).startsWith("  tansu 0.6.0    aborted-invisible            FAIL      "), lines.get(8));
    }
}

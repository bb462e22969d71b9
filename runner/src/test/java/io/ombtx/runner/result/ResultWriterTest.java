package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultWriterTest {

    @TempDir
    Path dir;

    private static RunResult fixture(String prefix) throws Exception {
        try (var files = Files.list(RunResultFixturesTest.REAL_RESULTS)) {
            return ResultReader.read(
                    files.filter(p -> p.getFileName().toString().startsWith(prefix))
                            .findFirst()
                            .orElseThrow());
        }
    }

    @Test
    void defaultNamesCarryWorkloadDriverAndTimeAndNeverCollide() throws Exception {
        ZonedDateTime when = ZonedDateTime.of(2026, 11, 22, 3, 4, 5, 0, ZoneOffset.UTC);
        Path first = ResultWriter.write(
                ResultWriter.defaultPath(dir, "tx writes", "kafka-tx", when), fixture("base-writes"));
        Path second = ResultWriter.write(
                ResultWriter.defaultPath(dir, "tx writes", "kafka-tx", when), fixture("tx-streaming"));
        assertEquals(
                "tx_writes-kafka-tx-20261122-030405.json", first.getFileName().toString());
        assertEquals(
                "tx_writes-kafka-tx-20261122-030405-2.json",
                second.getFileName().toString());
        assertTrue(Files.readString(first).contains("\"workload\" : \"base-writes\""));
        assertEquals("tx-streaming", ResultReader.read(second).workload());
    }

    @Test
    void anExplicitFileIsNotOverwrittenEither() throws Exception {
        Path target = dir.resolve("out.json");
        Path a = ResultWriter.write(target, fixture("base-writes"));
        Path b = ResultWriter.write(target, fixture("tx-streaming"));
        assertNotEquals(a, b);
        assertEquals("base-writes", ResultReader.read(a).workload(), "the earlier result is intact");
        assertEquals("out-2.json", b.getFileName().toString());
    }

    @Test
    void aWriteThatFailsHalfWayLeavesNoFileAndKeepsTheResultElsewhere() throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        Path fallback = dir.resolve("unsaved");
        RunResult result = fixture("base-writes");
        // A full disk: the first half of the bytes reach the file, then the write fails.
        ResultWriter.BytesOut full = (file, bytes) -> {
            Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
            throw new java.io.IOException("No space left on device");
        };
        ResultWriter.Saved saved =
                ResultWriter.writeOrKeep(results.resolve("r.json"), result, java.util.List.of(fallback), full);
        try (var left = Files.list(results)) {
            assertEquals(java.util.List.of(), left.toList(), "no truncated JSON, no temporary file left behind");
        }
        assertEquals(fallback.resolve("r.json"), saved.file());
        assertEquals("could not write " + results.resolve("r.json") + ": No space left on device", saved.problem());
        assertEquals("base-writes", ResultReader.read(saved.file()).workload(), "the kept result is whole, valid JSON");
        assertTrue(new io.ombtx.runner.run.RunCoordinator.Outcome(saved.file(), result).complete());
        assertFalse(
                new io.ombtx.runner.run.RunCoordinator.Outcome(saved.file(), result, saved.problem()).complete(),
                "a result not where it was asked to go: bin/benchmark exits 1");
    }

    @Test
    void aResultsFolderThatBecameAFileIsNamedAndTheNextFallbackTakesTheResult() throws Exception {
        Path results = Files.writeString(dir.resolve("results"), "not a folder");
        Path blocked = Files.writeString(dir.resolve("blocked"), "not a folder either");
        Path fallback = dir.resolve("tmp-unsaved");
        ResultWriter.Saved saved = ResultWriter.writeOrKeep(
                results.resolve("r.json"),
                fixture("tx-streaming"),
                java.util.List.of(blocked.resolve("unsaved"), fallback),
                (file, bytes) -> Files.write(file, bytes));
        assertTrue(saved.misplaced());
        assertTrue(saved.problem().startsWith("could not write " + results.resolve("r.json") + ": "), saved.problem());
        assertTrue(saved.problem().contains(results.toString()), saved.problem());
        assertEquals(fallback.resolve("r.json"), saved.file());
        assertEquals("tx-streaming", ResultReader.read(saved.file()).workload());
        assertEquals("not a folder", Files.readString(results));
    }

    @Test
    void aWholeWriteLeavesOnlyTheResultFile() throws Exception {
        ResultWriter.Saved saved = ResultWriter.writeOrKeep(
                dir.resolve("r.json"),
                fixture("base-writes"),
                java.util.List.of(),
                (file, bytes) -> Files.write(file, bytes));
        assertEquals(null, saved.problem());
        try (var left = Files.list(dir)) {
            assertEquals(java.util.List.of(dir.resolve("r.json")), left.toList());
        }
    }
}

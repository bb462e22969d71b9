package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}

package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultWriterTest {

    @TempDir
    Path dir;

    @Test
    void defaultNamesCarryWorkloadDriverAndTimeAndNeverCollide() throws Exception {
        ZonedDateTime when = ZonedDateTime.of(2026, 11, 22, 3, 4, 5, 0, ZoneOffset.UTC);
        Path first = ResultWriter.write(ResultWriter.defaultPath(dir, "tx writes", "kafka-tx", when), Map.of("n", 1));
        Path second = ResultWriter.write(ResultWriter.defaultPath(dir, "tx writes", "kafka-tx", when), Map.of("n", 2));
        assertEquals("tx_writes-kafka-tx-20261122-030405.json", first.getFileName().toString());
        assertEquals("tx_writes-kafka-tx-20261122-030405-2.json", second.getFileName().toString());
        assertTrue(Files.readString(first).contains("\"n\" : 1"));
    }

    @Test
    void anExplicitFileIsNotOverwrittenEither() throws Exception {
        Path target = dir.resolve("out.json");
        Path a = ResultWriter.write(target, Map.of("run", "a"));
        Path b = ResultWriter.write(target, Map.of("run", "b"));
        assertNotEquals(a, b);
        assertTrue(Files.readString(a).contains("\"a\""), "the earlier result is intact");
        assertEquals("out-2.json", b.getFileName().toString());
    }
}

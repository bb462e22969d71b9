package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The disk probe of a fidelity run on a broker that flushes every message, and its table. */
class DiskProbeTest {

    @Test
    void flushesRealAppendsAndLeavesNoFileBehind(@TempDir Path dir) throws Exception {
        DiskProbe.Figures figures = DiskProbe.run(dir, Duration.ofMillis(200));

        assertTrue(figures.flushes() >= 10, "at least ten flushes, got " + figures.flushes());
        assertTrue(figures.p50Micros() > 0, "an fsync takes time: " + figures);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count(), "the probe's file is deleted");
        }
    }

    @Test
    void onlyABrokerThatFlushesOnItsHotPathIsProbed() {
        assertTrue(Fidelity.fsyncsOnItsHotPath(List.of("log.flush.interval.messages=1")));
        assertTrue(Fidelity.fsyncsOnItsHotPath(List.of("num.io.threads=2", "log.flush.interval.ms=10")));
        assertFalse(Fidelity.fsyncsOnItsHotPath(List.of("group.coordinator.append.linger.ms=0")));
        assertFalse(Fidelity.fsyncsOnItsHotPath(List.of()));
    }

    @Test
    void theTablePutsEachSidesFlushTimeAndTheirRatioPerScenario() {
        Map<String, List<DiskProbe.Figures[]>> disk = new LinkedHashMap<>();
        disk.put(
                "base-streaming",
                List.of(
                        new DiskProbe.Figures[] {new DiskProbe.Figures(300, 50), new DiskProbe.Figures(200, 60)},
                        new DiskProbe.Figures[] {new DiskProbe.Figures(240, 50), new DiskProbe.Figures(240, 60)},
                        new DiskProbe.Figures[] {new DiskProbe.Figures(210, 50), new DiskProbe.Figures(280, 60)}));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FidelityReport.printDisk(new PrintStream(bytes, true, StandardCharsets.UTF_8), disk);
        String table = bytes.toString(StandardCharsets.UTF_8);

        // omb-tx's runs 0.21, 0.24, 0.30 ms; the bare loop's 0.20, 0.24, 0.28; ratios 0.75, 1.0, 1.5.
        assertTrue(
                table.contains("base-streaming            | 0.240 [0.210–0.300] / 0.240 [0.200–0.280] | × 1.000"
                        + " [0.750–1.500]"),
                table);
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.OmbTxHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The scenario library's test parts run the Kafka suite whole, once, and the suite has every seed workload. */
class ScenarioLibraryPartsTest {

    @Test
    void thePartsRunTheSuiteOnceInAll() throws Exception {
        List<String> parts = new ArrayList<>();
        SeedSuitePart.PARTS.forEach(parts::addAll);
        List<String> suite = SeedSuitePart.suiteWorkloads();
        assertEquals(suite.size(), parts.size(), "no workload in two parts: " + parts);
        assertTrue(parts.containsAll(suite) && suite.containsAll(parts), suite + " vs the parts " + parts);
    }

    @Test
    void theSuiteHasEveryWorkloadOfTheLibrary() throws Exception {
        // The seed workloads; those in workloads/faults/ and workloads/capacity/ are run by tests of their own.
        List<String> suite = SeedSuitePart.suiteWorkloads();
        try (Stream<Path> files = Files.list(OmbTxHome.locate().resolve("workloads"))) {
            for (Path workload : files.filter(Files::isRegularFile).toList()) {
                String path = "workloads/" + workload.getFileName();
                assertTrue(suite.contains(path), path + " is in suites/kafka-seeds.yaml: " + suite);
            }
        }
    }
}

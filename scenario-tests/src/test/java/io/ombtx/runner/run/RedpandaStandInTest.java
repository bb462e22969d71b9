package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Redpanda driver naming no cluster runs on the embedded Apache Kafka, and the runner says so first. */
class RedpandaStandInTest {

    private static final String NOTE = "driver redpanda-tx is written for Redpanda but names no cluster";

    @TempDir
    Path dir;

    private static Main.Captured run(String... args) {
        return Main.capture(args);
    }

    @Test
    void theDryRunSaysTheEmbeddedKafkaStandsInForRedpanda() throws Exception {
        Path workload = Files.writeString(dir.resolve("w.yaml"), "name: w\nmessageSize: 10\nmeasureOperations: 5\n");
        Main.Captured o = run("-d", "redpanda-tx", "--dry-run", workload.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("     note        " + NOTE), o.out());
        assertTrue(o.out().contains("it runs on the embedded Apache Kafka, not Redpanda"), o.out());
        Main.Captured kafka = run("-d", "kafka-tx", "--dry-run", workload.toString());
        assertFalse(kafka.out().contains("is written for"), "not for a Kafka driver: " + kafka.out());
    }

    @Test
    void aRunSaysItOnOneLineBeforeTheBrokerStarts() throws Exception {
        Path workload = Files.writeString(dir.resolve("w.yaml"), "name: w\nmessageSize: 10\nmeasureOperations: 5\n");
        String before = System.getProperty("ombtx.broker.lib");
        // No broker class path: the run stops where the broker would start, after what it says first.
        System.setProperty("ombtx.broker.lib", dir.resolve("no-broker-lib").toString());
        try {
            Main.Captured o =
                    run("-d", "redpanda-tx", "-o", dir.resolve("results").toString(), workload.toString());
            assertEquals(1, o.code(), o.err());
            assertEquals(1, o.out().lines().filter(l -> l.contains(NOTE)).count(), o.out());
        } finally {
            if (before == null) {
                System.clearProperty("ombtx.broker.lib");
            } else {
                System.setProperty("ombtx.broker.lib", before);
            }
        }
    }
}

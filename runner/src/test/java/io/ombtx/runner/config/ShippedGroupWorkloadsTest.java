package io.ombtx.runner.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.driver.api.config.YamlFiles;
import io.ombtx.runner.OmbTxHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A shipped workload that cuts a stream processor of a group must give every processor input from the start. Without
 * keys, Kafka's producer (3.3 and later) writes to one partition until {@code batch.size} bytes went there (1 MiB in
 * the shipped driver files, some 20 000 small records), so a run reaches only a few partitions; a processor whose
 * partitions get nothing never begins a transaction, and a client fault armed on it (carried out at its next
 * transaction's decision point) waits until the run ends ("interrupted while injecting", the faults after it "still
 * under way"). Keys spread the records over every partition.
 */
class ShippedGroupWorkloadsTest {

    @Test
    void everyGroupWorkloadWithAClientFaultOnAProcessorKeysItsRecords() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(OmbTxHome.locate().resolve("workloads"))) {
            files = walk.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        files = files.stream()
                .filter(ShippedGroupWorkloadsTest::namesAProcessor)
                .toList();
        List<String> checked = new ArrayList<>();
        for (Path file : files) {
            for (String profile : profiles(file)) {
                for (Workload w : WorkloadLoader.load(file, profile)) {
                    boolean cutsAProcessor = w.faults().stream()
                            .anyMatch(f -> f.target() == FaultTarget.STREAM_PROCESSOR
                                    && (f.action() == FaultAction.KILL
                                            || f.action() == FaultAction.STOP
                                            || f.action() == FaultAction.PAUSE));
                    if (w.streaming() && w.consumerPerSubscription() > 1 && cutsAProcessor) {
                        assertNotEquals(
                                KeyDistributorType.NO_KEY,
                                w.keyDistributor(),
                                file + " (profile " + profile + "): a processor may get no input, and a fault on it"
                                        + " is never carried out");
                        checked.add(file.getFileName() + " " + profile);
                    }
                }
            }
        }
        assertFalse(checked.isEmpty(), "workloads/eos/tx-streaming-group.yaml is such a workload");
    }

    private static boolean namesAProcessor(Path file) {
        try {
            return Files.readString(file).contains("stream-processor");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The default (null) and every profile the file defines. */
    private static List<String> profiles(Path file) {
        List<String> profiles = new ArrayList<>();
        profiles.add(null);
        JsonNode declared = YamlFiles.read(file).path("profiles");
        for (Iterator<String> it = declared.fieldNames(); it.hasNext(); ) {
            profiles.add(it.next());
        }
        return profiles;
    }
}

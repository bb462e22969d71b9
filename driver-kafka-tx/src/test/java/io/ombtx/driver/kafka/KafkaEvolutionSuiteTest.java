package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.ombtx.runner.OmbTxHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * suites/kafka-evolution.yaml plans cleanly (dry run: no broker) in both profiles: every release that marks a change
 * with its own client, the fixed client, and the single-dimension toggles on 4.1; and each toggle workload is its
 * shipped scenario with exactly one key added.
 */
class KafkaEvolutionSuiteTest {

    private static final List<String> RELEASES = List.of("2.8.2", "3.3.2", "3.6.2", "3.7.2", "3.9.1", "4.0.2", "4.1.1");

    private static SuiteDryRun dryRun(String profile) {
        return SuiteDryRun.of("suites/kafka-evolution.yaml", profile);
    }

    @Test
    void theQuickProfilePlansEveryReleaseOnItsOwnClientAndTheTogglesOn41() {
        SuiteDryRun o = dryRun("quick");
        assertEquals(0, o.code(), o.err());
        assertEquals("", o.err());
        assertEquals(50, o.count("^ +\\d+\\. "), "runs planned:\n" + o.out());
        for (String release : RELEASES) {
            String comparison = "comparison (writes|streaming)-" + Pattern.quote(release) + " ";
            assertEquals(4, o.count("^ +repetition .*" + comparison), release + ": writes and streaming pairs");
        }
        // The releases before 4.1 run in a worker JVM with their own client; 2.8.2's writes also on the fixed client.
        assertEquals(2, o.count("comparison writes-2\\.8\\.2-client-4\\.1\\.1 "));
        assertEquals(0, o.count("comparison streaming-2\\.8\\.2-client-4\\.1\\.1 "), "full only");
        assertEquals(3, o.count("^ +\\d+\\. tx-send-offsets "), "on 2.8.2 and 4.1.1, and the tv toggle");
        for (String toggle : new String[] {
            "toggle-transaction-version", "toggle-verification", "toggle-group-protocol", "toggle-coordinator-linger"
        }) {
            assertTrue(o.out().contains("comparison " + toggle + " "), toggle);
        }
        assertEquals(3, o.count("^ +kafka +4\\.1\\.1 \\(KRaft, transaction\\.version 1\\)"), "the tv1 toggles");
        assertEquals(2, o.count("^ +overrides .*group\\.protocol=consumer"), "the consumer-protocol toggles");
    }

    @Test
    void theFullProfileAddsTheSlowComparisonsAndRepeatsFiveTimes() {
        SuiteDryRun o = dryRun("full");
        assertEquals(0, o.code(), o.err());
        assertEquals(490, o.count("^ +\\d+\\. "), "98 runs × 5");
        assertEquals(490, o.count("^ +repetition +\\d of 5, group \\S+, comparison \\S+"));
        assertTrue(o.out().contains("comparison streaming-ack-first-3.3.2 "), o.out());
        assertTrue(o.out().contains("comparison toggle-verification-streaming "), o.out());
    }

    @Test
    void eachToggleWorkloadIsItsShippedScenarioWithOneKeyAdded() throws Exception {
        Path home = OmbTxHome.locate();
        Map<String, String> toggleKeys = Map.of(
                "-tv1", "transactionVersion",
                "-no-verification", "partitionVerification",
                "-consumer-protocol", "groupProtocol",
                "-linger-0", "brokerSettings");
        YAMLMapper yaml = new YAMLMapper();
        List<Path> variants;
        try (Stream<Path> files = Files.list(home.resolve("workloads/evolution"))) {
            variants = files.sorted().toList();
        }
        assertEquals(9, variants.size(), variants.toString());
        for (Path variant : variants) {
            String name = variant.getFileName().toString().replace(".yaml", "");
            Map.Entry<String, String> toggle = toggleKeys.entrySet().stream()
                    .filter(e -> name.endsWith(e.getKey()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no toggle in the name " + name));
            String base = name.substring(0, name.length() - toggle.getKey().length());
            ObjectNode mine = (ObjectNode) yaml.readTree(variant.toFile());
            JsonNode shipped =
                    yaml.readTree(home.resolve("workloads/" + base + ".yaml").toFile());
            assertEquals(name, mine.get("name").asText());
            assertTrue(mine.has(toggle.getValue()), name);
            mine.remove(List.of("name", "description", toggle.getValue()));
            ObjectNode expected = ((ObjectNode) shipped.deepCopy()).without(List.of("name", "description"));
            assertEquals(expected, mine, name + " differs from " + base + " beyond its toggle");
        }
    }
}

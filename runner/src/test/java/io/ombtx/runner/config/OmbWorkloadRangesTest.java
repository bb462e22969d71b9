package io.ombtx.runner.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OMB's own workloads must validate: every field at the smallest and the largest value any of OMB's 130 shipped
 * workloads uses (the table in {@code omb-workloads/field-ranges.yaml}) is accepted, one at a time and all maxima at
 * once, while what cannot run is still refused.
 */
class OmbWorkloadRangesTest {

    /** A workload as OMB writes them, every field set to an everyday value. */
    private static final String OMB_WORKLOAD =
            """
            name: omb-like
            topics: 1
            partitionsPerTopic: 16
            keyDistributor: NO_KEY
            messageSize: 1024
            useRandomizedPayloads: true
            randomBytesRatio: 0.5
            randomizedPayloadPoolSize: 1000
            subscriptionsPerTopic: 1
            consumerPerSubscription: 1
            producersPerTopic: 1
            producerRate: 50000
            consumerBacklogSizeGB: 0
            testDurationMinutes: 15
            """;

    private static JsonNode ranges() throws IOException {
        try (InputStream in = OmbWorkloadRangesTest.class.getResourceAsStream("/omb-workloads/field-ranges.yaml")) {
            return YamlFiles.parse("field-ranges.yaml", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static Workload load(Map<String, JsonNode> values) {
        ObjectNode node = (ObjectNode) YamlFiles.parse("omb.yaml", OMB_WORKLOAD);
        values.forEach(node::set);
        return WorkloadLoader.expand("omb.yaml", Path.of("."), node, null).get(0);
    }

    static Stream<Arguments> extremes() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = ranges().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            cases.add(Arguments.of(field.getKey(), "min", field.getValue().get("min")));
            cases.add(Arguments.of(field.getKey(), "max", field.getValue().get("max")));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} at OMB''s {1} ({2})")
    @MethodSource("extremes")
    void everyFieldAtOmbsExtremesValidates(String field, String which, JsonNode value) {
        Workload w = load(Map.of(field, value));
        assertEquals(w.sourceFile(), "omb.yaml");
    }

    @Test
    void theTableCoversEveryNumericFieldOmbsWorkloadsSet() throws IOException {
        List<String> fields = new ArrayList<>();
        ranges().fieldNames().forEachRemaining(fields::add);
        assertEquals(
                List.of(
                        "topics",
                        "partitionsPerTopic",
                        "messageSize",
                        "subscriptionsPerTopic",
                        "consumerPerSubscription",
                        "producersPerTopic",
                        "producerRate",
                        "consumerBacklogSizeGB",
                        "testDurationMinutes",
                        "randomBytesRatio",
                        "randomizedPayloadPoolSize"),
                fields);
        for (String field : fields) {
            JsonNode range = ranges().get(field);
            assertTrue(range.get("min").asDouble() <= range.get("max").asDouble(), field);
            assertTrue(range.get("files").asInt() > 0 && range.get("files").asInt() <= 130, field);
        }
    }

    @Test
    void allOfOmbsMaximaAtOnceValidateWithWarningsNamingTheKeys() throws IOException {
        Map<String, JsonNode> maxima = new java.util.LinkedHashMap<>();
        ranges().fields()
                .forEachRemaining(e -> maxima.put(e.getKey(), e.getValue().get("max")));
        Workload w = load(maxima);
        assertEquals(1_000_000, w.topics());
        assertEquals(10_000_000, w.producerRate());
        List<String> warnings = WorkloadWarnings.of(w);
        assertEquals(3, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("warning: omb.yaml: key 'topics': 1000000 topics"), warnings.get(0));
        assertTrue(warnings.get(1).contains("key 'producersPerTopic': 100000000 producers"), warnings.get(1));
        assertTrue(warnings.get(2).contains("key 'consumerPerSubscription': 300000000 consumers"), warnings.get(2));
    }

    @Test
    void everydayOmbWorkloadsGetNoWarning() {
        assertTrue(WorkloadWarnings.of(load(Map.of())).isEmpty());
        assertFalse(WorkloadWarnings.of(load(Map.of("topics", number(10_001)))).isEmpty(), "just above the line");
        assertTrue(WorkloadWarnings.of(load(Map.of("topics", number(10_000)))).isEmpty(), "the old limit, no warning");
    }

    @Test
    void whatCannotRunIsStillRefused() {
        ConfigException zero = assertThrows(ConfigException.class, () -> load(Map.of("topics", number(0))));
        assertEquals("topics", zero.key());
        ConfigException tooMany = assertThrows(
                ConfigException.class,
                () -> load(Map.of("topics", number(10_000_000), "producersPerTopic", number(1000))));
        assertEquals("producersPerTopic", tooMany.key());
        assertTrue(tooMany.getMessage().contains("10000000000 producers"), tooMany.getMessage());
        ConfigException consumers = assertThrows(
                ConfigException.class,
                () -> load(Map.of(
                        "topics",
                        number(5_000_000),
                        "subscriptionsPerTopic",
                        number(10),
                        "consumerPerSubscription",
                        number(100))));
        assertEquals("consumerPerSubscription", consumers.key());
        assertThrows(ConfigException.class, () -> load(Map.of("topics", number(10_000_001))));
    }

    @Test
    void ombsPayloadFileIsFoundBesideTheWorkloadsFolder(@org.junit.jupiter.api.io.TempDir Path omb) throws IOException {
        // OMB's layout: workloads/ next to payload/, files naming payload/… from OMB's root.
        java.nio.file.Files.createDirectories(omb.resolve("workloads"));
        java.nio.file.Files.createDirectories(omb.resolve("payload"));
        java.nio.file.Files.write(omb.resolve("payload/payload-1Kb.data"), new byte[1024]);
        Path file = java.nio.file.Files.writeString(
                omb.resolve("workloads/1kb.yaml"),
                "name: 1kb\nmessageSize: 1024\npayloadFile: \"payload/payload-1Kb.data\"\ntestDurationMinutes: 15\n");
        Workload w = WorkloadLoader.read(file, null).runs().get(0);
        assertEquals(
                omb.resolve("payload/payload-1Kb.data").toRealPath(),
                w.payloadFile().toRealPath());
    }

    private static JsonNode number(long value) {
        return com.fasterxml.jackson.databind.node.LongNode.valueOf(value);
    }
}

package io.ombtx.runner.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.driver.api.config.ConfigFields;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Driver settings a workload imposes (for example seed 002's acks profiles): a replication factor, and
 * properties appended to the driver YAML's text blocks, so the same driver file serves every profile.
 */
public record DriverOverrides(Integer replicationFactor, Map<String, String> propertyBlocks) {

    public static final List<String> BLOCKS = io.ombtx.driver.api.config.KafkaDriverYaml.BLOCKS;

    public DriverOverrides {
        propertyBlocks = Map.copyOf(propertyBlocks);
    }

    /** The keys a workload's {@code driverOverrides:} may hold. */
    static final List<String> KEYS =
            List.of("replicationFactor", "topicConfig", "commonConfig", "producerConfig", "consumerConfig");

    /** Reads a workload's {@code driverOverrides:}; a block may be given as text or as a mapping. */
    static DriverOverrides read(ConfigFields block) {
        block.onlyKeys(KEYS);
        Integer rf = block.has("replicationFactor")
                ? block.wholeNumber("replicationFactor", 1, 1, EmbeddedKafkaCluster.MAX_BROKERS)
                : null;
        Map<String, String> blocks = new LinkedHashMap<>();
        for (String key : BLOCKS) {
            if (!block.has(key)) {
                continue;
            }
            JsonNode value = block.node().get(key);
            if (value.isObject()) {
                StringBuilder text = new StringBuilder();
                value.fields().forEachRemaining(e -> text.append(e.getKey())
                        .append('=')
                        .append(e.getValue().asText())
                        .append('\n'));
                blocks.put(key, text.toString());
            } else {
                blocks.put(key, block.text(key, ""));
            }
        }
        return new DriverOverrides(rf, blocks);
    }

    public static DriverOverrides none() {
        return new DriverOverrides(null, Map.of());
    }

    public boolean isEmpty() {
        return replicationFactor == null && propertyBlocks.isEmpty();
    }

    public Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        if (replicationFactor != null) {
            map.put("replicationFactor", replicationFactor);
        }
        map.putAll(propertyBlocks);
        return map;
    }
}

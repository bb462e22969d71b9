package io.ombtx.runner.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Driver settings a workload imposes (for example seed 002's acks profiles): a replication factor, and
 * properties appended to the driver YAML's text blocks, so the same driver file serves every profile.
 */
public record DriverOverrides(Integer replicationFactor, Map<String, String> propertyBlocks) {

    public static final java.util.List<String> BLOCKS = io.ombtx.driver.api.config.KafkaDriverYaml.BLOCKS;

    public DriverOverrides {
        propertyBlocks = Map.copyOf(propertyBlocks);
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

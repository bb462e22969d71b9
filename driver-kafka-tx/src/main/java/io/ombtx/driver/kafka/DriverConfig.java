package io.ombtx.driver.kafka;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * A parsed driver YAML: the OMB Kafka keys plus omb-tx's {@code transactions:} block, and any keys a subclass
 * driver declared as its own ({@link #extras()}, scalar values as text).
 */
public record DriverConfig(
        String source,
        String name,
        String driverClass,
        int replicationFactor,
        Properties topicConfig,
        Properties commonConfig,
        Properties producerConfig,
        Properties consumerConfig,
        TransactionSettings transactions,
        Map<String, String> extras) {

    public DriverConfig {
        extras = Map.copyOf(extras);
    }

    /** commonConfig overlaid with producerConfig: what every producer starts from. */
    public Properties producerProperties() {
        return merged(commonConfig, producerConfig);
    }

    /** commonConfig overlaid with consumerConfig: what every consumer starts from. */
    public Properties consumerProperties() {
        return merged(commonConfig, consumerConfig);
    }

    /** topicConfig as a map for {@code NewTopic.configs}. */
    public Map<String, String> topicConfigMap() {
        Map<String, String> map = new LinkedHashMap<>();
        topicConfig.stringPropertyNames().stream().sorted().forEach(k -> map.put(k, topicConfig.getProperty(k)));
        return map;
    }

    public String bootstrapServers() {
        return commonConfig.getProperty("bootstrap.servers");
    }

    private static Properties merged(Properties base, Properties overlay) {
        Properties merged = new Properties();
        merged.putAll(base);
        merged.putAll(overlay);
        return merged;
    }
}

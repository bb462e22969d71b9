package io.ombtx.runner.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.driver.api.config.ConfigFields;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Driver settings a workload imposes (for example seed 002's acks profiles): a replication factor, and client
 * settings by block ({@code topicConfig}, {@code commonConfig}, {@code producerConfig}, {@code consumerConfig}), each
 * a map of key to value, so the same driver file serves every profile. They become text only where the driver YAML
 * holds text: merged into its blocks ({@link DriverFile#effective}), where they replace the file's own lines.
 *
 * @param settings by block, in {@link #BLOCKS} order; each block's settings in the order given (a key may be given
 *     once a block, as in a driver YAML)
 */
public record DriverOverrides(Integer replicationFactor, Map<String, Map<String, String>> settings) {

    /** OMB's Kafka driver YAML convention: the Java-properties text blocks a driver passes to its client. */
    public static final List<String> BLOCKS =
            List.of("topicConfig", "commonConfig", "producerConfig", "consumerConfig");

    /** The keys a workload's {@code driverOverrides:} may hold. */
    static final List<String> KEYS =
            List.of("replicationFactor", "topicConfig", "commonConfig", "producerConfig", "consumerConfig");

    public DriverOverrides {
        Map<String, Map<String, String>> copy = new LinkedHashMap<>();
        settings.forEach((block, values) -> copy.put(block, Collections.unmodifiableMap(new LinkedHashMap<>(values))));
        settings = Collections.unmodifiableMap(copy);
    }

    /**
     * Reads a workload's {@code driverOverrides:}; a block may be given as a mapping or, as in a driver YAML, as
     * Java-properties text.
     */
    static DriverOverrides read(ConfigFields block) {
        block.onlyKeys(KEYS);
        Integer rf = block.has("replicationFactor")
                ? block.wholeNumber("replicationFactor", 1, 1, BrokerSetup.MAX_EMBEDDED_BROKERS)
                : null;
        Map<String, Map<String, String>> settings = new LinkedHashMap<>();
        for (String key : BLOCKS) {
            if (!block.has(key)) {
                continue;
            }
            JsonNode value = block.node().get(key);
            Map<String, String> values = new LinkedHashMap<>();
            if (value.isObject()) {
                value.fields()
                        .forEachRemaining(
                                e -> values.put(e.getKey(), e.getValue().asText()));
            } else {
                block.properties(key); // as in a driver YAML: well-formed, no key given twice
                values.putAll(PropertiesText.read(block.text(key, "")));
            }
            settings.put(key, values);
        }
        return new DriverOverrides(rf, settings);
    }

    public static DriverOverrides none() {
        return new DriverOverrides(null, Map.of());
    }

    public boolean isEmpty() {
        return replicationFactor == null && settings.isEmpty();
    }

    /** Each block's settings as Java-properties text, one {@code key=value} a line. */
    public Map<String, String> propertyBlocks() {
        Map<String, String> blocks = new LinkedHashMap<>();
        settings.forEach((block, values) -> {
            StringBuilder text = new StringBuilder();
            values.forEach((key, value) -> text.append(PropertiesText.escape(key, true))
                    .append('=')
                    .append(PropertiesText.escape(value, false))
                    .append('\n'));
            blocks.put(block, text.toString());
        });
        return blocks;
    }

    /**
     * For the dry run: one {@code key=value} a line, the replication factor first, then each block's settings as
     * {@code block: key=value}, secret values redacted ({@link Secrets}).
     */
    public List<String> describe() {
        List<String> lines = new java.util.ArrayList<>();
        if (replicationFactor != null) {
            lines.add("replicationFactor=" + replicationFactor);
        }
        settings.forEach((block, values) ->
                values.forEach((key, value) -> lines.add(block + ": " + key + "=" + Secrets.shown(key, value))));
        return lines;
    }
}

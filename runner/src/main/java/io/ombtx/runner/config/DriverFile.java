package io.ombtx.runner.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.config.ConfigFields;
import io.ombtx.driver.api.config.YamlFiles;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * A driver YAML as the runner sees it: {@code name} and {@code driverClass}, the Kafka convention's
 * {@code replicationFactor} and properties blocks, and everything else passed through untouched to the driver.
 * The runner never changes the user's file: it writes an effective copy (real bootstrap servers, workload
 * overrides) and hands that to the driver.
 */
public final class DriverFile {

    private static final String BOOTSTRAP = "bootstrap.servers";
    /** The value of {@code bootstrap.servers} that asks the runner for its embedded broker (as leaving it out does). */
    private static final String EMBEDDED = "embedded";
    /** The most replicas a topic can have: Kafka stores the factor as a short. */
    private static final int MAX_REPLICATION_FACTOR = Short.MAX_VALUE;

    public static final String REDACTED = Secrets.REDACTED;

    private final Path file;
    private final ObjectNode root;

    private DriverFile(Path file, ObjectNode root) {
        this.file = file;
        this.root = root;
    }

    public static DriverFile load(Path file) {
        ObjectNode root = (ObjectNode) YamlFiles.read(file);
        ConfigFields fields = new ConfigFields(file.toString(), root, "");
        requireText(fields, "name", "a name for the driver");
        requireText(fields, "driverClass", "the driver's fully-qualified class name");
        fields.wholeNumber("replicationFactor", 1, 1, MAX_REPLICATION_FACTOR);
        for (String block : DriverOverrides.BLOCKS) {
            fields.properties(block);
        }
        return new DriverFile(file, root);
    }

    private static void requireText(ConfigFields fields, String key, String expected) {
        String value = fields.text(key, null);
        if (value == null || value.isBlank()) {
            throw fields.error(key, "required: " + expected);
        }
    }

    public Path file() {
        return file;
    }

    public String name() {
        return root.get("name").asText();
    }

    public String driverClass() {
        return root.get("driverClass").asText();
    }

    public int replicationFactor() {
        return root.path("replicationFactor").asInt(1);
    }

    /**
     * The bootstrap servers named in commonConfig, or null when none (or {@code embedded}) is named; an empty value
     * ({@link #bootstrapServersEmpty}) is refused while planning.
     */
    public String bootstrapServers() {
        String value = properties("commonConfig").getProperty(BOOTSTRAP);
        if (value == null || value.isBlank() || value.trim().equalsIgnoreCase(EMBEDDED)) {
            return null;
        }
        return value.trim();
    }

    /**
     * Whether commonConfig names {@code bootstrap.servers} with nothing after it (a templated value left empty): not
     * a request for the embedded broker, which would benchmark loopback in place of the user's cluster.
     */
    public boolean bootstrapServersEmpty() {
        String value = properties("commonConfig").getProperty(BOOTSTRAP);
        return value != null && value.isBlank();
    }

    public boolean wantsEmbeddedBroker() {
        return bootstrapServers() == null;
    }

    /** The text at {@code block.key} (a nested mapping's scalar, e.g. {@code transactions.transactionalIdPrefix}). */
    public java.util.Optional<String> nestedText(String block, String key) {
        JsonNode value = root.path(block).path(key);
        return value.isValueNode() ? java.util.Optional.of(value.asText()) : java.util.Optional.empty();
    }

    public Properties properties(String block) {
        return new ConfigFields(file.toString(), root, "").properties(block);
    }

    /**
     * A copy with the workload's overrides applied and, when given, the real bootstrap servers: each setting replaces
     * the block's own (in its place) or is added at the end, so the copy names every key once, as the file must.
     */
    public DriverFile effective(DriverOverrides overrides, String bootstrapServers) {
        ObjectNode copy = root.deepCopy();
        if (overrides.replicationFactor() != null) {
            copy.put("replicationFactor", overrides.replicationFactor());
        }
        overrides
                .settings()
                .forEach((block, values) ->
                        copy.put(block, merged(copy.path(block).asText(""), values)));
        if (bootstrapServers != null) {
            copy.put("commonConfig", merged(copy.path("commonConfig").asText(""), Map.of(BOOTSTRAP, bootstrapServers)));
        }
        return new DriverFile(file, copy);
    }

    /** A copy naming the given bootstrap servers (an embedded broker's, once it has started). */
    public DriverFile withBootstrapServers(String bootstrapServers) {
        return effective(DriverOverrides.none(), bootstrapServers);
    }

    /** This configuration as YAML text, as handed to a driver (through a file, or a worker over HTTP). */
    public String toYaml() {
        try {
            return YamlFiles.mapper().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise driver configuration", e);
        }
    }

    /** A block's settings as kafka-clients will see them (the last of repeated keys wins), secrets replaced, sorted. */
    public Map<String, String> effectiveRedacted(String block) {
        Properties properties = properties(block);
        Map<String, String> effective = new java.util.TreeMap<>();
        properties
                .stringPropertyNames()
                .forEach(key -> effective.put(key, isSecret(key) ? REDACTED : properties.getProperty(key)));
        return effective;
    }

    /** The configuration as a map for result files, with every secret-looking value replaced. */
    public Map<String, Object> redacted() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            JsonNode value = entry.getValue();
            if (isSecret(entry.getKey())) {
                out.put(entry.getKey(), REDACTED);
            } else if (value.isTextual() && DriverOverrides.BLOCKS.contains(entry.getKey())) {
                out.put(entry.getKey(), redactProperties(value.asText()));
            } else if (value.isTextual()) {
                out.put(entry.getKey(), value.asText());
            } else {
                try {
                    out.put(entry.getKey(), YamlFiles.mapper().treeToValue(redactTree(value), Object.class));
                } catch (JsonProcessingException e) {
                    out.put(entry.getKey(), REDACTED);
                }
            }
        }
        return out;
    }

    private static JsonNode redactTree(JsonNode node) {
        if (!node.isObject()) {
            return node;
        }
        ObjectNode copy = ((ObjectNode) node).deepCopy();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (isSecret(key)) {
                copy.put(key, REDACTED);
            } else {
                copy.set(key, redactTree(node.get(key)));
            }
        }
        return copy;
    }

    /**
     * The block rebuilt from its parsed properties (so every separator Java accepts, '=', ':' or whitespace, and
     * continued lines are understood), one {@code key=value} a line in first-seen order, the last repeated key's value,
     * secret values replaced, comments dropped. Text that does not parse is replaced whole.
     */
    static String redactProperties(String text) {
        Map<String, String> parsed;
        try {
            parsed = PropertiesText.read(text);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return REDACTED + "\n";
        }
        StringBuilder out = new StringBuilder();
        parsed.forEach((key, value) -> out.append(PropertiesText.escape(key, true))
                .append('=')
                .append(isSecret(key) ? REDACTED : PropertiesText.escape(value, false))
                .append('\n'));
        return out.toString();
    }

    private static boolean isSecret(String key) {
        return Secrets.isSecret(key);
    }

    /** A block's text with {@code values} set, one {@code key=value} a line in first-seen order, comments dropped. */
    private static String merged(String text, Map<String, String> values) {
        Map<String, String> settings = PropertiesText.read(text);
        settings.putAll(values);
        StringBuilder out = new StringBuilder();
        settings.forEach((key, value) -> out.append(PropertiesText.escape(key, true))
                .append('=')
                .append(PropertiesText.escape(value, false))
                .append('\n'));
        return out.toString();
    }
}

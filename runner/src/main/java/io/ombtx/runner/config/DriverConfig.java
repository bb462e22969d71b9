package io.ombtx.runner.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * A driver YAML as the runner sees it: {@code name} and {@code driverClass}, the Kafka convention's
 * {@code replicationFactor} and properties blocks, and everything else passed through untouched to the driver.
 * The runner never changes the user's file: it writes an effective copy (real bootstrap servers, workload
 * overrides) and hands that to the driver.
 */
public final class DriverConfig {

    private static final String BOOTSTRAP = "bootstrap.servers";
    private static final Pattern SECRET_KEY = Pattern.compile(
            "(?i).*(password|secret|token|sasl\\.jaas\\.config|\\.key$|credential).*");
    public static final String REDACTED = "<redacted>";

    private final Path file;
    private final ObjectNode root;

    private DriverConfig(Path file, ObjectNode root) {
        this.file = file;
        this.root = root;
    }

    public static DriverConfig load(Path file) {
        ObjectNode root = (ObjectNode) YamlFiles.read(file);
        DriverConfig config = new DriverConfig(file, root);
        config.requireText("name");
        config.requireText("driverClass");
        if (root.has("replicationFactor") && !root.get("replicationFactor").canConvertToInt()) {
            throw new ConfigException(file.toString(), "replicationFactor", "expected a whole number, got '"
                    + root.get("replicationFactor").asText() + "'");
        }
        for (String block : DriverOverrides.BLOCKS) {
            if (root.has(block) && root.get(block).isContainerNode()) {
                throw new ConfigException(file.toString(), block, "expected Java-properties text (key=value lines)");
            }
        }
        return config;
    }

    private void requireText(String key) {
        JsonNode value = root.get(key);
        if (value == null || value.isNull() || value.asText().isBlank() || value.isContainerNode()) {
            throw new ConfigException(file.toString(), key, "required: "
                    + (key.equals("driverClass") ? "the driver's fully-qualified class name" : "a name for the driver"));
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

    /** The bootstrap servers named in commonConfig, or null when none (or {@code embedded}) is named. */
    public String bootstrapServers() {
        String value = properties("commonConfig").getProperty(BOOTSTRAP);
        if (value == null || value.isBlank() || value.trim().equalsIgnoreCase("embedded")) {
            return null;
        }
        return value.trim();
    }

    public boolean wantsEmbeddedBroker() {
        return bootstrapServers() == null;
    }

    public Properties properties(String block) {
        Properties props = new Properties();
        try {
            props.load(new StringReader(root.path(block).asText("")));
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException(file.toString(), block, "not valid Java-properties text: " + e.getMessage());
        }
        return props;
    }

    /** A copy with the workload's overrides applied and, when given, the real bootstrap servers. */
    public DriverConfig effective(DriverOverrides overrides, String bootstrapServers) {
        ObjectNode copy = root.deepCopy();
        if (overrides.replicationFactor() != null) {
            copy.put("replicationFactor", overrides.replicationFactor());
        }
        overrides.propertyBlocks().forEach((block, text) ->
                copy.put(block, appendLines(copy.path(block).asText(""), text)));
        if (bootstrapServers != null) {
            String common = removeKey(copy.path("commonConfig").asText(""), BOOTSTRAP);
            copy.put("commonConfig", appendLines(common, BOOTSTRAP + "=" + bootstrapServers));
        }
        return new DriverConfig(file, copy);
    }

    /** This configuration as YAML text, as handed to a driver (through a file, or a worker over HTTP). */
    public String toYaml() {
        try {
            return YamlFiles.mapper().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise driver configuration", e);
        }
    }

    /** The configuration as a map for result files, with every secret-looking value replaced. */
    public Map<String, Object> redacted() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            JsonNode value = entry.getValue();
            if (SECRET_KEY.matcher(entry.getKey()).matches()) {
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
            if (SECRET_KEY.matcher(key).matches()) {
                copy.put(key, REDACTED);
            } else {
                copy.set(key, redactTree(node.get(key)));
            }
        }
        return copy;
    }

    /** Redacts secret values inside key=value text (multi-line values such as sasl.jaas.config included). */
    static String redactProperties(String text) {
        StringBuilder out = new StringBuilder();
        boolean continuing = false;
        for (String line : text.split("\n", -1)) {
            String trimmed = line.trim();
            if (continuing) {
                continuing = trimmed.endsWith("\\");
                continue;
            }
            int separator = indexOfSeparator(trimmed);
            if (separator > 0 && SECRET_KEY.matcher(trimmed.substring(0, separator).trim().toLowerCase(Locale.ROOT)).matches()) {
                out.append(trimmed, 0, separator).append('=').append(REDACTED).append('\n');
                continuing = trimmed.endsWith("\\");
            } else {
                out.append(line).append('\n');
            }
        }
        return out.toString().replaceAll("\n+$", "\n");
    }

    private static int indexOfSeparator(String line) {
        int eq = line.indexOf('=');
        int colon = line.indexOf(':');
        if (eq < 0) {
            return colon;
        }
        return colon < 0 ? eq : Math.min(eq, colon);
    }

    private static String appendLines(String text, String extra) {
        String base = text.isEmpty() || text.endsWith("\n") ? text : text + "\n";
        return base + (extra.endsWith("\n") ? extra : extra + "\n");
    }

    private static String removeKey(String text, String key) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.startsWith(key) && trimmed.substring(key.length()).trim().matches("^[=:].*")) {
                continue;
            }
            if (!line.isEmpty()) {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }
}

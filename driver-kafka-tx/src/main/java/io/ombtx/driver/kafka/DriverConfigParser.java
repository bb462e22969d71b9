package io.ombtx.driver.kafka;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ombtx.driver.api.KeySuggestions;
import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Reads a driver YAML strictly: an unknown key, a value of the wrong type or an out-of-range number fails with an
 * {@link IOException} naming the file, the key and what was expected, because a silently ignored typo in a
 * benchmark's configuration produces plausible but wrong numbers.
 */
public final class DriverConfigParser {

    static final List<String> ROOT_KEYS = List.of(
            "name", "driverClass", "replicationFactor",
            "topicConfig", "commonConfig", "producerConfig", "consumerConfig", "transactions");
    static final List<String> TRANSACTION_KEYS = List.of(
            "enabled", "messagesPerTransaction", "commitIntervalMs", "transactionalIdPrefix",
            "resolveBeforeCommit", "maxRetries");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final Set<String> extraRootKeys;

    /** @param extraRootKeys top-level scalar keys a subclass driver understands (e.g. Redpanda's adminApiUrl) */
    public DriverConfigParser(Set<String> extraRootKeys) {
        this.extraRootKeys = Set.copyOf(extraRootKeys);
    }

    public DriverConfig parse(File file) throws IOException {
        String source = file.getPath();
        JsonNode root;
        try {
            root = YAML.readTree(file);
        } catch (JsonProcessingException e) {
            throw new IOException(source + ": not valid YAML: " + e.getOriginalMessage(), e);
        }
        return parse(source, root);
    }

    public DriverConfig parse(String source, String yamlText) throws IOException {
        try {
            return parse(source, YAML.readTree(yamlText));
        } catch (JsonProcessingException e) {
            throw new IOException(source + ": not valid YAML: " + e.getOriginalMessage(), e);
        }
    }

    private DriverConfig parse(String source, JsonNode root) throws IOException {
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new IOException(source + ": the driver file is empty; expected keys: " + String.join(", ", rootKeys()));
        }
        if (!root.isObject()) {
            throw new IOException(source + ": expected a mapping of keys at the top level, got " + describe(root));
        }
        Fields fields = new Fields(source, "", root, rootKeys());
        String name = fields.text("name", "kafka-tx");
        String driverClass = fields.text("driverClass", KafkaTxBenchmarkDriver.class.getName());
        int replicationFactor = fields.integer("replicationFactor", 1, 1, Short.MAX_VALUE);
        Properties topicConfig = fields.properties("topicConfig");
        Properties commonConfig = fields.properties("commonConfig");
        Properties producerConfig = fields.properties("producerConfig");
        Properties consumerConfig = fields.properties("consumerConfig");
        TransactionSettings transactions = transactions(source, root.get("transactions"));
        Map<String, String> extras = new LinkedHashMap<>();
        for (String key : extraRootKeys) {
            String value = fields.text(key, null);
            if (value != null) {
                extras.put(key, value);
            }
        }
        return new DriverConfig(source, name, driverClass, replicationFactor, topicConfig, commonConfig,
                producerConfig, consumerConfig, transactions, extras);
    }

    private static TransactionSettings transactions(String source, JsonNode node) throws IOException {
        TransactionSettings d = TransactionSettings.defaults();
        if (node == null || node.isNull()) {
            return d;
        }
        if (!node.isObject()) {
            throw new IOException(source + ": 'transactions' must be a mapping with keys "
                    + String.join(", ", TRANSACTION_KEYS) + ", got " + describe(node));
        }
        Fields fields = new Fields(source, "transactions.", node, TRANSACTION_KEYS);
        String prefix = fields.text("transactionalIdPrefix", d.transactionalIdPrefix());
        if (prefix.isBlank()) {
            throw new IOException(source + ": 'transactions.transactionalIdPrefix' must not be empty");
        }
        return new TransactionSettings(
                fields.bool("enabled", d.enabled()),
                fields.integer("messagesPerTransaction", d.messagesPerTransaction(), 1, Integer.MAX_VALUE),
                fields.integer("commitIntervalMs", (int) d.commitIntervalMs(), 1, Integer.MAX_VALUE),
                prefix,
                fields.bool("resolveBeforeCommit", d.resolveBeforeCommit()),
                fields.integer("maxRetries", d.maxRetries(), 0, 1000));
    }

    private List<String> rootKeys() {
        List<String> keys = new ArrayList<>(ROOT_KEYS);
        extraRootKeys.stream().sorted().forEach(keys::add);
        return keys;
    }

    private static String describe(JsonNode node) {
        if (node.isObject()) {
            return "a mapping";
        }
        if (node.isArray()) {
            return "a list";
        }
        return "'" + node.asText() + "'";
    }

    /** One mapping's keys, checked against the expected ones before any value is read. */
    private static final class Fields {
        private final String source;
        private final String path;
        private final JsonNode node;

        Fields(String source, String path, JsonNode node, List<String> expected) throws IOException {
            this.source = source;
            this.path = path;
            this.node = node;
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String key = it.next();
                if (!expected.contains(key)) {
                    String hint = KeySuggestions.closest(key, expected).map(s -> " (did you mean '" + s + "'?)").orElse("");
                    throw new IOException(source + ": unknown key '" + path + key + "'" + hint
                            + "; expected " + (path.isEmpty() ? "" : "under '" + path.substring(0, path.length() - 1) + "' ")
                            + "one of: " + String.join(", ", expected));
                }
            }
        }

        String text(String key, String fallback) throws IOException {
            JsonNode value = node.get(key);
            if (value == null || value.isNull()) {
                return fallback;
            }
            if (!value.isValueNode()) {
                throw wrongType(key, "a single value", value);
            }
            return value.asText();
        }

        int integer(String key, int fallback, int min, int max) throws IOException {
            JsonNode value = node.get(key);
            if (value == null || value.isNull()) {
                return fallback;
            }
            long parsed;
            if (value.isIntegralNumber() && value.canConvertToLong()) {
                parsed = value.asLong();
            } else if (value.isTextual() && value.asText().trim().matches("-?\\d{1,18}")) {
                parsed = Long.parseLong(value.asText().trim());
            } else {
                throw wrongType(key, "an integer", value);
            }
            if (parsed < min || parsed > max) {
                throw new IOException(source + ": '" + path + key + "' must be between " + min + " and " + max
                        + ", got " + parsed);
            }
            return (int) parsed;
        }

        boolean bool(String key, boolean fallback) throws IOException {
            JsonNode value = node.get(key);
            if (value == null || value.isNull()) {
                return fallback;
            }
            if (value.isBoolean()) {
                return value.asBoolean();
            }
            if (value.isTextual() && (value.asText().equalsIgnoreCase("true") || value.asText().equalsIgnoreCase("false"))) {
                return Boolean.parseBoolean(value.asText());
            }
            throw wrongType(key, "true or false", value);
        }

        /** A Java-properties text block (OMB's Kafka convention), passed through to kafka-clients untouched. */
        Properties properties(String key) throws IOException {
            JsonNode value = node.get(key);
            Properties properties = new Properties();
            if (value == null || value.isNull()) {
                return properties;
            }
            if (!value.isTextual()) {
                throw wrongType(key, "a Java-properties text block (write 'key: |' and one 'name=value' per line)", value);
            }
            try {
                properties.load(new StringReader(value.asText()));
            } catch (IllegalArgumentException e) {
                throw new IOException(source + ": '" + path + key + "' is not a valid properties block: " + e.getMessage(), e);
            }
            return properties;
        }

        private IOException wrongType(String key, String expected, JsonNode value) {
            return new IOException(source + ": '" + path + key + "' must be " + expected + ", got " + describe(value));
        }
    }
}

package io.ombtx.driver.api.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.ombtx.driver.api.KeySuggestions;
import java.io.IOException;
import java.io.StringReader;
import java.util.Collection;
import java.util.Iterator;
import java.util.Locale;
import java.util.Properties;

/**
 * Typed reads from one mapping of a YAML tree, each failure a {@link ConfigException} naming file, key and
 * expectation. Shared by the runner (workloads, suites, driver files) and the drivers' own strict parsers, so
 * a mistake reads the same wherever it is made.
 *
 * @param file the file's name, for messages
 * @param node the mapping
 * @param prefix the dotted path of this mapping in the file ("" at the top level)
 */
public record ConfigFields(String file, JsonNode node, String prefix) {

    public boolean has(String key) {
        return node.has(key) && !node.get(key).isNull();
    }

    public String path(String key) {
        return prefix.isEmpty() ? key : prefix + "." + key;
    }

    public ConfigException error(String key, String problem) {
        return new ConfigException(file, path(key), problem);
    }

    public long wholeNumber(String key, long fallback, long min, long max) {
        if (!has(key)) {
            return fallback;
        }
        JsonNode value = node.get(key);
        long parsed;
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            parsed = value.asLong();
        } else if (value.isTextual() && value.asText().trim().matches("-?\\d{1,18}")) {
            parsed = Long.parseLong(value.asText().trim());
        } else {
            throw error(key, "expected a whole number, got " + show(value));
        }
        if (parsed < min || parsed > max) {
            throw error(key, "expected a value " + range(min, max) + ", got " + parsed);
        }
        return parsed;
    }

    public int wholeNumber(String key, int fallback, int min, int max) {
        return (int) wholeNumber(key, (long) fallback, min, max);
    }

    public double number(String key, double fallback, double min, double max) {
        if (!has(key)) {
            return fallback;
        }
        JsonNode value = node.get(key);
        double parsed;
        if (value.isNumber()) {
            parsed = value.asDouble();
        } else {
            try {
                parsed = Double.parseDouble(value.asText().trim());
            } catch (NumberFormatException e) {
                throw error(key, "expected a number, got " + show(value));
            }
        }
        if (Double.isNaN(parsed) || parsed < min || parsed > max) {
            throw error(key, "expected a number " + range(min, max) + ", got " + value.asText());
        }
        return parsed;
    }

    public boolean bool(String key, boolean fallback) {
        if (!has(key)) {
            return fallback;
        }
        JsonNode value = node.get(key);
        if (value.isBoolean()) {
            return value.asBoolean();
        }
        String text = value.asText().trim().toLowerCase(Locale.ROOT);
        if (text.equals("true") || text.equals("false")) {
            return Boolean.parseBoolean(text);
        }
        throw error(key, "expected true or false, got " + show(value));
    }

    public String text(String key, String fallback) {
        if (!has(key)) {
            return fallback;
        }
        JsonNode value = node.get(key);
        if (value.isContainerNode()) {
            throw error(key, "expected a single value, got " + (value.isArray() ? "a list" : "a mapping"));
        }
        return value.asText();
    }

    public <E extends Enum<E>> E choice(String key, Class<E> type, E fallback) {
        if (!has(key)) {
            return fallback;
        }
        String raw = text(key, null);
        String normalized = raw.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(normalized)) {
                return constant;
            }
        }
        StringBuilder allowed = new StringBuilder();
        for (E constant : type.getEnumConstants()) {
            allowed.append(allowed.length() == 0 ? "" : " | ").append(constant.name());
        }
        throw error(key, "expected one of " + allowed + ", got '" + raw + "'");
    }

    public ConfigFields block(String key) {
        JsonNode value = node.get(key);
        if (value != null && !value.isNull() && !value.isObject()) {
            throw error(key, "expected a mapping of keys to values, got " + show(value));
        }
        return new ConfigFields(
                file, value == null || value.isNull() ? JsonNodeFactory.instance.objectNode() : value, path(key));
    }

    /** Fails on the first key not in {@code known}, with a did-you-mean when one is close. */
    public ConfigFields onlyKeys(Collection<String> known) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!known.contains(key)) {
                throw error(key, KeySuggestions.unknownKey(key, known));
            }
        }
        return this;
    }

    /**
     * A Java-properties text block (OMB's Kafka convention: {@code key: |} then one {@code name=value} a line), read as
     * kafka-clients reads it, except that a name given twice is refused as a duplicate YAML key is: the client would
     * keep the last value without a word.
     */
    public Properties properties(String key) {
        Properties properties = new Properties();
        if (!has(key)) {
            return properties;
        }
        JsonNode value = node.get(key);
        if (!value.isTextual()) {
            throw error(
                    key,
                    "expected Java-properties text (write '" + key + ": |' and one name=value a line), got "
                            + show(value));
        }
        Properties once = new Properties() {
            @Override
            public synchronized Object put(Object name, Object text) {
                if (containsKey(name)) {
                    throw new GivenTwice((String) name);
                }
                return super.put(name, text);
            }
        };
        try {
            once.load(new StringReader(value.asText()));
        } catch (GivenTwice e) {
            throw new ConfigException(
                    file,
                    path(key) + "." + e.name,
                    "given twice in " + key + " (kafka-clients would keep the last value unseen): give it once");
        } catch (IOException | IllegalArgumentException e) {
            throw error(key, "not valid Java-properties text: " + e.getMessage());
        }
        properties.putAll(once);
        return properties;
    }

    /** A name met a second time while a properties block loads. */
    private static final class GivenTwice extends RuntimeException {
        private final String name;

        GivenTwice(String name) {
            super(name, null, false, false);
            this.name = name;
        }
    }

    private static String range(long min, long max) {
        if (max == Long.MAX_VALUE || max == Integer.MAX_VALUE) {
            return ">= " + min;
        }
        return "from " + min + " to " + max;
    }

    private static String range(double min, double max) {
        if (max == Double.MAX_VALUE) {
            return ">= " + min;
        }
        return "from " + min + " to " + max;
    }

    /** How a value is shown in an error: quoted, or as 'a list' / 'a mapping'. */
    public static String show(JsonNode value) {
        if (value.isArray()) {
            return "a list";
        }
        if (value.isObject()) {
            return "a mapping";
        }
        return "'" + value.asText() + "'";
    }
}

package io.ombtx.runner.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/** Typed reads from a YAML tree, each failure a {@link ConfigException} naming file, key and expectation. */
final class Fields {

    private final String file;
    private final JsonNode node;
    private final String prefix;

    Fields(String file, JsonNode node, String prefix) {
        this.file = file;
        this.node = node;
        this.prefix = prefix;
    }

    boolean has(String key) {
        return node.has(key) && !node.get(key).isNull();
    }

    String path(String key) {
        return prefix.isEmpty() ? key : prefix + "." + key;
    }

    ConfigException error(String key, String problem) {
        return new ConfigException(file, path(key), problem);
    }

    long wholeNumber(String key, long fallback, long min, long max) {
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

    int wholeNumber(String key, int fallback, int min, int max) {
        return (int) wholeNumber(key, (long) fallback, min, max);
    }

    double number(String key, double fallback, double min, double max) {
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

    boolean bool(String key, boolean fallback) {
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

    String text(String key, String fallback) {
        if (!has(key)) {
            return fallback;
        }
        JsonNode value = node.get(key);
        if (value.isContainerNode()) {
            throw error(key, "expected a single value, got " + (value.isArray() ? "a list" : "a mapping"));
        }
        return value.asText();
    }

    <E extends Enum<E>> E choice(String key, Class<E> type, E fallback) {
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

    Fields block(String key) {
        JsonNode value = node.get(key);
        if (value != null && !value.isNull() && !value.isObject()) {
            throw error(key, "expected a mapping of keys to values, got " + show(value));
        }
        return new Fields(file, value == null || value.isNull() ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode() : value, path(key));
    }

    JsonNode raw() {
        return node;
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

    private static String show(JsonNode value) {
        if (value.isArray()) {
            return "a list";
        }
        if (value.isObject()) {
            return "a mapping";
        }
        return "'" + value.asText() + "'";
    }
}

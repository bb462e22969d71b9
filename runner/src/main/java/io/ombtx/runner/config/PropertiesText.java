package io.ombtx.runner.config;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** Java-properties text (a driver's client blocks) read as kafka-clients reads it, and written back so it reads the same. */
final class PropertiesText {

    private PropertiesText() {}

    /**
     * The keys and values of {@code text} in the order keys first appear (the last repeated key's value): every
     * separator Java accepts and continued lines understood, comments dropped.
     *
     * @throws IllegalArgumentException text Java-properties cannot read (a malformed escape)
     */
    static Map<String, String> read(String text) {
        Map<String, String> ordered = new LinkedHashMap<>();
        Properties properties = new Properties() {
            @Override
            public synchronized Object put(Object key, Object value) {
                ordered.put((String) key, (String) value);
                return super.put(key, value);
            }
        };
        try {
            properties.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ordered;
    }

    /** Escapes what Java-properties text would read otherwise: backslashes, line breaks, a key's separators. */
    static String escape(String text, boolean key) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\f' -> out.append("\\f");
                case '=', ':', '#', '!' ->
                    out.append(key || (i == 0 && (c == '#' || c == '!')) ? "\\" : "")
                            .append(c);
                case ' ' -> out.append(key || i == 0 ? "\\ " : " ");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}

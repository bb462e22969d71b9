package io.ombtx.driver.api.config;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads a YAML file into a tree, turning every failure into a {@link ConfigException} naming the file. A key given
 * twice in one mapping is an error: YAML would silently keep the last one.
 */
public final class YamlFiles {

    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory()).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private YamlFiles() {}

    public static ObjectMapper mapper() {
        return YAML;
    }

    public static JsonNode read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file.toString(), null, "file not found");
        } catch (IOException e) {
            throw new ConfigException(file.toString(), null, "cannot read: " + e.getMessage());
        }
        return parse(file.toString(), text);
    }

    public static JsonNode parse(String fileName, String text) {
        try {
            JsonNode root = YAML.readTree(text);
            if (root == null || !root.isObject()) {
                throw new ConfigException(fileName, null, "expected a YAML mapping of keys to values at the top level");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw new ConfigException(fileName, null, "not valid YAML" + describe(e));
        }
    }

    /**
     * Where and what kind of error, never the offending line's text (it may hold a secret): SnakeYAML's messages
     * quote the line, so only its problem description and mark are used, with quoted fragments dropped.
     */
    static String describe(JsonProcessingException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MarkedYAMLException marked) {
                Mark mark = marked.getProblemMark() != null ? marked.getProblemMark() : marked.getContextMark();
                String where =
                        mark == null ? "" : " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
                String problem = marked.getProblem() == null ? "syntax error" : withoutQuotes(marked.getProblem());
                return where + ": " + problem;
            }
        }
        String where = e.getLocation() == null
                ? ""
                : " at line " + e.getLocation().getLineNr() + ", column "
                        + e.getLocation().getColumnNr();
        // Jackson's own messages (a duplicate key) name keys, not values.
        return where + ": " + (e instanceof JsonParseException ? e.getOriginalMessage() : "syntax error");
    }

    /** A quoted fragment of a SnakeYAML problem, read left to right so that {@code ',' or ']'} is two of them. */
    private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"");
    /** SnakeYAML's own token names, e.g. {@code '<block mapping start>'}: never the user's text. */
    private static final Pattern TOKEN = Pattern.compile("<[a-z ]+>");

    /**
     * Keeps SnakeYAML's punctuation and token names ({@code expected ',' or ']'}, {@code '<block end>'}) and
     * replaces every other quoted fragment longer than an (escaped) character, such as a scalar or a tag taken from
     * the user's line, by "(…)".
     */
    static String withoutQuotes(String problem) {
        Matcher m = QUOTED.matcher(problem);
        StringBuilder kept = new StringBuilder();
        while (m.find()) {
            String inner = m.group().substring(1, m.group().length() - 1);
            boolean safe = inner.length() <= 2 || TOKEN.matcher(inner).matches();
            m.appendReplacement(kept, Matcher.quoteReplacement(safe ? m.group() : "(…)"));
        }
        m.appendTail(kept);
        return kept.toString().replaceAll("\\s+", " ").trim();
    }
}

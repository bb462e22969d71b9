package io.ombtx.driver.api.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;

/**
 * Reads a YAML file into a tree, turning every failure into a {@link ConfigException} naming the file. A key given
 * twice in one mapping is an error: YAML would silently keep the last one. Aliases are the values their anchors
 * mark, up to {@link #MAX_VALUES} values in all. A file is at most {@link #MAX_BYTES} long.
 */
public final class YamlFiles {

    /**
     * How deep lists and mappings may be nested in one another, the top-level mapping counting as one: a
     * configuration needs a few levels. Deeper is an error naming the line, not a stack overflow or Jackson's
     * message.
     */
    public static final int MAX_DEPTH = 100;

    /**
     * Both readers of a file, Jackson's tokens and SnakeYAML's events ({@link TreeReader}), with the nesting limit
     * set explicitly. SnakeYAML's own {@link LoaderOptions#setNestingDepthLimit} is enforced by its composer, which
     * neither reader uses, so the limit that acts is Jackson's {@link StreamReadConstraints}; it is set on SnakeYAML
     * too so that the two never disagree.
     */
    private static final LoaderOptions LOADER_OPTIONS = loaderOptions();

    /**
     * The builder, unlike {@code new YAMLFactory()}, leaves {@code EMPTY_STRING_AS_NULL} off, which would read a key
     * with nothing under it (a block whose lines are all comments) as "" rather than null: it is set as the plain
     * factory has it.
     */
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
                    .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
                    .loaderOptions(LOADER_OPTIONS)
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH)
                            .build())
                    .build())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setNestingDepthLimit(MAX_DEPTH);
        return options;
    }

    private YamlFiles() {}

    public static ObjectMapper mapper() {
        return YAML;
    }

    /**
     * The largest YAML file {@link #read} parses: generous for any workload, driver, suite or workers file (the
     * shipped ones are a few KiB), small enough to be parsed in seconds (SnakeYAML's time grows with the square of
     * one value's length: a 50 MB {@code description} once ran for minutes without a word).
     */
    public static final int MAX_BYTES = 1024 * 1024;

    /**
     * Reads {@code file} as UTF-8 YAML: a file above {@link #MAX_BYTES} is refused before any of it is parsed (its
     * size said), as is one that is not a file, or not there.
     */
    public static JsonNode read(Path file) {
        String text;
        try {
            text = utf8(file, bounded(file));
        } catch (NoSuchFileException e) {
            throw new ConfigException(file.toString(), null, "file not found");
        } catch (IOException e) {
            throw new ConfigException(file.toString(), null, "cannot read: " + e.getMessage());
        }
        return parse(file.toString(), text);
    }

    /** The file's bytes, read no further than one byte past {@link #MAX_BYTES} (a pipe or a growing file too). */
    private static byte[] bounded(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                long size = Files.isRegularFile(file) ? Files.size(file) : -1;
                throw new ConfigException(
                        file.toString(),
                        null,
                        "the file is " + (size > MAX_BYTES ? size + " bytes" : "more than " + MAX_BYTES + " bytes")
                                + ", above the limit of " + MAX_BYTES + " bytes (1 MiB) for a YAML file omb-tx"
                                + " reads (is it the file you meant?)");
            }
            return bytes;
        }
    }

    /**
     * {@code bytes} as UTF-8 text; a file that is not (saved as Latin-1, or not text at all) is said to be so, with
     * where its first byte that is not UTF-8 is.
     */
    private static String utf8(Path file, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length); // never more characters than bytes
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder(); // reports malformed input
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int at = in.position();
            int line = 1;
            for (int i = 0; i < at; i++) {
                if (bytes[i] == '\n') {
                    line++;
                }
            }
            throw new ConfigException(
                    file.toString(),
                    null,
                    "not UTF-8 text: byte " + (at + 1) + " (line " + line + ") is not part of a UTF-8 character; a"
                            + " YAML file is read as UTF-8 (was it saved in another encoding?)");
        }
        return out.flip().toString();
    }

    public static JsonNode parse(String fileName, String text) {
        try (YAMLParser parser = (YAMLParser) YAML.getFactory().createParser(text)) {
            JsonNode root;
            try {
                root = parser.nextToken() == null ? null : new TreeReader(fileName, parser, text).value();
            } catch (StreamConstraintsException e) {
                throw new ConfigException(fileName, null, "not valid YAML" + beyondLimits(parser, e));
            }
            if (root == null || !root.isObject()) {
                throw new ConfigException(fileName, null, "expected a YAML mapping of keys to values at the top level");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw new ConfigException(fileName, null, "not valid YAML" + describe(e));
        } catch (IOException e) {
            throw new ConfigException(fileName, null, "cannot read: " + e.getMessage());
        }
    }

    /** The most values a file may hold once its aliases are expanded: a "billion laughs" file stops here. */
    static final int MAX_VALUES = 1_000_000;

    /**
     * Builds the tree token by token so that a YAML alias ({@code *quick}) is the value its anchor
     * ({@code &quick}) marked, as YAML means it, and a merge key ({@code <<: *quick}) adds the anchored mapping's keys
     * the mapping does not set itself. (Jackson's own tree reader gives an alias as the text of the anchor's name.)
     */
    private static final class TreeReader {
        private final String fileName;
        private final YAMLParser parser;
        private final Iterator<Event> events;
        private final Map<String, JsonNode> anchors = new HashMap<>();
        private long values;

        /**
         * {@code text}'s node events, read alongside {@code parser}'s tokens (Jackson reads them from the same
         * SnakeYAML parser, one token per node event): Jackson reports the anchors of mappings and lists but not of
         * single values, so anchors are taken from the events.
         */
        TreeReader(String fileName, YAMLParser parser, String text) {
            this.fileName = fileName;
            this.parser = parser;
            this.events = new Yaml(LOADER_OPTIONS).parse(new StringReader(text)).iterator();
        }

        /** The anchor of the node event of the current token (a key or a value); null when none. */
        private String anchorOfCurrent() {
            while (events.hasNext()) {
                Event event = events.next();
                if (event instanceof NodeEvent node) {
                    return node.getAnchor();
                }
            }
            return null;
        }

        /** The value starting at the current token. */
        JsonNode value() throws IOException {
            String anchor = anchorOfCurrent();
            if (parser.isCurrentAlias()) {
                String name = parser.getText();
                JsonNode anchored = anchors.get(name);
                if (anchored == null) {
                    throw new ConfigException(
                            fileName,
                            null,
                            "not valid YAML" + at(parser.currentTokenLocation()) + ": alias *" + name
                                    + " names no anchor (&" + name + ") before it");
                }
                count(size(anchored));
                return anchored.deepCopy();
            }
            JsonNode node;
            switch (parser.currentToken()) {
                case START_OBJECT -> {
                    ObjectNode object = JsonNodeFactory.instance.objectNode();
                    ObjectNode merged = JsonNodeFactory.instance.objectNode();
                    while (parser.nextToken() == JsonToken.FIELD_NAME) {
                        String key = parser.currentName();
                        anchorOfCurrent(); // the key's own event
                        JsonLocation where = parser.currentTokenLocation();
                        parser.nextToken();
                        JsonNode value = value();
                        if (key.equals("<<") && value.isObject()) {
                            value.fields().forEachRemaining(e -> merged.putIfAbsent(e.getKey(), e.getValue()));
                        } else if (object.has(key)) {
                            throw new ConfigException(
                                    fileName, null, "not valid YAML" + at(where) + ": Duplicate field '" + key + "'");
                        } else {
                            object.set(key, value);
                        }
                    }
                    merged.fields().forEachRemaining(e -> object.putIfAbsent(e.getKey(), e.getValue()));
                    node = object;
                }
                case START_ARRAY -> {
                    ArrayNode array = JsonNodeFactory.instance.arrayNode();
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        array.add(value());
                    }
                    node = array;
                }
                case VALUE_NUMBER_INT ->
                    node = switch (parser.getNumberType()) {
                        case INT -> JsonNodeFactory.instance.numberNode(parser.getIntValue());
                        case LONG -> JsonNodeFactory.instance.numberNode(parser.getLongValue());
                        default -> JsonNodeFactory.instance.numberNode(parser.getBigIntegerValue());
                    };
                case VALUE_NUMBER_FLOAT -> node = JsonNodeFactory.instance.numberNode(parser.getDoubleValue());
                case VALUE_TRUE -> node = JsonNodeFactory.instance.booleanNode(true);
                case VALUE_FALSE -> node = JsonNodeFactory.instance.booleanNode(false);
                case VALUE_NULL -> node = JsonNodeFactory.instance.nullNode();
                default -> node = JsonNodeFactory.instance.textNode(parser.getText());
            }
            count(1);
            if (anchor != null) {
                anchors.put(anchor, node);
            }
            return node;
        }

        private void count(long more) {
            values += more;
            if (values > MAX_VALUES) {
                throw new ConfigException(
                        fileName,
                        null,
                        "more than " + MAX_VALUES + " values once its aliases are expanded (a file that expands"
                                + " without bound?)");
            }
        }

        private static long size(JsonNode node) {
            long n = 1;
            for (JsonNode child : node) {
                n += size(child);
            }
            return n;
        }

        private static String at(JsonLocation where) {
            return where == null ? "" : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
        }
    }

    /**
     * Where the parser stopped, and why: nested deeper than {@link #MAX_DEPTH}, or another of Jackson's limits (its
     * message names the limit, not the user's text).
     */
    private static String beyondLimits(YAMLParser parser, StreamConstraintsException e) {
        JsonLocation where = parser.currentLocation();
        String at = where == null || where.getLineNr() < 1
                ? ""
                : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
        if (parser.getParsingContext().getNestingDepth() >= MAX_DEPTH) {
            return at + ": lists and mappings nested more than " + MAX_DEPTH
                    + " deep (a configuration needs a few levels)";
        }
        return at + ": " + e.getOriginalMessage().replaceAll(", from `[^`]*`", "");
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

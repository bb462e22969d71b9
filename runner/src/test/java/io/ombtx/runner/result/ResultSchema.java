package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.ombtx.runner.OmbTxHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The result file's definition, {@code docs/result.schema.json}, for tests: whether a result (a file, a tree, JSON
 * text) is valid, and if not where and why. Tests of the runner and of real runs (runner-kafka) use it alike.
 */
public final class ResultSchema {

    /** The schema file, from the repository's root. */
    public static final String FILE = "docs/result.schema.json";

    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static Schema schema;
    private static JsonNode tree;

    private ResultSchema() {}

    public static Path file() {
        return OmbTxHome.locate().resolve(FILE);
    }

    /** The schema as JSON. */
    public static synchronized JsonNode tree() {
        if (tree == null) {
            try {
                tree = ResultWriter.json().readTree(Files.readString(file()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file(), e);
            }
        }
        return tree;
    }

    private static synchronized Schema schema() {
        if (schema == null) {
            schema = REGISTRY.getSchema(tree());
        }
        return schema;
    }

    /** What is wrong with {@code result}, one line each ({@code /json/pointer: message}); empty when it is valid. */
    public static List<String> violations(JsonNode result) {
        return schema().validate(result).stream().map(ResultSchema::line).toList();
    }

    static String line(Error error) {
        String where = error.getInstanceLocation().toString();
        return (where.isEmpty() ? "/" : where) + ": " + error.getMessage();
    }

    public static List<String> violations(Path file) {
        try {
            return violations(ResultWriter.json().readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Fails, naming {@code what} and every violation, unless {@code result} is valid. */
    public static void assertValid(JsonNode result, String what) {
        assertEquals(List.of(), violations(result), what + " is not valid against " + FILE);
    }

    public static void assertValid(String resultJson, String what) {
        try {
            assertValid(ResultWriter.json().readTree(resultJson), what);
        } catch (IOException e) {
            throw new UncheckedIOException(what + " is not JSON", e);
        }
    }

    public static void assertValid(Path file) {
        assertEquals(List.of(), violations(file), file + " is not valid against " + FILE);
    }

    public static void assertValid(RunResult result, String what) {
        assertValid(ResultWriter.json().valueToTree(result), what);
    }

    /**
     * Fails unless {@code value}, written where {@code member} goes in a real result (a recorded fixture's, with
     * {@code member} replaced), makes a valid file: a part of a result checked as the schema defines it in place.
     */
    public static void assertValidAs(String member, Object value) {
        ObjectNode result;
        try (var in = ResultSchema.class.getResourceAsStream("/recorded-results/tx-streaming.json")) {
            result = (ObjectNode) ResultWriter.json().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        result.set(member, ResultWriter.json().valueToTree(value));
        assertValid(result, member + " " + result.get(member));
    }
}

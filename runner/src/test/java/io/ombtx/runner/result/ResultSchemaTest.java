package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.ombtx.driver.api.Phase;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.search.MaxRateSearch;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/result.schema.json, the definition of the result file, checked against what exists: every result file in the
 * repository (real runs' and hand-made fixtures, old and new) and results the runner builds afresh are valid; the
 * schema names exactly the fields, types and enum names of the Java model ({@link ResultModelShape}); and it rejects
 * what it should, where it should.
 */
class ResultSchemaTest {

    /** Folders that hold no committed file: build output, virtual environments, git's, and results/ (ignored). */
    private static final Set<String> SKIPPED = Set.of("target", "results", "node_modules", "__pycache__");
    /** Broken on purpose: the charts' loader must reject what is there. */
    static final Path INVALID = Path.of("charts/tests/fixtures/invalid");

    /**
     * Every result file in the repository: each {@code *.json} whose top level is an object with a schemaVersion,
     * but for a Grafana dashboard (deploy/grafana/), which has one of its own beside its panels.
     */
    static List<Path> resultFiles() {
        Path root = OmbTxHome.locate();
        List<Path> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json") && Files.isRegularFile(f))
                    .sorted()
                    .toList()) {
                Path relative = root.relativize(file);
                boolean skipped = false;
                for (int i = 0; i < relative.getNameCount() - 1; i++) {
                    String folder = relative.getName(i).toString();
                    skipped |= folder.startsWith(".") || SKIPPED.contains(folder);
                }
                if (!skipped && !relative.startsWith(INVALID) && isResult(file)) {
                    found.add(file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    private static boolean isResult(Path file) {
        try {
            JsonNode tree = ResultWriter.json().readTree(file.toFile());
            return tree != null && tree.isObject() && tree.has("schemaVersion") && !tree.has("panels");
        } catch (IOException notJson) {
            return false; // a deliberately broken fixture (charts/tests/fixtures/invalid/)
        }
    }

    @Test
    void theSchemaIsADraft202012Schema() {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
        var meta = registry.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
        assertEquals(
                List.of(),
                meta.validate(ResultSchema.tree()).stream()
                        .map(ResultSchema::line)
                        .toList());
        assertEquals(
                "https://json-schema.org/draft/2020-12/schema",
                ResultSchema.tree().get("$schema").asText());
    }

    @Test
    void everyResultFileInTheRepositoryIsValid() {
        List<Path> files = resultFiles();
        Path root = OmbTxHome.locate();
        Set<String> folders = new TreeSet<>();
        files.forEach(f -> folders.add(root.relativize(f.getParent()).toString()));
        assertTrue(files.size() >= 150, "the result files were found: " + files.size() + " in " + folders);
        assertTrue(
                folders.containsAll(List.of(
                        "runner/src/test/resources/recorded-results",
                        "runner/src/test/resources/real-results",
                        "charts/tests/fixtures/result-json",
                        "charts/tests/fixtures/eos-matrix")),
                folders.toString());
        StringBuilder report = new StringBuilder();
        for (Path file : files) {
            List<String> violations = ResultSchema.violations(file);
            if (!violations.isEmpty()) {
                report.append('\n').append(root.relativize(file)).append(":\n  ");
                report.append(String.join("\n  ", violations));
            }
        }
        assertEquals("", report.toString(), "result files not valid against " + ResultSchema.FILE);
    }

    @Test
    void theChartsFixtureThatBreaksTheSchemaIsRejectedHereToo() {
        Path broken = OmbTxHome.locate().resolve(INVALID).resolve("schema-violation.json");
        List<String> violations = ResultSchema.violations(broken);
        assertTrue(
                violations.stream().anyMatch(v -> v.startsWith("/runMode/loop: "))
                        && violations.stream().anyMatch(v -> v.startsWith("/counts/committed: ")),
                violations.toString());
    }

    static List<RecordedResultsTest.Recorded> recorded() {
        return RecordedResultsTest.recorded();
    }

    @ParameterizedTest
    @MethodSource("recorded")
    void aResultBuiltAfreshFromARecordedRunIsValid(RecordedResultsTest.Recorded run) throws Exception {
        RunResult fresh = RecordedResultsTest.rebuild(run);
        ResultSchema.assertValid(ResultWriter.json().writeValueAsString(fresh), "the rebuilt " + run);
    }

    /**
     * Every property path of the schema, in its order, with the schema that describes it ({@code $ref}s followed):
     * object keys joined by dots; an array's items have the array's path, a map's values the map's path plus
     * {@code .*}.
     */
    static Map<String, JsonNode> schemaPaths(JsonNode schema) {
        Map<String, JsonNode> paths = new LinkedHashMap<>();
        collect(schema, schema, "", paths);
        return paths;
    }

    static JsonNode resolve(JsonNode root, JsonNode node) {
        while (node.has("$ref")) {
            String ref = node.get("$ref").asText();
            if (!ref.startsWith("#/")) {
                throw new IllegalArgumentException("only local references are followed: " + ref);
            }
            node = root.at(ref.substring(1));
        }
        return node;
    }

    private static void collect(JsonNode root, JsonNode node, String path, Map<String, JsonNode> paths) {
        node = resolve(root, node);
        if (node.has("properties")) {
            node.get("properties").fields().forEachRemaining(member -> {
                String at = path.isEmpty() ? member.getKey() : path + "." + member.getKey();
                paths.put(at, resolve(root, member.getValue()));
                collect(root, member.getValue(), at, paths);
            });
        }
        if (node.has("items") && node.get("items").isObject()) {
            collect(root, node.get("items"), path, paths);
        }
        if (node.has("additionalProperties") && node.get("additionalProperties").isObject()) {
            collect(root, node.get("additionalProperties"), path + ".*", paths);
        }
    }

    /** The JSON types a property's schema allows ({@code const}'s type when it has no type). */
    private static Set<String> types(JsonNode property) {
        Set<String> types = new TreeSet<>();
        JsonNode type = property.get("type");
        if (type == null && property.has("const")) {
            types.add(
                    property.get("const").isIntegralNumber()
                            ? "integer"
                            : property.get("const").isTextual() ? "string" : "?");
        } else if (type != null && type.isArray()) {
            type.forEach(t -> types.add(t.asText()));
        } else if (type != null) {
            types.add(type.asText());
        }
        return types;
    }

    private static List<String> enumOf(JsonNode root, JsonNode property) {
        JsonNode described = property;
        if (property.has("items")) {
            described = resolve(root, property.get("items"));
        }
        if (!described.has("enum")) {
            return null;
        }
        List<String> names = new ArrayList<>();
        described.get("enum").forEach(n -> names.add(n.asText()));
        return names;
    }

    @Test
    void theSchemaNamesEveryFieldOfTheModelAndNoOther() {
        Map<String, ResultModelShape.Property> model = ResultModelShape.properties();
        Map<String, JsonNode> schema = schemaPaths(ResultSchema.tree());
        Set<String> schemaFields = new TreeSet<>(schema.keySet());
        // A map's free keys are not fields; environment's phaseSequences is the one the runner itself adds.
        schemaFields.removeIf(p -> p.endsWith(".*") || p.equals("environment.phaseSequences"));
        Set<String> onlyInSchema = new TreeSet<>(schemaFields);
        onlyInSchema.removeAll(model.keySet());
        Set<String> onlyInModel = new TreeSet<>(model.keySet());
        onlyInModel.removeAll(schemaFields);
        assertEquals(Set.of(), onlyInModel, "fields the runner writes that the schema does not name");
        assertEquals(Set.of(), onlyInSchema, "fields the schema names that the runner does not write");
        assertEquals(
                List.copyOf(model.keySet()),
                schema.keySet().stream().filter(model::containsKey).toList(),
                "the schema lists the fields in the file's order");
    }

    @Test
    void theSchemasTypesAndEnumNamesAreTheModels() {
        JsonNode root = ResultSchema.tree();
        Map<String, JsonNode> schema = schemaPaths(root);
        List<String> wrong = new ArrayList<>();
        ResultModelShape.properties().forEach((path, field) -> {
            JsonNode property = schema.get(path);
            if (property == null) {
                return; // a field the schema does not name: theSchemaNamesEveryFieldOfTheModelAndNoOther says so
            }
            Set<String> modelTypes = new TreeSet<>(field.types());
            Set<String> schemaTypes = types(property);
            // The model may hold null where the runner never writes it (a description, an environment): the schema
            // says where null is written; fresh results and real files check that.
            modelTypes.remove("null");
            schemaTypes.remove("null");
            if (!modelTypes.equals(schemaTypes)) {
                wrong.add(path + ": the model writes " + modelTypes + ", the schema allows " + schemaTypes);
            }
            List<String> names = enumOf(root, property);
            if (field.names() != null && !field.names().equals(names)) {
                wrong.add(path + ": the model's names " + field.names() + ", the schema's " + names);
            }
            // An omitted member is absent, never null: the schema allows null only where the model may write it.
            if (types(property).contains("null")
                    && (field.omittable() || !field.types().contains("null"))) {
                wrong.add(path + ": the schema allows null, which the model never writes");
            }
        });
        assertEquals(List.of(), wrong);
    }

    @Test
    void theNamesOfPhasesHistogramsAndSearchStagesAreTheRunnersOwn() {
        JsonNode root = ResultSchema.tree();
        List<String> phases = Arrays.stream(Phase.values()).map(Phase::key).toList();
        assertEquals(phases, texts(root.at("/$defs/phase/enum")), "scenario.phaseSequence, transactionPhases");
        assertEquals(
                "#/$defs/phase",
                root.at("/properties/transactionPhases/propertyNames/$ref").asText());
        List<String> histograms = new ArrayList<>();
        for (Latency latency : Latency.values()) {
            histograms.add(latency == Latency.MESSAGES_PER_TRANSACTION ? latency.key() : latency.key() + "Micros");
        }
        phases.forEach(p -> histograms.add(StatsSnapshot.PHASE_PREFIX + p));
        assertEquals(
                new TreeSet<>(histograms),
                new TreeSet<>(texts(root.at("/properties/histograms/propertyNames/enum"))),
                "histogram names as ResultBuilder makes them");
        List<String> stages = Arrays.stream(MaxRateSearch.Stage.values())
                .filter(s -> s != MaxRateSearch.Stage.DONE)
                .map(s -> s.name().toLowerCase(Locale.ROOT))
                .toList();
        assertEquals(stages, texts(root.at("/$defs/probe/properties/stage/enum")));
        assertEquals(
                List.of(RunResult.Host.LOOPBACK, RunResult.Host.NETWORK),
                texts(root.at("/properties/host/properties/network/enum")));
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }

    private static ObjectNode aValidResult() throws IOException {
        try (var in = ResultSchemaTest.class.getResourceAsStream("/recorded-results/tx-publish-open.json")) {
            ObjectNode result = (ObjectNode) ResultWriter.json().readTree(in);
            ResultSchema.assertValid(result, "the fixture");
            return result;
        }
    }

    private static void assertRejectedAt(ObjectNode result, String pointer, String mentioning) {
        List<String> violations = ResultSchema.violations(result);
        assertTrue(
                violations.stream().anyMatch(v -> v.startsWith(pointer + ": ") && v.contains(mentioning)),
                "a violation at " + pointer + " mentioning " + mentioning + ": " + violations);
    }

    @Test
    void aBrokenResultIsRejectedWhereItIsBroken() throws Exception {

        ObjectNode unknown = aValidResult();
        unknown.put("surprise", 1);
        assertRejectedAt(unknown, "/", "surprise");

        ObjectNode status = aValidResult();
        status.put("status", "done");
        assertRejectedAt(status, "/status", "enumeration");

        ObjectNode missing = aValidResult();
        missing.remove("counts");
        assertRejectedAt(missing, "/", "counts");

        ObjectNode loop = aValidResult();
        ((ObjectNode) loop.get("runMode")).put("loop", "ajar");
        assertRejectedAt(loop, "/runMode/loop", "enumeration");

        ObjectNode nested = aValidResult();
        ((ObjectNode) nested.get("counts")).put("committed", "many");
        assertRejectedAt(nested, "/counts/committed", "string");

        ObjectNode phase = aValidResult();
        ((ObjectNode) phase.get("transactionPhases")).set("lunch", phase.get("operationLatency"));
        assertRejectedAt(phase, "/transactionPhases", "lunch");

        ObjectNode fault = aValidResult();
        ArrayNode faults = fault.putArray("faults");
        faults.addObject().put("fault", "faults[0]").put("action", "explode").put("target", "broker");
        assertRejectedAt(fault, "/faults/0/action", "enumeration");

        ObjectNode time = aValidResult();
        time.put("startTime", "yesterday");
        assertRejectedAt(time, "/startTime", "pattern");
    }
}

package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.Phase;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.stats.Histograms;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Real result files read into the typed model and written back: nothing is lost, nothing changes. The files in
 * {@code real-results/} were written by the map-based builder (see their README); those in charts' real fixtures by
 * an older runner, before some fields existed.
 */
class RunResultFixturesTest {

    static final Path REAL_RESULTS = resource("/real-results");
    private static final ObjectMapper JSON = ResultWriter.json();
    /** Objects the map-based builder wrote with {@code Map.of}, whose key order varied from run to run. */
    private static final Map<String, List<String>> UNORDERED = Map.of(
            "/sweep", List.of("name", "parameter", "value"),
            "/runMode/warmup", List.of("seconds", "operations", "messages"),
            "/runMode/measure", List.of("seconds", "operations", "messages"));

    private static Path resource(String name) {
        try {
            return Path.of(RunResultFixturesTest.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> jsonFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    private static Path realFile(String prefix) throws Exception {
        List<Path> matches = jsonFiles(REAL_RESULTS).stream()
                .filter(p -> p.getFileName().toString().startsWith(prefix))
                .toList();
        assertEquals(1, matches.size(), prefix + ": " + matches);
        return matches.get(0);
    }

    /**
     * A file of the map-based builder as the typed model writes it: the objects at {@link #UNORDERED} paths in the
     * documented key order, and {@code summary.millisPerMessage} (the same value as the deprecated
     * {@code averageLatencyMillisPerMessage}) added just before the deprecated name.
     */
    private static JsonNode asTheModelWritesIt(JsonNode node) {
        ObjectNode copy = node.deepCopy();
        ObjectNode summary = JSON.createObjectNode();
        copy.get("summary").fields().forEachRemaining(field -> {
            if (field.getKey().equals("averageLatencyMillisPerMessage")) {
                summary.set("millisPerMessage", field.getValue());
            }
            summary.set(field.getKey(), field.getValue());
        });
        copy.set("summary", summary);
        UNORDERED.forEach((path, order) -> {
            JsonNode at = copy.at(path);
            if (at.isObject()) {
                ObjectNode ordered = JSON.createObjectNode();
                order.stream().filter(at::has).forEach(key -> ordered.set(key, at.get(key)));
                assertEquals(at.size(), ordered.size(), path + " has only the documented keys");
                int slash = path.lastIndexOf('/');
                ((ObjectNode) copy.at(path.substring(0, slash))).set(path.substring(slash + 1), ordered);
            }
        });
        return copy;
    }

    @Test
    void realResultsReadIntoTheModelAndWriteBackTheSame() throws Exception {
        List<Path> files = jsonFiles(REAL_RESULTS);
        assertEquals(5, files.size());
        for (Path file : files) {
            String original = Files.readString(file);
            JsonNode originalTree = JSON.readTree(original);
            // The file is what Jackson's pretty printer writes for its own tree: bytes can be compared through it.
            assertEquals(original, JSON.writeValueAsString(originalTree), file.toString());

            RunResult result = ResultReader.read(file);
            String rewritten = JSON.writeValueAsString(result);
            JsonNode expected = asTheModelWritesIt(originalTree);
            assertEquals(expected, JSON.readTree(rewritten), file + ": same JSON tree");
            assertEquals(
                    JSON.writeValueAsString(expected),
                    rewritten,
                    file + ": same bytes once Map.of's varying key order is put in the documented order");
        }
    }

    @Test
    void typedMembersHoldWhatTheFilesSay() throws Exception {
        JsonNode raw = JSON.readTree(realFile("tx-streaming").toFile());
        RunResult stream = ResultReader.read(realFile("tx-streaming"));
        assertEquals(OperationKind.STREAM, stream.scenario().kind());
        assertTrue(stream.scenario().transactional());
        assertEquals(
                List.of(Phase.BEGIN, Phase.SEND, Phase.RESOLVE, Phase.SEND_OFFSETS, Phase.COMMIT, Phase.TRANSACTION),
                List.copyOf(stream.transactionPhases().keySet()));
        assertEquals(
                raw.at("/transactionPhases/commit/p99").asDouble(),
                stream.transactionPhases().get(Phase.COMMIT).p99());
        assertEquals(
                raw.at("/exactlyOnce/checked").asLong(), stream.exactlyOnce().checked());
        assertTrue(stream.exactlyOnce().passed());
        assertEquals(
                raw.at("/counts/messagesProcessed").asLong(), stream.counts().messagesProcessed());
        assertEquals(
                raw.at("/operationLatency/totalMillis").asDouble(),
                stream.operationLatency().totalMillis());
        assertEquals(
                raw.at("/summary/averageLatencyMillisPerMessage").asDouble(),
                stream.summary().millisPerMessage());
        assertEquals(
                RunResult.RunLength.operations(
                        raw.at("/runMode/measure/operations").asLong(),
                        raw.at("/runMode/measure/messages").asLong()),
                stream.runMode().measure());
        assertEquals(raw.at("/startTime").asText(), stream.startTime().toString());
        assertEquals(
                stream.operationLatency().count(),
                Histograms.decode(stream.histograms().get("operationLatencyMicros"))
                        .getTotalCount());

        JsonNode rawSweep = JSON.readTree(realFile("rps-sweep-1000").toFile());
        RunResult sweep = ResultReader.read(realFile("rps-sweep-1000"));
        assertEquals(new RunResult.Sweep("rps-sweep", "producerRate", "1000"), sweep.sweep());
        assertEquals(RunResult.Loop.OPEN, sweep.runMode().loop());
        assertEquals(1000L, sweep.runMode().targetRate());
        assertEquals(
                rawSweep.at("/aggregatedPublishDelayLatency99pct").asLong(),
                sweep.aggregatedPublishDelayLatency().p99());
        assertEquals(
                rawSweep.at("/aggregatedPublishDelayLatencyAvg").asDouble(),
                sweep.aggregatedPublishDelayLatency().avg());
        assertEquals(
                rawSweep.at("/aggregatedEndToEndLatencyQuantiles/99.9").asDouble(),
                sweep.aggregatedEndToEndLatencyQuantiles().get(99.9));
        assertEquals(
                rawSweep.at("/aggregatedPublishDelayLatencyQuantiles/25.0").asLong(),
                sweep.aggregatedPublishDelayLatencyQuantiles().get(25.0));
        List<Double> rawP50 = new ArrayList<>();
        rawSweep.get("publishLatency50pct").forEach(v -> rawP50.add(v.asDouble()));
        assertEquals(rawP50, sweep.publishLatency().p50());
        assertTrue(sweep.transactionPhases().isEmpty());

        RunResult plain = ResultReader.read(realFile("base-writes"));
        assertEquals(
                List.of(Phase.SEND, Phase.RESOLVE),
                List.copyOf(plain.transactionPhases().keySet()),
                "no 'transaction' for a non-transactional write");
        assertNull(plain.exactlyOnce());
        assertNull(plain.sweep());

        RunResult timed = ResultReader.read(realFile("time-based-open"));
        assertEquals(RunResult.RunLength.seconds(2), timed.runMode().warmup());
        assertEquals(RunResult.RunLength.seconds(6), timed.runMode().measure());
        assertEquals(
                timed.periods().elapsedSeconds().size(), timed.publishRate().size());

        RunResult partial = ResultReader.read(realFile("interrupted-tx-writes"));
        assertEquals(RunResult.Status.PARTIAL, partial.status());
        assertEquals("interrupted by SIGINT", partial.partialReason());
        assertTrue(partial.broker().embedded());
        assertEquals(partial.broker().version(), partial.versions().broker());
        assertEquals("5", partial.broker().settings().get("group.coordinator.append.linger.ms"));
    }

    @Test
    void theSummaryReadsTheNewNameAndFallsBackToTheDeprecatedOne() throws Exception {
        String both = "{\"durationSeconds\": 2.0, \"messagesPerSecond\": 500.0, \"operationsPerSecond\": 250.0,"
                + " \"millisPerMessage\": 2.0, \"averageLatencyMillisPerMessage\": 9.0}";
        assertEquals(2.0, JSON.readValue(both, RunResult.Summary.class).millisPerMessage(), "the new name wins");
        String oldOnly = "{\"durationSeconds\": 2.0, \"messagesPerSecond\": 500.0, \"operationsPerSecond\": 250.0,"
                + " \"averageLatencyMillisPerMessage\": 2.0}";
        assertEquals(2.0, JSON.readValue(oldOnly, RunResult.Summary.class).millisPerMessage());
        String newOnly = "{\"durationSeconds\": 2.0, \"messagesPerSecond\": 500.0, \"operationsPerSecond\": 250.0,"
                + " \"millisPerMessage\": 2.0}";
        RunResult.Summary summary = JSON.readValue(newOnly, RunResult.Summary.class);
        assertEquals(new RunResult.Summary(2.0, 500.0, 250.0, 2.0), summary);
        assertEquals(
                List.of(
                        "durationSeconds",
                        "messagesPerSecond",
                        "operationsPerSecond",
                        "millisPerMessage",
                        "averageLatencyMillisPerMessage"),
                fieldNames(JSON.readTree(JSON.writeValueAsString(summary))));
        assertNull(JSON.readValue(
                        "{\"durationSeconds\": 2.0, \"messagesPerSecond\": 0.0, \"operationsPerSecond\": 0.0,"
                                + " \"millisPerMessage\": null, \"averageLatencyMillisPerMessage\": null}",
                        RunResult.Summary.class)
                .millisPerMessage());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** Equal, numbers compared by value: the older runner wrote publish delay's average as a whole number. */
    private static final Comparator<JsonNode> NUMERIC = (a, b) ->
            a.isNumber() && b.isNumber() ? Double.compare(a.doubleValue(), b.doubleValue()) : a.equals(b) ? 0 : 1;

    @Test
    void olderRunnerFilesReadWithoutLosingAField() throws Exception {
        Path charts = OmbTxHome.locate().resolve("charts/tests/fixtures/real");
        List<Path> runnerFiles = new ArrayList<>();
        for (Path file : jsonFiles(charts)) {
            if (JSON.readTree(file.toFile()).has("schemaVersion")) {
                runnerFiles.add(file);
            }
        }
        assertEquals(13, runnerFiles.size(), "charts' real set has 13 runner files");
        for (Path file : runnerFiles) {
            JsonNode original = JSON.readTree(file.toFile());
            RunResult result = ResultReader.read(file);
            ObjectNode rewritten = (ObjectNode) JSON.readTree(JSON.writeValueAsString(result));
            // Fields that runner did not write yet: messagesProcessed reads as 0, millisPerMessage from its old name.
            assertFalse(original.at("/counts").has("messagesProcessed"), file.toString());
            assertEquals(
                    0,
                    ((ObjectNode) rewritten.get("counts"))
                            .remove("messagesProcessed")
                            .asLong());
            assertFalse(original.at("/summary").has("millisPerMessage"), file.toString());
            assertEquals(
                    original.at("/summary/averageLatencyMillisPerMessage"),
                    ((ObjectNode) rewritten.get("summary")).remove("millisPerMessage"));
            assertTrue(original.equals(NUMERIC, rewritten), file + ":\n" + original + "\n" + rewritten);
            assertEquals(
                    original.at("/operationLatency/p50").asDouble(Double.NaN),
                    result.operationLatency().count() == 0
                            ? Double.NaN
                            : result.operationLatency().p50());
            assertEquals(
                    original.get("aggregatedPublishLatency99pct").asDouble(),
                    result.aggregatedPublishLatency().p99());
            Iterator<String> phases = original.get("transactionPhases").fieldNames();
            for (Phase phase : result.transactionPhases().keySet()) {
                assertEquals(phases.next(), phase.key(), file + ": phases in the file's order");
            }
        }
    }
}

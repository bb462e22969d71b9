package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.SuiteMain;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A shipped suite's quick profile run for real by bin/benchmark-suite, its exit code 0 asserted.
 *
 * @param log the console
 * @param runs each result written, by file name
 */
record QuickSuite(String log, List<RunResult> runs) {

    /** Runs {@code suite} (from the repository's root) with its results in {@code results}. */
    static QuickSuite run(String suite, Path results) throws Exception {
        return runFile(OmbTxHome.locate().resolve(suite), results);
    }

    /**
     * Runs the entries of {@code suite} named {@code entries} (its {@code runs[].name}), in the suite's order: a copy
     * of the suite holding only those, written into {@code results}.
     */
    static QuickSuite runEntries(String suite, Path results, List<String> entries) throws Exception {
        YAMLMapper yaml = new YAMLMapper();
        ObjectNode whole =
                (ObjectNode) yaml.readTree(OmbTxHome.locate().resolve(suite).toFile());
        ArrayNode kept = whole.putArray("runs");
        List<String> found = new ArrayList<>();
        for (JsonNode run :
                yaml.readTree(OmbTxHome.locate().resolve(suite).toFile()).get("runs")) {
            if (entries.contains(run.path("name").asText())) {
                kept.add(run);
                found.add(run.get("name").asText());
            }
        }
        assertEquals(entries.stream().sorted().toList(), found.stream().sorted().toList(), suite + "'s entries");
        Path part = results.resolve("suite.yaml");
        yaml.writeValue(part.toFile(), whole);
        return runFile(part, results);
    }

    private static QuickSuite runFile(Path suite, Path results) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = SuiteMain.run(
                new String[] {"--profile", "quick", "-o", results.toString(), suite.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        List<RunResult> runs = new ArrayList<>();
        try (Stream<Path> files = Files.list(results)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                runs.add(ResultReader.read(file));
            }
        }
        return new QuickSuite(log, runs);
    }
}

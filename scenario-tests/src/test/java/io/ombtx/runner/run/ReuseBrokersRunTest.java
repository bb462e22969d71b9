package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.SuiteMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reuseBrokers} in a suite: two entries on the same embedded set-up, each an interleaved pair repeated twice,
 * run on one cluster started once (across the entries too); every run completes on its own topics, and each result
 * says which run on the cluster it was. The dry run counts the cluster starts the run then makes.
 */
@Tag("integration")
class ReuseBrokersRunTest {

    @TempDir
    Path dir;

    @Test
    void eightRunsOfTwoEntriesShareOneClusterStartedOnce() throws Exception {
        Path home = OmbTxHome.locate();
        Path suite = dir.resolve("reuse.yaml");
        Files.writeString(
                suite,
                String.join(
                        "\n",
                        "name: reuse",
                        "profile: quick",
                        "repeat: 2",
                        "interleave: true",
                        "reuseBrokers: {quick: true}",
                        "runs:",
                        "  - name: writes",
                        "    driver: " + home.resolve("driver-kafka-tx/kafka-tx.yaml"),
                        "    workloads: [" + home.resolve("workloads/base-writes.yaml") + ", "
                                + home.resolve("workloads/tx-writes.yaml") + "]",
                        "  - name: send-offsets",
                        "    driver: " + home.resolve("driver-kafka-tx/kafka-tx.yaml"),
                        "    workloads: [" + home.resolve("workloads/tx-send-offsets.yaml") + ", "
                                + home.resolve("workloads/tx-fetch.yaml") + "]",
                        ""));

        String[] dry = suite("--dry-run", suite.toString());
        assertEquals("0", dry[0], dry[2]);
        assertTrue(dry[1].contains("1 embedded cluster start(s) for 8 run(s)"), dry[1]);

        Path results = dir.resolve("results");
        String[] run = suite("-o", results.toString(), suite.toString());
        assertEquals("0", run[0], run[1] + run[2]);
        Matcher starts = Pattern.compile("Starting embedded Kafka").matcher(run[1]);
        int started = 0;
        while (starts.find()) {
            started++;
        }
        assertEquals(1, started, run[1]);

        List<JsonNode> written = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        try (Stream<Path> files = Files.list(results)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                written.add(json.readTree(f.toFile()));
            }
        }
        assertEquals(8, written.size());
        written.sort(
                Comparator.comparing(r -> r.get("broker").get("runOnCluster").asInt()));
        List<String> topics = new ArrayList<>();
        for (int i = 0; i < written.size(); i++) {
            JsonNode r = written.get(i);
            assertEquals("complete", r.get("status").asText(), r.toString());
            assertEquals(
                    i + 1,
                    r.get("broker").get("runOnCluster").asInt(),
                    r.get("broker").toString());
            assertTrue(
                    r.get("counts").get("operations").asLong() > 0,
                    r.get("counts").toString());
            topics.add(r.get("environment").get("runId").asText());
        }
        assertEquals(8, topics.stream().distinct().count(), "each run its own run id (topics, transactional ids)");
    }

    private static String[] suite(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SuiteMain.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {
            Integer.toString(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }
}

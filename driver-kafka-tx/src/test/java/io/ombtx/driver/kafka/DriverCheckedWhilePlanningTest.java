package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner asks the driver's own parser about the effective driver YAML while planning: a mistake exits 2 naming
 * the user's file and key, in a dry run too, before any broker starts.
 */
class DriverCheckedWhilePlanningTest {

    @TempDir
    Path dir;

    private record Outcome(int code, String out, String err) {}

    private Outcome dryRun(String driverYaml, String workloadYaml) throws Exception {
        Path driver = Files.writeString(dir.resolve("my-driver.yaml"), driverYaml);
        Path workload =
                Files.writeString(dir.resolve("w.yaml"), "messageSize: 100\ntestDurationMinutes: 1\n" + workloadYaml);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(
                new String[] {"-d", driver.toString(), "--dry-run", workload.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static final String HEAD = "name: k\ndriverClass: io.ombtx.driver.kafka.KafkaTxBenchmarkDriver\n";

    @Test
    void aTypoInTheTransactionsBlockExitsTwoInADryRun() throws Exception {
        Outcome o = dryRun(HEAD + "transactions: {enabld: true}\n", "name: w\n");
        assertEquals(2, o.code(), o.err());
        assertEquals(
                "error: " + dir.resolve("my-driver.yaml")
                        + ": key 'transactions.enabld': unknown key (did you mean 'enabled'?)",
                o.err().trim());
        assertFalse(o.err().contains("Exception"), o.err());
    }

    @Test
    void everyKindOfBadDriverYamlExitsTwoNamingItsKey() throws Exception {
        String[][] cases = {
            {"colour: red\n", "'colour'"},
            {"transactions:\n  maxRetries: lots\n", "'transactions.maxRetries'"},
            {"producerConfig: |\n  acks=maybe\n", "'producerConfig'"},
            {"consumerConfig: |\n  isolation.level=eventually\n", "'consumerConfig'"},
            {"replicationFactor: 2.5\n", "'replicationFactor'"},
            {"name: twice\n", "Duplicate field 'name'"},
        };
        for (String[] c : cases) {
            Outcome o = dryRun(HEAD + c[0], "name: w\n");
            assertEquals(2, o.code(), c[0] + " → " + o.err());
            assertTrue(o.err().contains("my-driver.yaml") && o.err().contains(c[1]), c[0] + " → " + o.err());
        }
    }

    @Test
    void aWorkloadsDriverOverridesAreCheckedWithTheDriverAndSaySo() throws Exception {
        Outcome o = dryRun(HEAD, "name: w\ndriverOverrides:\n  producerConfig: |\n    acks=maybe\n");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("key 'driverOverrides.producerConfig.acks': kafka-clients rejects acks"), o.err());
        // A driver-file setting checked with the overrides in force still names the driver, and says so.
        Outcome both = dryRun(
                HEAD + "producerConfig: |\n  acks=maybe\n",
                "name: w\ndriverOverrides:\n  producerConfig: {linger.ms: 5}\n");
        assertEquals(2, both.code(), both.err());
        assertTrue(
                both.err().contains("my-driver.yaml: key 'producerConfig'")
                        && both.err().contains("with the driverOverrides of"),
                both.err());
    }

    @Test
    void aGoodDriverIsReportedCheckedInThePlan() throws Exception {
        Outcome o = dryRun(HEAD + "transactions:\n  maxRetries: 2\n", "name: w\n");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("(io.ombtx.driver.kafka.KafkaTxBenchmarkDriver), checked"), o.out());
    }
}

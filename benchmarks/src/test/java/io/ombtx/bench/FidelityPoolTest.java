package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/bench fidelity --pool}: the rounds two kept work folders list are read back from their files (omb-tx's
 * result, the bare loop's per-operation file) and printed as one sample; a round a folder does not list is left out;
 * folders of different set-ups, and run options beside --pool, are refused before anything is read.
 */
class FidelityPoolTest {

    @TempDir
    Path temp;

    private static Map<String, String> setup(String broker, String build) {
        Map<String, String> setup = new LinkedHashMap<>();
        setup.put(FidelityPool.BUILD_KEY, build);
        setup.put("broker", broker);
        setup.put("client", "kafka-clients 4.1.1");
        setup.put(FidelityPool.AA_KEY, "no");
        setup.put(FidelityPool.ROUNDS_KEY, "5");
        return setup;
    }

    /** omb-tx's result file: every operation {@code ombMicros}, its send phase a tenth of it. */
    private static void ombResult(Path file, long ombMicros) throws IOException {
        Histogram operations = new Histogram(3);
        Histogram send = new Histogram(3);
        for (int i = 0; i < 100; i++) {
            operations.recordValue(ombMicros);
            send.recordValue(ombMicros / 10);
        }
        Files.writeString(
                file,
                "{\"histograms\": {\"operationLatencyMicros\": \"" + encode(operations) + "\", \"phase.send\": \""
                        + encode(send) + "\"}}");
    }

    /** The bare loop's per-operation file: a header, then each operation's latency and its phase, in ns. */
    private static void bareResult(Path file, long bareMicros) throws IOException {
        StringBuilder csv = new StringBuilder("operation,send\n");
        for (int i = 0; i < 100; i++) {
            csv.append(bareMicros * 1000).append(',').append(bareMicros * 100).append('\n');
        }
        Files.writeString(file, csv);
    }

    private static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    /** A kept folder: the set-up, each round's files, and the rounds listed as measured. */
    private Path folder(String name, Map<String, String> setup, long[][] rounds, int listed) throws IOException {
        Path folder = Files.createDirectories(temp.resolve(name));
        FidelityPool.writeSetup(folder, setup);
        for (int round = 1; round <= rounds.length; round++) {
            ombResult(folder.resolve("base-writes-" + round + "-omb.json"), rounds[round - 1][0]);
            bareResult(folder.resolve("base-writes-" + round + "-bare1.csv"), rounds[round - 1][1]);
            if (round <= listed) {
                FidelityPool.recordRound(folder, "base-writes", round);
            }
        }
        return folder;
    }

    private record Run(int exit, String out, String err) {}

    private static Run fidelity(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream printed = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        int exit = Cli.execute(
                new Fidelity.Options(), args, printed, errors, options -> Fidelity.run(options, printed, errors));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theListedRoundsOfTwoFoldersArePrintedAsOneSample() throws Exception {
        Path a = folder("a", setup("Kafka 4.1.1, 1 broker(s)", "abc"), new long[][] {{1100, 1000}, {1200, 1000}}, 2);
        // round 2 of b failed on one side: its files are there, but it is not listed, so it is not read
        Path b = folder("b", setup("Kafka 4.1.1, 1 broker(s)", "abc"), new long[][] {{900, 1000}, {5000, 1000}}, 1);

        Run run = fidelity("--pool", a.toString(), "--pool", b.toString());

        assertEquals("", run.err());
        assertTrue(run.out().contains("rounds per scenario: base-writes 3"), run.out());
        assertTrue(run.out().contains("broker: Kafka 4.1.1, 1 broker(s)"), run.out());
        String row = run.out()
                .lines()
                .filter(l -> l.startsWith("base-writes") && l.contains("NOT MET"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(run.out()));
        // omb-tx ÷ bare per round: 1.1, 1.2 and 0.9; the unlisted 5.0 is not among them
        assertTrue(row.contains("1.100 [0.900–1.200]"), row);
        assertEquals(1, run.exit(), "a median of 1.1 misses the band");
        assertTrue(run.out().contains("omb-tx build: abc\n"), "one build: " + run.out());
    }

    @Test
    void theBuildsArePrintedWhenTheyDiffer() throws Exception {
        Path a = folder("a", setup("Kafka 4.1.1, 1 broker(s)", "abc"), new long[][] {{1000, 1000}}, 1);
        Map<String, String> withAa = setup("Kafka 4.1.1, 1 broker(s)", "def+changes");
        withAa.put(FidelityPool.AA_KEY, "yes"); // only b ran the A/A: its second bare runs are not read
        Path b = folder("b", withAa, new long[][] {{1000, 1000}}, 1);

        Run run = fidelity("--pool", a.toString(), "--pool", b.toString());

        assertTrue(
                run.out().contains("omb-tx build: not the same in every run: abc (" + a + "), def+changes (" + b + ")"),
                run.out());
        assertTrue(run.out().contains("rounds per scenario: base-writes 2"), run.out());
        assertTrue(run.out().contains("A/A: not in every run: the bare loop's second runs are left out"), run.out());
    }

    @Test
    void foldersOfAnotherSetUpAreRefusedNamingTheLine() throws Exception {
        Path a = folder("a", setup("Kafka 4.1.1, 1 broker(s)", "abc"), new long[][] {{1000, 1000}}, 1);
        Map<String, String> other = setup("Kafka 2.8.2, 1 broker(s)", "abc");
        other.put(FidelityPool.ROUNDS_KEY, "3"); // the rounds may differ, the broker not
        Path b = folder("b", other, new long[][] {{1000, 1000}}, 1);

        Run run = fidelity("--pool", a.toString(), "--pool", b.toString());

        assertEquals(Cli.BAD_INPUT, run.exit());
        assertEquals("", run.out());
        assertTrue(
                run.err()
                        .contains("--pool " + b + ": its run's set-up differs from " + a + "'s in 'broker':"
                                + " Kafka 2.8.2, 1 broker(s), expected Kafka 4.1.1, 1 broker(s)"),
                run.err());
    }

    @Test
    void runOptionsBesideThePoolAndFoldersThatAreNotKeptRunsAreRefused() throws Exception {
        Path a = folder("a", setup("Kafka 4.1.1, 1 broker(s)", "abc"), new long[][] {{1000, 1000}}, 1);

        Run withRounds = fidelity("--pool", a.toString(), "-n", "3", "--broker-version", "2.8.2");
        assertEquals(Cli.BAD_INPUT, withRounds.exit());
        assertTrue(withRounds.err().contains("--rounds, --broker-version cannot be given with it"), withRounds.err());

        Path empty = Files.createDirectories(temp.resolve("empty"));
        Run notKept = fidelity("--pool", empty.toString());
        assertEquals(Cli.BAD_INPUT, notKept.exit());
        assertTrue(notKept.err().contains("--pool " + empty + ": expected the work folder"), notKept.err());

        Run missing = fidelity("--pool", temp.resolve("nope").toString());
        assertEquals(Cli.BAD_INPUT, missing.exit());
        assertTrue(missing.err().contains("no such folder"), missing.err());

        // a listed round whose result file is gone: exit 2, naming the folder and the round
        Files.delete(a.resolve("base-writes-1-omb.json"));
        Run lost = fidelity("--pool", a.toString());
        assertEquals(Cli.BAD_INPUT, lost.exit());
        assertTrue(lost.err().contains("--pool " + a + ": round 1 of base-writes is listed"), lost.err());

        // a listed round whose file is empty (its writer died before its header): exit 2 too, not a stack trace
        Path cut = folder("empty-file", setup("Kafka 4.1.1, 1 broker(s)", "abc"), new long[][] {{1000, 1000}}, 1);
        Files.writeString(cut.resolve("base-writes-1-bare1.csv"), "");
        Run truncated = fidelity("--pool", cut.toString());
        assertEquals(Cli.BAD_INPUT, truncated.exit());
        assertTrue(truncated.err().contains("round 1 of base-writes is listed"), truncated.err());

        // --scenarios picks among the pooled ones
        Run none = fidelity("--pool", a.toString(), "--scenarios", "tx-writes");
        assertEquals(1, none.exit());
        assertTrue(none.out().contains("No measured rounds of tx-writes"), none.out());
    }

    @Test
    void theSettingsLineIsTheFilesPropertiesSortedWithoutItsComment() throws Exception {
        Path file = temp.resolve("client.properties");
        Files.writeString(
                file, "#client settings of the driver file\n#Thu Dec 03 10:00:00 UTC 2026\nlinger.ms=0\nacks=all\n");
        assertEquals("acks=all linger.ms=0", Fidelity.settingsLine(file));
    }
}

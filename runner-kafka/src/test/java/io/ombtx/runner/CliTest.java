package io.ombtx.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.cli.BenchmarkArgs;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.config.ClusterProfile;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.kafka.KafkaLocalMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every Java entry point's command line: generated help, typed values, and one-line errors with exit code 2. */
class CliTest {

    @TempDir
    Path dir;

    record Outcome(int code, String out, String err) {}

    interface Entry {
        int run(String[] args, PrintStream out, PrintStream err);
    }

    private static Outcome run(Entry entry, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = entry.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A main that exits the JVM, seen through its parsing step. */
    private static Entry parsing(java.util.function.Supplier<Object> options) {
        return (args, out, err) -> {
            OptionalInt done = Cli.parse(options.get(), args, out, err);
            return done.orElse(-1);
        };
    }

    private static void assertHelp(Outcome o, String... fragments) {
        assertEquals(0, o.code(), o.err());
        assertEquals("", o.err());
        assertTrue(o.out().startsWith("Usage: "), o.out());
        for (String fragment : fragments) {
            assertTrue(o.out().contains(fragment), "expected '" + fragment + "' in:\n" + o.out());
        }
    }

    private static void assertOneLineError(Outcome o, String... fragments) {
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out(), "no usage dump");
        assertTrue(o.err().startsWith("error: "), o.err());
        assertEquals(1, o.err().strip().lines().count(), "one line: " + o.err());
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), o.err());
        for (String fragment : fragments) {
            assertTrue(o.err().contains(fragment), "expected '" + fragment + "' in: " + o.err());
        }
    }

    // bin/benchmark

    @Test
    void benchmarkHelpIsGeneratedWithEveryOptionTheCompatibilityNotesAndExitCodes() {
        assertHelp(
                run(Main::run, "--help"),
                "bin/benchmark -d DRIVER.yaml",
                "WORKLOAD.yaml",
                "-d, --drivers",
                "-w, --workers",
                "-wf, --workers-file",
                "-o, --output",
                "-x, --extra",
                "allocate extra consumer workers",
                "--worker-timeout",
                "--profile",
                "--dry-run",
                "--brokers",
                "--broker-profile",
                "--broker-config",
                "--report-interval",
                "-q, --quiet",
                "-h, --help",
                "OMB options",
                "omb-tx options",
                "Exit codes: 0 done",
                "130 interrupted",
                "Examples:");
        assertHelp(run(Main::run, "-h"), "--drivers");
        assertEquals(BenchmarkArgs.USAGE, run(Main::run, "-h").out());
    }

    @Test
    void benchmarkBadCommandLinesGiveOneLineNamingTheOption() {
        assertOneLineError(
                run(Main::run, "-d", "d.yaml", "--dry-rn", "w.yaml"),
                "unknown option --dry-rn",
                "did you mean --dry-run?");
        assertOneLineError(run(Main::run, "-d", "d.yaml", "-Z", "w.yaml"), "unknown option -Z");
        assertOneLineError(
                run(
                        Main::run,
                        "-d",
                        "d.yaml",
                        "--token-file",
                        dir.resolve("no.token").toString(),
                        "w.yaml"),
                "--token-file " + dir.resolve("no.token") + ": no such file");
        assertOneLineError(run(Main::run, "-d", "d.yaml", "w.yaml", "--profile"), "--profile needs a value");
        assertOneLineError(run(Main::run, "-d", "d.yaml", "--output", "--dry-run", "w.yaml"), "--output needs a value");
        assertOneLineError(
                run(Main::run, "-d", "d.yaml", "--brokers", "10", "w.yaml"),
                "--brokers expects a whole number from 1 to 9, got 10");
        assertOneLineError(
                run(Main::run, "-d", "d.yaml", "--report-interval", "soon", "w.yaml"),
                "--report-interval expects a whole number, got 'soon'");
        assertOneLineError(
                run(Main::run, "-d", "d.yaml", "--worker-timeout", "0", "w.yaml"),
                "--worker-timeout expects a whole number from 1 to 86400");
        assertOneLineError(
                run(Main::run, "-d", "d.yaml", "--broker-profile", "fast", "w.yaml"),
                "--broker-profile expects default or max-consistency, got 'fast'");
        assertOneLineError(
                run(Main::run, "-d", "d.yaml", "--broker-config", "linger", "w.yaml"),
                "--broker-config expects KEY=VALUE, got 'linger'");
        assertOneLineError(run(Main::run, "-d", "d.yaml", "--broker-config", "=1", "w.yaml"), "--broker-config");
        assertOneLineError(
                run(Main::run, "-d", "d.yaml", "--broker-version", "2.8", "w.yaml"),
                "--broker-version expects a Kafka release as MAJOR.MINOR.PATCH");
        assertOneLineError(
                run(Main::run, "-d", "d.yaml", "--broker-version", "0.11.0", "w.yaml"),
                "--broker-version",
                "is not supported by the embedded broker");
        assertOneLineError(
                run(Main::run, "-d", "d.yaml", "--transaction-version", "3", "w.yaml"),
                "--transaction-version expects a whole number from 0 to 2, got 3");
        assertOneLineError(
                run(Main::run, "-d", "d.yaml", "-w", "http://a:1", "-wf", "w.yaml", "x.yaml"),
                "give -w/--workers or -wf/--workers-file, not both");
        assertOneLineError(run(Main::run, "w.yaml"), "missing -d/--drivers");
        assertOneLineError(run(Main::run, "-d", "d.yaml"), "missing workload");
    }

    @Test
    void everyBenchmarkFlagAndAliasIsTyped() {
        BenchmarkArgs a = BenchmarkArgs.parse(new String[] {
            "-d",
            "a.yaml, b.yaml,",
            "--drivers",
            "c.yaml",
            "-w",
            "http://w1:8080,http://w2:8080",
            "--workers",
            "http://w3:8080",
            "-o",
            "out",
            "-x",
            "--profile",
            "quick",
            "--dry-run",
            "--brokers",
            "3",
            "--broker-profile",
            "max-consistency",
            "--broker-config",
            "group.coordinator.append.linger.ms=0",
            "--broker-config",
            " a = b=c ",
            "--report-interval",
            "5",
            "--worker-timeout",
            "30",
            "-q",
            "w1.yaml",
            "w2.yaml"
        });
        assertEquals(List.of(Path.of("a.yaml"), Path.of("b.yaml"), Path.of("c.yaml")), a.drivers());
        assertEquals(List.of("http://w1:8080", "http://w2:8080", "http://w3:8080"), a.workers());
        assertNull(a.workersFile());
        assertEquals(Path.of("out"), a.output());
        assertTrue(a.extraConsumers());
        assertEquals(List.of(Path.of("w1.yaml"), Path.of("w2.yaml")), a.workloads());
        assertEquals("quick", a.profile());
        assertTrue(a.dryRun());
        assertEquals(3, a.brokers());
        assertEquals(ClusterProfile.MAX_CONSISTENCY, a.brokerProfile());
        assertEquals(Map.of("group.coordinator.append.linger.ms", "0", "a", "b=c"), a.brokerSettings());
        assertEquals(
                List.of("group.coordinator.append.linger.ms", "a"),
                List.copyOf(a.brokerSettings().keySet()));
        assertEquals(5, a.reportingIntervalSeconds());
        assertEquals(30, a.workerTimeoutSeconds());
        assertTrue(a.quiet());
        assertFalse(a.help());

        BenchmarkArgs b = BenchmarkArgs.parse(new String[] {
            "w.yaml",
            "--drivers=d.yaml",
            "-wf",
            "workers.yaml",
            "--output",
            "r.json",
            "--extra",
            "--quiet",
            "--profile",
            "full",
            "--profile",
            "quick"
        });
        assertEquals(Path.of("workers.yaml"), b.workersFile());
        assertEquals(List.of(), b.workers());
        assertEquals(Path.of("r.json"), b.output());
        assertTrue(b.extraConsumers() && b.quiet());
        assertEquals("quick", b.profile(), "the last --profile wins, as before");
        assertEquals(
                Path.of("workers.yaml"),
                BenchmarkArgs.parse(new String[] {"-d", "d", "--workers-file", "workers.yaml", "w"})
                        .workersFile());

        BenchmarkArgs repeated = BenchmarkArgs.parse(new String[] {
            "-d",
            "d",
            "--broker-config",
            "a=1",
            "--dry-run",
            "--brokers",
            "3",
            "--brokers",
            "4",
            "--broker-config",
            "b=2",
            "--quiet",
            "--report-interval",
            "2",
            "--report-interval",
            "3",
            "w"
        });
        assertEquals(Map.of("a", "1", "b", "2"), repeated.brokerSettings(), "a repeated option keeps the others");
        assertEquals(4, repeated.brokers());
        assertEquals(3, repeated.reportingIntervalSeconds());
        assertTrue(repeated.dryRun() && repeated.quiet());

        BenchmarkArgs versions = BenchmarkArgs.parse(
                new String[] {"-d", "d", "--broker-version", " 2.8.2", "--transaction-version", "2", "w"});
        assertEquals("2.8.2", versions.brokerVersion());
        assertEquals(2, versions.transactionVersion());
        BenchmarkArgs defaults = BenchmarkArgs.parse(new String[] {"-d", "d.yaml", "w.yaml"});
        assertFalse(defaults.extraConsumers() || defaults.dryRun() || defaults.quiet() || defaults.help());
        assertNull(defaults.brokers());
        assertNull(defaults.brokerProfile());
        assertNull(defaults.reportingIntervalSeconds());
        assertNull(defaults.profile());
        assertNull(defaults.output());
        assertEquals(120, defaults.workerTimeoutSeconds());
        assertEquals(30, defaults.teardownTimeoutSeconds());
        assertEquals(Map.of(), defaults.brokerSettings());

        assertTrue(BenchmarkArgs.parse(new String[] {"--help"}).help(), "help needs neither -d nor workloads");
        UsageException e = org.junit.jupiter.api.Assertions.assertThrows(
                UsageException.class, () -> BenchmarkArgs.parse(new String[] {"-d", "d.yaml", "--extar", "w.yaml"}));
        assertEquals("unknown option --extar; did you mean --extra? (see --help)", e.getMessage());
    }

    // bin/benchmark-suite

    @Test
    void suiteHelpIsGeneratedWithTheSharedOptions() {
        assertHelp(
                run(SuiteMain::run, "--help"),
                "bin/benchmark-suite",
                "SUITE.yaml",
                "--profile",
                "-o, --output",
                "--dry-run",
                "--report-interval",
                "--brokers",
                "--broker-profile",
                "--broker-config",
                "-w, --workers",
                "-wf, --workers-file",
                "--worker-timeout",
                "-q, --quiet",
                "-x, --extra",
                "relative to the omb-tx folder",
                "Exit codes",
                "results/<suite>-<profile>-<UTC time>/");
    }

    @Test
    void suiteBadCommandLinesGiveOneLine() {
        assertOneLineError(
                run(SuiteMain::run, "--profle", "quick", "s.yaml"),
                "unknown option --profle",
                "did you mean --profile?");
        assertOneLineError(run(SuiteMain::run, "a.yaml", "b.yaml"), "unexpected argument b.yaml");
        assertOneLineError(run(SuiteMain::run, "--dry-run"), "missing SUITE.yaml");
        assertOneLineError(run(SuiteMain::run, "--report-interval", "0", "s.yaml"), "--report-interval expects");
        assertOneLineError(run(SuiteMain::run, "s.yaml", "--profile"), "--profile needs a value");
    }

    @Test
    void suitePassesTypedOptionsToEveryRun() throws Exception {
        // The runner module's own SPI-only test driver: the Kafka drivers are not on this module's class path, and
        // the suite plans every entry before it runs the first.
        Path first = Files.writeString(
                dir.resolve("first.yaml"), "name: first\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        Path second = Files.writeString(
                dir.resolve("second.yaml"),
                "name: second\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        Path suite = Files.writeString(
                dir.resolve("s.yaml"),
                """
                name: s
                profile: quick
                runs:
                  - driver: %s
                    workloads: [workloads/base-writes.yaml, workloads/rps-sweep.yaml]
                  - driver: %s
                    workloads: [workloads/base-writes.yaml]
                """
                        .formatted(first, second));
        List<BenchmarkArgs> runs = new ArrayList<>();
        SuiteMain.Runner capture = (args, out, err) -> {
            runs.add(args);
            return Main.OK;
        };
        Path results = dir.resolve("results");
        Outcome o = run(
                (args, out, err) -> SuiteMain.run(args, out, err, capture),
                "--profile",
                "full",
                "--broker-config",
                "group.coordinator.append.linger.ms=0",
                "--brokers",
                "3",
                "--broker-profile",
                "max-consistency",
                "-o",
                results.toString(),
                "--report-interval",
                "4",
                "-q",
                "-x",
                "--worker-timeout",
                "7",
                "-w",
                "http://a:1,http://b:2",
                suite.toString());
        assertEquals(0, o.code(), o.err());
        assertEquals(2, runs.size());
        Path home = OmbTxHome.locate();
        assertEquals(List.of(first), runs.get(0).drivers());
        assertEquals(
                List.of(home.resolve("workloads/base-writes.yaml"), home.resolve("workloads/rps-sweep.yaml")),
                runs.get(0).workloads());
        assertEquals(List.of(second), runs.get(1).drivers());
        for (BenchmarkArgs run : runs) {
            assertEquals("full", run.profile(), "--profile beats the suite's");
            assertEquals(Map.of("group.coordinator.append.linger.ms", "0"), run.brokerSettings());
            assertEquals(3, run.brokers());
            assertEquals(ClusterProfile.MAX_CONSISTENCY, run.brokerProfile());
            assertEquals(results, run.output());
            assertEquals(4, run.reportingIntervalSeconds());
            assertTrue(run.quiet() && run.extraConsumers());
            assertEquals(7, run.workerTimeoutSeconds());
            assertEquals(List.of("http://a:1", "http://b:2"), run.workers());
            assertFalse(run.dryRun() || run.help());
        }

        runs.clear();
        assertEquals(
                0,
                run((args, out, err) -> SuiteMain.run(args, out, err, capture), "--dry-run", suite.toString())
                        .code());
        assertEquals("quick", runs.get(0).profile(), "the suite's profile when no --profile");
        assertTrue(runs.get(0).dryRun());
        assertTrue(
                runs.get(0)
                        .output()
                        .toString()
                        .startsWith(Path.of("results", "s-quick-").toString()),
                runs.get(0).output().toString());
    }

    @Test
    void aSuitesRepetitionsReachEachEntryUnlessTheEntryOrTheCommandLineSaysOtherwise() throws Exception {
        Path a = Files.writeString(
                dir.resolve("a.yaml"), "name: a\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        Path b = Files.writeString(
                dir.resolve("b.yaml"), "name: b\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        Path suite = Files.writeString(
                dir.resolve("s.yaml"),
                """
                repeat: {quick: 2, full: 5}
                interleave: true
                runs:
                  - name: pair
                    drivers: [%s, %s]
                    workloads: [workloads/base-writes.yaml]
                  - driver: %s
                    workloads: [workloads/base-writes.yaml]
                    repeat: 3
                    interleave: false
                """
                        .formatted(a, b, a));
        List<BenchmarkArgs> runs = new ArrayList<>();
        SuiteMain.Runner capture = (args, out, err) -> {
            runs.add(args);
            return Main.OK;
        };
        assertEquals(
                0,
                run((args, out, err) -> SuiteMain.run(args, out, err, capture), "--profile", "quick", suite.toString())
                        .code());
        assertEquals(List.of(a, b), runs.get(0).drivers(), "an entry's list of drivers is one comparison");
        assertEquals(List.of(2, 3), runs.stream().map(BenchmarkArgs::repeat).toList(), "the profile's, the entry's");
        assertEquals(
                List.of(true, false),
                runs.stream().map(BenchmarkArgs::interleave).toList());
        assertEquals("pair", runs.get(0).comparison());
        assertEquals(null, runs.get(1).comparison());

        runs.clear();
        assertEquals(
                0,
                run(
                                (args, out, err) -> SuiteMain.run(args, out, err, capture),
                                "--profile",
                                "full",
                                "--repeat",
                                "4",
                                "--interleave",
                                suite.toString())
                        .code());
        assertEquals(List.of(4, 4), runs.stream().map(BenchmarkArgs::repeat).toList(), "--repeat wins");
        assertEquals(
                List.of(true, true),
                runs.stream().map(BenchmarkArgs::interleave).toList());

        Path zero = Files.writeString(
                dir.resolve("z.yaml"),
                """
                repeat: {quick: 0}
                runs:
                  - driver: %s
                    workloads: [workloads/base-writes.yaml]
                """
                        .formatted(a));
        assertOneLineError(
                run(SuiteMain::run, "--dry-run", zero.toString()),
                "z.yaml: key 'repeat.quick'",
                "expected a whole number of runs from 1 to 1000");
        Path both = Files.writeString(
                dir.resolve("d.yaml"),
                """
                runs:
                  - driver: %s
                    drivers: [%s]
                    workloads: [workloads/base-writes.yaml]
                """
                        .formatted(a, a));
        assertOneLineError(
                run(SuiteMain::run, "--dry-run", both.toString()),
                "d.yaml: key 'runs[0].driver'",
                "one driver file (driver) or a list (drivers)");
    }

    @Test
    void aSuiteWithABadEntryRunsNothing() throws Exception {
        Path good = Files.writeString(
                dir.resolve("good.yaml"), "name: good\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "name: bad\ndriverClass: no.such.Driver\n");
        Path suite = Files.writeString(
                dir.resolve("s.yaml"),
                """
                runs:
                  - driver: %s
                    workloads: [workloads/base-writes.yaml]
                  - driver: %s
                    workloads: [workloads/base-writes.yaml]
                """
                        .formatted(good, bad));
        List<BenchmarkArgs> runs = new ArrayList<>();
        Outcome o = run(
                (args, out, err) -> SuiteMain.run(args, out, err, (a, out2, err2) -> {
                    runs.add(a);
                    return Main.OK;
                }),
                "--profile",
                "quick",
                suite.toString());
        assertOneLineError(o, "bad.yaml: key 'driverClass': class no.such.Driver is not on the class path");
        assertEquals(List.of(), runs, "the good first entry did not run either");
    }

    @Test
    void suiteOptionsReachTheRealDryRun() throws Exception {
        // The runner module's own SPI-only test driver: the Kafka drivers are not on this module's class path.
        Path driver = Files.writeString(
                dir.resolve("kafka-tx.yaml"),
                "name: kafka-tx\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        Path suite = Files.writeString(
                dir.resolve("s.yaml"),
                """
                runs:
                  - driver: %s
                    workloads: [workloads/rps-sweep.yaml, workloads/base-writes.yaml]
                """
                        .formatted(driver));
        Outcome o = run(SuiteMain::run, "--dry-run", "--profile", "quick", "--brokers", "3", suite.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("rps-sweep-1000 × kafka-tx"), "the quick profile's sweep: " + o.out());
        assertFalse(o.out().contains("rps-sweep-100000"), "the full profile's largest rate: " + o.out());
        assertTrue(o.out().contains("embedded Kafka, 3 broker(s)"), o.out());
        assertFalse(o.out().contains("embedded Kafka, 1 broker(s)"), "--brokers 3 reached every run: " + o.out());
        Path versions = Files.writeString(
                dir.resolve("v.yaml"),
                """
                runs:
                  - driver: %s
                    workloads: [workloads/base-writes.yaml]
                    brokerVersion: 2.8.2
                  - driver: %s
                    workloads: [workloads/base-writes.yaml]
                    brokerVersion: 4.1.1
                    transactionVersion: 1
                """
                        .formatted(driver, driver));
        Outcome pinned = run(SuiteMain::run, "--dry-run", "--profile", "quick", versions.toString());
        assertEquals(0, pinned.code(), pinned.err());
        assertTrue(pinned.out().contains("kafka       2.8.2 (ZooKeeper"), pinned.out());
        assertTrue(pinned.out().contains("kafka       4.1.1 (KRaft, transaction.version 1)"), pinned.out());
        Outcome flag = run(
                SuiteMain::run, "--dry-run", "--profile", "quick", "--broker-version", "3.9.1", versions.toString());
        // 3.9.1 from the flag, transaction version 1 from the entry: the entry is blamed.
        assertOneLineError(flag, "key 'runs[1].transactionVersion'", "Kafka 3.9.1 has no transaction.version");
        Outcome badEntry = run(
                SuiteMain::run,
                "--dry-run",
                "--profile",
                "quick",
                Files.writeString(
                                dir.resolve("bad-version.yaml"),
                                "runs:\n  - driver: " + driver + "\n    workloads:"
                                        + " [workloads/base-writes.yaml]\n    brokerVersion: latest\n")
                        .toString());
        assertOneLineError(badEntry, "runs[0].brokerVersion", "MAJOR.MINOR.PATCH");
        Outcome typo = run(SuiteMain::run, "--dry-run", "--profile", "quik", suite.toString());
        assertOneLineError(typo, "--profile quik: no workload defines it");
    }

    // bin/benchmark-worker

    @Test
    void workerHelpAndErrors() {
        Entry worker = parsing(WorkerMain.Options::new);
        assertHelp(
                run(worker, "--help"),
                "bin/benchmark-worker",
                "-p, --port",
                "-b, --bind-address",
                "-sp, --stats-port, --metrics-port",
                "OMB's name for",
                "default 8080",
                "--extra-classpath",
                "OMBTX_CLASSPATH",
                "--token-file",
                "OMBTX_WORKER_TOKEN",
                "listens on 127.0.0.1 only");
        assertOneLineError(run(worker, "--port", "70000"), "--port expects a whole number from 0 to 65535, got 70000");
        assertOneLineError(run(worker, "--prot", "1"), "unknown option --prot", "did you mean --port?");
        assertOneLineError(run(worker, "-p"), "--port needs a value");
        assertOneLineError(run(worker, "extra"), "unexpected argument extra");
        WorkerMain.Options options = new WorkerMain.Options();
        assertEquals(
                -1,
                run(
                                (args, out, err) ->
                                        Cli.parse(options, args, out, err).orElse(-1),
                                "-p",
                                "9090",
                                "-b",
                                "127.0.0.1",
                                "-sp",
                                "9091")
                        .code());
        assertEquals(9090, options.port);
        assertEquals("127.0.0.1", options.bind);
        assertEquals(9091, options.metricsPort);
        WorkerMain.Options defaults = new WorkerMain.Options();
        Cli.parse(defaults, new String[0]);
        assertEquals(8080, defaults.port);
        assertEquals(null, defaults.bind);
        // Every interface only with a token, or when told.
        assertEquals("127.0.0.1", WorkerMain.bindAddress(null, false));
        assertEquals("0.0.0.0", WorkerMain.bindAddress(null, true));
        assertEquals("0.0.0.0", WorkerMain.bindAddress("0.0.0.0", false));
        assertTrue(WorkerMain.access(null, false, null).startsWith("no worker token: listening on 127.0.0.1 only"));
        assertTrue(WorkerMain.access("0.0.0.0", false, null).startsWith("no worker token: anyone who can reach"));
        assertTrue(WorkerMain.access(null, true, Path.of("w.token")).contains("(from w.token)"));
    }

    // bin/kafka-local start

    @Test
    void kafkaLocalWithAnUnknownCommandSaysSoThenShowsTheUsage() throws Exception {
        Process p = new ProcessBuilder(
                        "bash", OmbTxHome.locate().resolve("bin/kafka-local").toString(), "bogus")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "bin/kafka-local ended");
        assertEquals(2, p.exitValue(), err);
        List<String> lines = err.lines().toList();
        assertEquals("error: unknown command 'bogus' (expected start, status or stop)", lines.get(0), err);
        assertTrue(lines.get(1).startsWith("Usage: bin/kafka-local start"), err);
    }

    @Test
    void kafkaLocalStatusAndStopOnACorruptStateFileSayWhichFileAndWhatIsWrong() throws Exception {
        Path state = dir.resolve("kafka-local.json");
        Map<String, String> corrupt = new java.util.LinkedHashMap<>();
        corrupt.put("", "is empty");
        corrupt.put("{\"pid\": 4242, \"bootstrapSer", "is not valid JSON (line 1 column 15");
        corrupt.put("bootstrapServers=127.0.0.1:9092", "is not valid JSON (line 1 column 1");
        corrupt.put("[4242]", "is not the JSON object bin/kafka-local start writes");
        corrupt.put("{\"pid\": -1, \"bootstrapServers\": \"a:1\", \"brokerPids\": []}", "has no valid 'pid'");
        corrupt.put("{\"pid\": 4242, \"bootstrapServers\": \"a:1\"}", "has no valid 'brokerPids'");
        for (Map.Entry<String, String> c : corrupt.entrySet()) {
            for (String command : List.of("status", "stop")) {
                Files.writeString(state, c.getKey());
                ProcessBuilder builder = new ProcessBuilder(
                                "bash",
                                OmbTxHome.locate().resolve("bin/kafka-local").toString(),
                                command)
                        .redirectOutput(dir.resolve("out").toFile())
                        .redirectError(dir.resolve("err").toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
                builder.environment().put("OMBTX_STATE_DIR", dir.toString());
                Process p = builder.start();
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "bin/kafka-local ended");
                String err = Files.readString(dir.resolve("err"));
                String what = command + " on '" + c.getKey() + "': " + err;
                assertEquals(2, p.exitValue(), what);
                assertEquals("", Files.readString(dir.resolve("out")), what);
                assertEquals(1, err.lines().count(), what);
                assertTrue(err.startsWith("error: state file " + state + " " + c.getValue()), what);
                assertTrue(err.contains("remove the file"), what);
                assertTrue(Files.exists(state), "left for the user to judge: " + what);
            }
        }
    }

    /** The mains that exit the JVM, as a person runs them: exit codes and streams. Four JVMs of their own. */
    @Test
    @Tag("integration")
    void mainsExitWithTheRightCodes() throws Exception {
        for (Class<?> main : List.of(WorkerMain.class, KafkaLocalMain.class)) {
            Outcome help = java(main, "--help");
            assertEquals(0, help.code(), main + ": " + help.err());
            assertTrue(help.out().startsWith("Usage: "), help.out());
        }
        assertOneLineError(java(WorkerMain.class, "--bogus"), "unknown option --bogus");
        assertOneLineError(java(KafkaLocalMain.class, "--state", "s.json", "--bogus"), "unknown option --bogus");
    }

    private Outcome java(Class<?> main, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile())
                .start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), main + " did not exit");
        return new Outcome(
                process.exitValue(), Files.readString(dir.resolve("out")), Files.readString(dir.resolve("err")));
    }
}

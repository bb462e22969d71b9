package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import io.ombtx.runner.worker.WorkerUrls;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line without a broker: help, dry runs, every kind of bad input, and a missing broker class path. */
class MainTest {

    @TempDir
    Path dir;

    private Main.Captured run(String... args) {
        return Main.capture(args);
    }

    private Path file(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    private Path driver() throws Exception {
        return file("driver.yaml", "name: test\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
    }

    private void assertBadInput(Main.Captured o, String... fragments) {
        assertEquals(2, o.code(), o.err());
        for (String fragment : fragments) {
            assertTrue(o.err().contains(fragment), "expected '" + fragment + "' in: " + o.err());
        }
        assertFalse(o.err().contains("\tat "), "no stack trace: " + o.err());
        assertFalse(o.err().contains("Exception"), "no exception class names: " + o.err());
    }

    @Test
    void helpExplainsEveryFlag() {
        Main.Captured o = run("--help");
        assertEquals(0, o.code());
        for (String flag : new String[] {
            "--drivers",
            "--workers",
            "--workers-file",
            "--output",
            "--extra",
            "--profile",
            "--dry-run",
            "--brokers",
            "--broker-profile",
            "--broker-config",
            "--report-interval"
        }) {
            assertTrue(o.out().contains(flag), flag);
        }
    }

    @Test
    void dryRunPrintsTheExpandedSweepWithoutABroker() throws Exception {
        Path workload =
                file("sweep.yaml", "name: rps\nmessageSize: 78\nproducerRate: [1000, 25000]\nmeasureMessages: 100\n");
        Main.Captured o = run("-d", driver().toString(), "--dry-run", workload.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("Plan: 2 run(s)"), o.out());
        assertTrue(o.out().contains("rps-1000 × test"), o.out());
        assertTrue(o.out().contains("open loop at 25000 msg/s"), o.out());
        assertTrue(o.out().contains("embedded Kafka, 1 broker(s)"), o.out());
        assertTrue(o.out().contains("teardown time-out 30 s"), o.out());
        Main.Captured bounded =
                run("-d", driver().toString(), "--dry-run", "--teardown-timeout", "7", workload.toString());
        assertTrue(bounded.out().contains("teardown time-out 7 s"), bounded.out());
    }

    @Test
    void dryRunShowsTheRepetitionsAndTheOrderOfTheAckWait() throws Exception {
        Path tx = file(
                "tx.yaml",
                "name: tx\nmessageSize: 10\nloop: closed\nmeasureOperations: 5\n"
                        + "operation: {kind: WRITE, transactional: true, awaitAcks: before-commit}\n");
        Path plain = file(
                "plain.yaml",
                "name: plain\nmessageSize: 10\nloop: closed\nmeasureOperations: 5\n" + "operation: {kind: WRITE}\n");
        Main.Captured o = run(
                "-d",
                driver().toString(),
                "--dry-run",
                "--repeat",
                "3",
                "--interleave",
                tx.toString(),
                plain.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("Plan: 6 run(s), each (driver, workload) 3 times, interleaved"), o.out());
        assertTrue(o.out().contains("order       awaitAcks before-commit: begin, send, resolve, commit"), o.out());
        assertEquals(3, o.out().split("order       ", -1).length - 1, "only the transactional runs: " + o.out());
        assertTrue(o.out().contains("  2. plain × test"), o.out());
        assertTrue(o.out().matches("(?s).*repetition  3 of 3, group \\S+ \\(interleaved.*"), o.out());
    }

    @Test
    void oneOutputFileForSeveralRepetitionsExitsTwo() throws Exception {
        Path w = file("w.yaml", "name: x\nmessageSize: 10\ntestDurationMinutes: 1\n");
        assertBadInput(
                run(
                        "-d",
                        driver().toString(),
                        "--dry-run",
                        "--repeat",
                        "2",
                        "-o",
                        dir.resolve("r.json").toString(),
                        w.toString()),
                "-o",
                "r.json",
                "2 runs (--repeat 2)",
                "give a folder");
        assertBadInput(run("-d", driver().toString(), "--repeat", "0", w.toString()), "--repeat");
    }

    @Test
    void anOrderOnAPlainWriteExitsTwoNamingFileAndKey() throws Exception {
        Path w = file(
                "w.yaml",
                "name: x\nmessageSize: 10\nloop: closed\nmeasureOperations: 5\n"
                        + "operation: {kind: WRITE, awaitAcks: after-commit}\n");
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", w.toString()),
                "w.yaml",
                "'operation.awaitAcks'",
                "only a transactional operation");
        Path typo = file(
                "t.yaml",
                "name: x\nmessageSize: 10\nloop: closed\nmeasureOperations: 5\n"
                        + "operation: {kind: STREAM, transactional: true, prefillMessages: 5, awaitAcks: befor-commit}\n");
        assertBadInput(
                run("-d", driver().toString(), typo.toString()),
                "t.yaml",
                "'operation.awaitAcks'",
                "did you mean 'before-commit'");
    }

    @Test
    void unknownWorkloadKeyExitsTwoNamingFileAndKey() throws Exception {
        Path workload = file("w.yaml", "name: x\nmessageSize: 10\ntestDurationMinutes: 1\nproducerRates: 5\n");
        assertBadInput(
                run("-d", driver().toString(), workload.toString()),
                "w.yaml",
                "'producerRates'",
                "did you mean 'producerRate'");
    }

    @Test
    void replicationFactorAboveTheBrokerCountExitsTwo() throws Exception {
        Path workload = file(
                "w.yaml",
                "name: x\nmessageSize: 10\ntestDurationMinutes: 1\ndriverOverrides: {replicationFactor: 3}\n");
        assertBadInput(
                run("-d", driver().toString(), workload.toString()),
                "w.yaml",
                "driverOverrides.replicationFactor",
                "above the broker count 1");
        Path rf3 = file(
                "rf3.yaml",
                "name: t\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\nreplicationFactor: 3\n");
        Path plain = file("p.yaml", "name: x\nmessageSize: 10\ntestDurationMinutes: 1\n");
        assertBadInput(
                run("-d", rf3.toString(), "--brokers", "1", plain.toString()),
                "rf3.yaml",
                "replicationFactor",
                "above the broker count 1");
    }

    @Test
    void badCommandLinesExitTwo() throws Exception {
        assertBadInput(run("w.yaml"), "missing -d/--drivers");
        assertBadInput(run("-d", driver().toString()), "missing workload");
        assertBadInput(
                run("-d", driver().toString(), "--brokers", "many", "w.yaml"), "--brokers expects a whole number");
        assertBadInput(run("-d", driver().toString(), "--frobnicate", "w.yaml"), "unknown option --frobnicate");
        assertBadInput(run("-d", "nope.yaml", "w.yaml"), "nope.yaml: file not found");
    }

    @Test
    void aPayloadFileOfTheWrongSizeExitsTwo() throws Exception {
        Path payload = Files.write(dir.resolve("p.data"), new byte[10]);
        Path workload =
                file("w.yaml", "name: x\nmessageSize: 100\ntestDurationMinutes: 1\npayloadFile: " + payload + "\n");
        assertBadInput(
                run("-d", driver().toString(), workload.toString()), "payloadFile", "10 bytes but messageSize is 100");
    }

    @Test
    void aPayloadFileThatIsAFolderExitsTwo() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("payloads"));
        Path workload =
                file("w.yaml", "name: x\nmessageSize: 100\nmeasureOperations: 5\npayloadFile: " + folder + "\n");
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", workload.toString()),
                "w.yaml",
                "'payloadFile'",
                "not a regular file");
        assertBadInput(
                run("-d", driver().toString(), "-o", dir.resolve("r").toString(), workload.toString()),
                "w.yaml",
                "'payloadFile'",
                "not a regular file");
        Path missing = file("m.yaml", "name: x\nmessageSize: 100\nmeasureOperations: 5\npayloadFile: nope.data\n");
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", missing.toString()),
                "m.yaml",
                "'payloadFile'",
                "not found");
    }

    @Test
    void aMissingOrMalformedWorkersFileExitsTwoInADryRunToo() throws Exception {
        Path workload = file("w.yaml", "name: x\nmessageSize: 10\nmeasureOperations: 5\n");
        String missing = dir.resolve("nope-workers.yaml").toString();
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", "-wf", missing, workload.toString()),
                "nope-workers.yaml",
                "file not found");
        assertBadInput(
                run("-d", driver().toString(), "-o", dir.resolve("r").toString(), "-wf", missing, workload.toString()),
                "nope-workers.yaml",
                "file not found");
        Path broken = file("broken-workers.yaml", "workers: [http://a:8080\n");
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", "-wf", broken.toString(), workload.toString()),
                "broken-workers.yaml",
                "not valid YAML");
        Path wrongKey = file("key-workers.yaml", "worker: [http://a:8080]\n");
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", "-wf", wrongKey.toString(), workload.toString()),
                "key-workers.yaml",
                "'workers'");
        Path notText = file("map-workers.yaml", "workers: [{url: http://a:8080}]\n");
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", "-wf", notText.toString(), workload.toString()),
                "map-workers.yaml",
                "'workers'",
                "list of worker URLs");
    }

    @Test
    void badWorkerUrlsExitTwoNamingTheFlagOrFileAndTheUrl() throws Exception {
        Path workload = file("w.yaml", "name: x\nmessageSize: 10\nmeasureOperations: 5\n");
        for (String bad : new String[] {
            "notaurl",
            "ftp://host:8080",
            "http://",
            "http://host:8080/api",
            "http://host:8080?x=1",
            "http://user@host:8080",
            "http://user:hunter2@host:8080",
            "http://host:port"
        }) {
            Main.Captured flag = run("-d", driver().toString(), "--dry-run", "-w", bad, workload.toString());
            assertFalse(flag.err().contains("hunter2"), "a password in a worker URL is never printed: " + flag.err());
            assertBadInput(flag, "-w/--workers", "'" + WorkerUrls.shown(bad) + "'");
            assertBadInput(
                    run(
                            "-d",
                            driver().toString(),
                            "-o",
                            dir.resolve("r").toString(),
                            "-w",
                            "http://ok:8080," + bad,
                            workload.toString()),
                    "-w/--workers",
                    "'" + WorkerUrls.shown(bad) + "'");
            Path workers = file("workers.yaml", "workers:\n  - http://ok:8080\n  - \"" + bad + "\"\n");
            assertBadInput(
                    run("-d", driver().toString(), "--dry-run", "-wf", workers.toString(), workload.toString()),
                    "workers.yaml",
                    "'workers'",
                    "'" + WorkerUrls.shown(bad) + "'");
        }
        for (String good : new String[] {"http://host:8080", "https://10.0.0.1", "http://[::1]:8080/", "HTTP://Host"}) {
            Main.Captured o = run("-d", driver().toString(), "--dry-run", "-w", good, workload.toString());
            assertEquals(0, o.code(), good + ": " + o.err());
        }
    }

    @Test
    void aProfileNoWorkloadDefinesIsATypoNotAFullRun() throws Exception {
        Path workload = file(
                "p.yaml",
                "name: x\nmessageSize: 10\nmeasureOperations: 5\nprofiles: {quick: {measureOperations: 1}}\n");
        assertBadInput(
                run("-d", driver().toString(), "--profile", "quik", "--dry-run", workload.toString()),
                "--profile quik: no workload defines it");
        assertEquals(
                0,
                run("-d", driver().toString(), "--profile", "quick", "--dry-run", workload.toString())
                        .code());
    }

    @Test
    void anUnreachableClusterExitsOneNamingTheServersAndTheDriverFile() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        Path external = file(
                "external.yaml",
                "name: ext\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n"
                        + "commonConfig: |\n  bootstrap.servers=127.0.0.1:" + port + "\n  request.timeout.ms=500\n"
                        + "  default.api.timeout.ms=1000\n");
        Path workload = file("w.yaml", "name: x\nmessageSize: 10\nmeasureOperations: 5\n");
        long start = System.nanoTime();
        Main.Captured o = run("-d", external.toString(), "-o", dir.resolve("r").toString(), workload.toString());
        assertEquals(1, o.code(), o.err());
        assertTrue(
                o.err()
                        .startsWith("error: cannot reach the cluster at 127.0.0.1:" + port + " named in " + external
                                + "'s commonConfig: "),
                o.err());
        assertFalse(o.err().contains("\tat "), "no stack trace: " + o.err());
        assertFalse(o.err().contains("Exception"), "no exception class names: " + o.err());
        // Bounded by the driver's timeouts of 1 s, not kafka-clients' default.api.timeout.ms of 60 s.
        assertTrue(System.nanoTime() - start < 30_000_000_000L, "bounded by the driver's lower timeouts");
    }

    @Test
    void badBrokerSettingsExitTwoBeforeAnyBrokerStarts() throws Exception {
        Path bad = file(
                "w.yaml",
                "name: x\nmessageSize: 10\nmeasureOperations: 5\n" + "brokerSettings: {num.network.threads: 0}\n");
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", bad.toString()),
                "w.yaml",
                "'brokerSettings.num.network.threads'",
                "at least 1");
        Main.Captured real =
                run("-d", driver().toString(), "-o", dir.resolve("r").toString(), bad.toString());
        assertBadInput(real, "w.yaml", "'brokerSettings.num.network.threads'");
        assertFalse(real.out().contains("Starting embedded Kafka"), real.out());
        Path typo = file(
                "t.yaml",
                "name: x\nmessageSize: 10\nmeasureOperations: 5\n"
                        + "brokerSettings: {log.flush.interval.mesages: 1}\n");
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", typo.toString()),
                "t.yaml",
                "'brokerSettings.log.flush.interval.mesages'",
                "did you mean 'log.flush.interval.messages'");
        Path good = file(
                "g.yaml",
                "name: x\nmessageSize: 10\nmeasureOperations: 5\n"
                        + "brokerSettings: {num.network.threads: 4, log.cleanup.policy: compact}\n");
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", "--broker-config", "num.io.threads=lots", good.toString()),
                "--broker-config num.io.threads",
                "lots",
                "expects int");
        assertBadInput(
                run(
                        "-d",
                        driver().toString(),
                        "--dry-run",
                        "--broker-config",
                        "auto.create.topic.enable=false",
                        good.toString()),
                "--broker-config auto.create.topic.enable",
                "did you mean 'auto.create.topics.enable'");
        Main.Captured ok = run(
                "-d",
                driver().toString(),
                "--dry-run",
                "--broker-config",
                "group.coordinator.append.linger.ms=0",
                good.toString());
        assertEquals(0, ok.code(), ok.err());
    }

    @Test
    void dryRunRedactsSecretBrokerSettingsAndOverridesAndPrintsOverridesOneAPerLine() throws Exception {
        Path workload = file(
                "w.yaml",
                "name: x\nmessageSize: 10\nmeasureOperations: 5\n"
                        + "brokerSettings: {ssl.truststore.password: trustme}\n"
                        + "driverOverrides:\n  replicationFactor: 1\n  producerConfig:\n    linger.ms: 5\n"
                        + "  commonConfig:\n    basic.auth.user.info: 'user:hunter2'\n"
                        + "    sasl.jaas.config: 'x required password=\"jaas-secret\";'\n");
        Main.Captured o = run(
                "-d",
                driver().toString(),
                "--dry-run",
                "--broker-config",
                "ssl.keystore.password=keystore-secret",
                workload.toString());
        assertEquals(0, o.code(), o.err());
        for (String secret : new String[] {"trustme", "keystore-secret", "hunter2", "jaas-secret"}) {
            assertFalse(o.out().contains(secret), secret + " printed: " + o.out());
        }
        assertTrue(o.out().contains("ssl.keystore.password=<redacted>"), o.out());
        assertTrue(o.out().contains("ssl.truststore.password=<redacted>"), o.out());
        assertTrue(o.out().contains("     overrides   replicationFactor=1\n"), o.out());
        assertTrue(o.out().contains("                 producerConfig: linger.ms=5\n"), o.out());
        assertTrue(o.out().contains("                 commonConfig: basic.auth.user.info=<redacted>\n"), o.out());
        assertFalse(o.out().contains("{replicationFactor"), "no raw map: " + o.out());
    }

    @Test
    void dryRunShowsOmbsConsumerBacklog() throws Exception {
        Path workload = file(
                "backlog.yaml",
                "name: b\nmessageSize: 1024\nproducerRate: 1000\ntestDurationMinutes: 1\n"
                        + "consumerBacklogSizeGB: 1\nbacklogDrainRatio: 0.5\n");
        Main.Captured o = run("-d", driver().toString(), "--dry-run", workload.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(
                o.out().contains("     backlog     consumerBacklogSizeGB 1 (1048576 message(s) of 1024 bytes"),
                o.out());
        assertTrue(o.out().contains("backlogDrainRatio 0.5 of it has drained"), o.out());
        Path plain = file("plain.yaml", "name: p\nmessageSize: 1024\nproducerRate: 1000\ntestDurationMinutes: 1\n");
        Main.Captured none = run("-d", driver().toString(), "--dry-run", plain.toString());
        assertEquals(0, none.code(), none.err());
        assertFalse(none.out().contains("backlog     "), "only when set: " + none.out());
    }

    @Test
    void anUnknownDriverNameSuggestsTheNearestShippedDriver() throws Exception {
        Path workload = file("w.yaml", "name: x\nmessageSize: 10\nmeasureOperations: 5\n");
        assertBadInput(
                run("-d", "kafka-tx-tunned.yaml", "--dry-run", workload.toString()),
                "kafka-tx-tunned.yaml: file not found; the nearest shipped driver is"
                        + " driver-kafka-tx/kafka-tx-tuned.yaml (-d kafka-tx-tuned)");
    }

    @Test
    void withoutABrokerClassPathBrokerSettingsAreLeftToTheRun() throws Exception {
        Path workload = file(
                "w.yaml",
                "name: x\nmessageSize: 10\nmeasureOperations: 5\n" + "brokerSettings: {num.network.threads: 0}\n");
        withBrokerLib(dir.resolve("no-broker-lib").toString(), () -> {
            Main.Captured o = run("-d", driver().toString(), "--dry-run", workload.toString());
            assertEquals(0, o.code(), o.err());
        });
    }

    @Test
    void aMissingBrokerClassPathIsAClearErrorWithExitCodeOne() throws Exception {
        Path missing = dir.resolve("no-broker-lib");
        Path workload = file("w.yaml", "name: x\nmessageSize: 10\nmeasureOperations: 5\n");
        withBrokerLib(missing.toString(), () -> {
            Main.Captured o =
                    run("-d", driver().toString(), "-o", dir.resolve("results").toString(), workload.toString());
            assertEquals(1, o.code(), o.err());
            assertTrue(
                    o.err()
                            .startsWith("error: the Kafka broker's class path was not found. Tried:\n  " + missing
                                    + " (-Dombtx.broker.lib=" + missing + "): no such folder\n"),
                    o.err());
            assertTrue(o.err().contains("-Dombtx.broker.lib=DIR or OMBTX_BROKER_LIB=DIR"), o.err());
            assertFalse(o.err().contains("\tat "), "no stack trace: " + o.err());
            assertFalse(o.err().contains("Exception"), "no exception class names: " + o.err());
            assertFalse(o.out().contains("Starting embedded Kafka"), "said before trying to start: " + o.out());
        });
    }

    @Test
    void anOutputPathThatIsAFileExitsTwoBeforeAnythingStarts() throws Exception {
        Path workload = file("w.yaml", "name: x\nmessageSize: 10\nmeasureOperations: 5\n");
        Path blocker = file("blocker", "not a folder");
        for (String dry : new String[] {"--dry-run", "--quiet"}) {
            Main.Captured o = run("-d", driver().toString(), dry, "-o", blocker.toString(), workload.toString());
            assertBadInput(o, blocker.toString(), "is a file");
            assertFalse(o.out().contains("Starting embedded Kafka"), o.out());
            assertBadInput(
                    run(
                            "-d",
                            driver().toString(),
                            dry,
                            "-o",
                            blocker.resolve("sub").toString(),
                            workload.toString()),
                    blocker.toString(),
                    "is a file");
            assertBadInput(
                    run(
                            "-d",
                            driver().toString(),
                            dry,
                            "-o",
                            blocker.resolve("r.json").toString(),
                            workload.toString()),
                    blocker.toString(),
                    "is a file");
        }
        Path folderNamedJson = Files.createDirectory(dir.resolve("taken.json"));
        assertBadInput(
                run("-d", driver().toString(), "--dry-run", "-o", folderNamedJson.toString(), workload.toString()),
                folderNamedJson.toString(),
                "is a folder");
    }

    @Test
    void aDryRunCreatesNoOutputFolderButARealRunDoesFirst() throws Exception {
        Path workload = file("w.yaml", "name: x\nmessageSize: 10\nmeasureOperations: 5\n");
        Path out = dir.resolve("a").resolve("b");
        assertEquals(
                0,
                run("-d", driver().toString(), "--dry-run", "-o", out.toString(), workload.toString())
                        .code());
        assertFalse(Files.exists(dir.resolve("a")), "the dry run has no side effects");
        withBrokerLib(dir.resolve("no-broker-lib").toString(), () -> {
            assertEquals(
                    1,
                    run("-d", driver().toString(), "-o", out.toString(), workload.toString())
                            .code());
            assertTrue(Files.isDirectory(out), "created before the run");
            try (var left = Files.list(out)) {
                assertEquals(0, left.count(), "the probe file is removed");
            }
        });
    }

    @Test
    void anUnwritableOutputFolderExitsTwo() throws Exception {
        Path workload = file("w.yaml", "name: x\nmessageSize: 10\nmeasureOperations: 5\n");
        Path locked = Files.createDirectory(dir.resolve("locked"));
        org.junit.jupiter.api.Assumptions.assumeTrue(
                locked.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("r-x------"));
        try {
            org.junit.jupiter.api.Assumptions.assumeFalse(Files.isWritable(locked), "not root");
            for (String dry : new String[] {"--dry-run", "--quiet"}) {
                assertBadInput(
                        run("-d", driver().toString(), dry, "-o", locked.toString(), workload.toString()),
                        locked.toString(),
                        "not writable");
                assertBadInput(
                        run(
                                "-d",
                                driver().toString(),
                                dry,
                                "-o",
                                locked.resolve("r.json").toString(),
                                workload.toString()),
                        locked.toString(),
                        "not writable");
            }
            assertBadInput(
                    run("-d", driver().toString(), "-o", locked.resolve("new").toString(), workload.toString()),
                    locked.resolve("new").toString(),
                    "cannot create the output folder");
        } finally {
            Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        }
    }

    private interface Body {
        void run() throws Exception;
    }

    /** Runs {@code body} with -Dombtx.broker.lib set to {@code lib}, then puts the property back as it was. */
    private static void withBrokerLib(String lib, Body body) throws Exception {
        String before = System.getProperty("ombtx.broker.lib");
        System.setProperty("ombtx.broker.lib", lib);
        try {
            body.run();
        } finally {
            if (before == null) {
                System.clearProperty("ombtx.broker.lib");
            } else {
                System.setProperty("ombtx.broker.lib", before);
            }
        }
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C while the embedded broker starts stops the run within seconds (it once waited 14 s for the broker to be
 * ready first), exits 130 with a partial result, and leaves no broker process behind. The runner runs as bin/benchmark
 * does, in a JVM of its own, sent a real SIGINT; its temporary folder is one of the test's, so every broker process
 * it started is found by that folder on its command line.
 */
@Tag("integration")
class CtrlCDuringBrokerStartTest {

    /** Generous for a busy 2-core machine; the runner itself stops in about a second. */
    private static final long STOP_BOUND_SECONDS = 8;

    @TempDir
    Path dir;

    @Test
    void sigintDuringBrokerStartStopsAtOnceAndLeavesNoBroker() throws Exception {
        Path home = io.ombtx.runner.OmbTxHome.locate();
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path workload = Files.writeString(
                dir.resolve("w.yaml"), "name: w\nmessageSize: 100\nloop: closed\nmeasureOperations: 100\n");
        Path result = dir.resolve("result.json");
        String java = ProcessHandle.current().info().command().orElseThrow();
        // A process started in the background by a non-interactive shell (`.ci/run > log &`) has SIGINT ignored, and
        // its children inherit that: the runner's JVM then installs no handler for it (HotSpot leaves an ignored
        // signal ignored) and a Ctrl-C does nothing. The runner gets SIGINT's default disposition back, as a
        // foreground process in a terminal has it, whatever started this test.
        List<String> command = new ArrayList<>(defaultSigint());
        command.addAll(List.of(
                java,
                "-Djava.io.tmpdir=" + tmp,
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "-d",
                home.resolve("driver-kafka-tx/kafka-tx.yaml").toString(),
                "-o",
                result.toString(),
                workload.toString()));
        Process runner = new ProcessBuilder(command).redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(runner.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null && !line.contains("Starting embedded Kafka")) {
                output.append(line).append('\n');
            }
            assertTrue(line != null, "the broker start began:\n" + output);
            output.append(line).append('\n');

            Process signal = new ProcessBuilder("kill", "-INT", Long.toString(runner.pid())).start();
            assertEquals(0, signal.waitFor(), "kill -INT");
            long signalledNanos = System.nanoTime();
            boolean exited = runner.waitFor(STOP_BOUND_SECONDS, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - signalledNanos) / 1e9;
            assertTrue(exited, "still running " + STOP_BOUND_SECONDS + " s after SIGINT:\n" + output);
            while ((line = lines.readLine()) != null) {
                output.append(line).append('\n');
            }
            assertTrue(seconds < STOP_BOUND_SECONDS, seconds + " s after SIGINT\n" + output);
        } finally {
            runner.destroyForcibly();
        }
        assertEquals(Main.INTERRUPTED, runner.exitValue(), output.toString());
        RunResult r = ResultReader.read(result);
        assertEquals(RunResult.Status.PARTIAL, r.status(), output.toString());
        assertEquals("interrupted during set-up (broker start)", r.partialReason());

        // Every broker (and format) process ran with the runner's temporary folder on its command line: none is left.
        for (ProcessHandle child : leftBehind(tmp)) {
            try {
                child.onExit().get(STOP_BOUND_SECONDS, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException stillThere) {
                // Reported below.
            }
        }
        List<ProcessHandle> left = leftBehind(tmp);
        assertEquals(
                List.of(),
                left.stream().map(p -> p.info().commandLine().orElse("?")).toList());
    }

    /**
     * {@code env --default-signal=INT} (GNU coreutils 8.31 and later), which resets SIGINT to its default before it
     * starts the command; nothing where that is not available, and the test then needs a launcher that left SIGINT
     * alone.
     */
    private static List<String> defaultSigint() throws Exception {
        try {
            Process probe = new ProcessBuilder("env", "--default-signal=INT", "true")
                    .redirectErrorStream(true)
                    .start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor() == 0 ? List.of("env", "--default-signal=INT") : List.of();
        } catch (java.io.IOException noEnv) {
            return List.of();
        }
    }

    /** The live processes with {@code folder} on their command line. */
    private static List<ProcessHandle> leftBehind(Path folder) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().orElse("").contains(folder.toString()))
                .filter(ProcessHandle::isAlive)
                .toList();
    }
}

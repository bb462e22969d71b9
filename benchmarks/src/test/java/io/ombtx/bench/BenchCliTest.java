package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** bin/bench's command lines, without running a benchmark. */
class BenchCliTest {

    record Outcome(OptionalInt code, String out, String err) {}

    private static Outcome parse(Object options, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OptionalInt code = Cli.parse(
                options,
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void assertError(Outcome o, String fragment) {
        assertEquals(OptionalInt.of(2), o.code(), o.err());
        assertEquals("", o.out());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().startsWith("error: ") && o.err().contains(fragment), o.err());
    }

    @Test
    void runnerOverhead() {
        Outcome help = parse(new RunnerOverhead.Options(), "--help");
        assertEquals(OptionalInt.of(0), help.code());
        assertTrue(
                help.out().contains("bin/bench runner-overhead") && help.out().contains("RATE"), help.out());
        assertError(parse(new RunnerOverhead.Options(), "fast"), "RATE expects a whole number, got 'fast'");
        assertError(parse(new RunnerOverhead.Options(), "0"), "RATE expects a whole number of at least 1, got 0");
        assertError(parse(new RunnerOverhead.Options(), "--seconds", "5"), "unknown option --seconds");
        RunnerOverhead.Options rates = new RunnerOverhead.Options();
        assertEquals(OptionalInt.empty(), parse(rates, "1000", "5000").code());
        assertArrayEquals(new int[] {1000, 5000}, rates.rates());
        RunnerOverhead.Options defaults = new RunnerOverhead.Options();
        parse(defaults);
        assertArrayEquals(new int[] {1_000, 10_000, 50_000}, defaults.rates());
    }

    @Test
    void fidelity() {
        Outcome help = parse(new Fidelity.Options(), "--help");
        assertEquals(OptionalInt.of(0), help.code());
        assertTrue(help.out().contains("bin/bench fidelity") && help.out().contains("--jvm-opt"), help.out());
        assertError(parse(new Fidelity.Options(), "--scenarios", "tx-nope"), "unknown scenario 'tx-nope'");
        assertError(parse(new Fidelity.Options(), "--jvm-opt", "Xmx1g"), "--jvm-opt expects one JVM flag");
        assertError(
                parse(new Fidelity.Options(), "--broker-warmup", "-1"), "--broker-warmup expects 0 or more operations");
        assertError(
                parse(new Fidelity.Options(), "--broker-warmup", "0"),
                "--warmup auto sizes each scenario's warm-up from the broker's warm-up");
        Fidelity.Options warm = new Fidelity.Options();
        assertEquals(
                OptionalInt.empty(),
                parse(warm, "--broker-warmup", "0", "--warmup", "0").code());
        assertEquals(0, warm.brokerWarmup);
        assertEquals("0", warm.warmup);
        assertEquals(2000, new Fidelity.Options().brokerWarmup, "the broker warm-up before the first round");
        assertEquals("auto", new Fidelity.Options().warmup);
        assertError(parse(new Fidelity.Options(), "--warmup", "-5"), "--warmup expects 'auto' or 0 or more operations");
        assertError(parse(new Fidelity.Options(), "--warmup", "lots"), "got 'lots'");
        assertError(parse(new Fidelity.Options(), "--measure", "9"), "--measure expects 10 or more operations, got 9");
        Fidelity.Options kept = new Fidelity.Options();
        assertEquals(OptionalInt.empty(), parse(kept, "--keep-work").code());
        assertTrue(kept.keepWork.keep && !new Fidelity.Options().keepWork.keep);
        assertError(parse(new Fidelity.Options(), "--jvm-opt=-Xmx1g -Xms1g"), "--jvm-opt expects one JVM flag");
        Fidelity.Options flags = new Fidelity.Options();
        assertEquals(
                OptionalInt.empty(),
                parse(flags, "--jvm-opt=-XX:TieredStopAtLevel=1", "--jvm-opt", "-Xlog:gc")
                        .code());
        assertEquals(java.util.List.of("-XX:TieredStopAtLevel=1", "-Xlog:gc"), flags.jvmOpts);
        Fidelity.Options pinned = new Fidelity.Options();
        Outcome pin = parse(pinned, "--pin");
        List<Integer> cpus = Fidelity.allowedCpus();
        if (!Fidelity.onPath("taskset")) {
            assertError(pin, "--pin needs taskset (util-linux) on the PATH");
        } else if (!cpus.contains(0) || cpus.size() < 2) {
            assertError(pin, "--pin needs CPU 0 and at least one other CPU allowed to this process");
        } else {
            assertEquals(OptionalInt.empty(), pin.code(), pin.err());
            assertTrue(pinned.pin);
        }
        assertTrue(!new Fidelity.Options().pin, "pinning is asked for, not the default");
    }

    @Test
    void anAutomaticWarmUpLastsThirtySecondsAtTheBrokerWarmUpsPaceWithinItsFloorAndCeiling() {
        // base-writes' mean operation in the broker warm-up's last run, ~1.26 ms: 23810, the ceiling holds it to 10000
        assertEquals(10_000, Fidelity.warmupOf("auto", 1.26, false));
        // 3 ms a mean operation: exactly 30 s
        assertEquals(10_000, Fidelity.warmupOf("auto", 3.0, false));
        // tx-writes' ~5.35 ms: 5608
        assertEquals(5608, Fidelity.warmupOf("auto", 5.35, false));
        // tx-send-offsets' ~100 ms: 300 would leave the JIT cold, the floor holds it to 1000
        assertEquals(1000, Fidelity.warmupOf("auto", 100, false));
        assertEquals(1000, Fidelity.warmupOf("auto", Double.NaN, false), "no mean measured: the floor");
        // bulk: a fiftieth of the floor and a tenth of the ceiling, the same 30 s
        assertEquals(20, Fidelity.warmupOf("auto", 2000, true));
        assertEquals(150, Fidelity.warmupOf("auto", 200, true));
        assertEquals(750, Fidelity.warmupOf("auto", 40, true));
        assertEquals(1000, Fidelity.warmupOf("auto", 4, true));
        // a count given is used as it is (bulk: a fiftieth, at least 1 of a count above 0)
        assertEquals(300, Fidelity.warmupOf("300", 1.5, false));
        assertEquals(6, Fidelity.warmupOf("300", 1.5, true));
        assertEquals(1, Fidelity.warmupOf("20", 1.5, true));
        assertEquals(0, Fidelity.warmupOf("0", 1.5, true));
    }

    @Test
    void theWarmUpsMeanLeavesOutTheColdStart() throws Exception {
        java.nio.file.Path csv = java.nio.file.Files.createTempFile("warm-", ".csv");
        // 4 operations: two cold ones (9 and 7 ms), two warm (0.3 and 0.5 ms), with a phase column
        java.nio.file.Files.writeString(csv, "operation,send\n9000000,1\n7000000,1\n300000,1\n500000,1\n");
        assertEquals(0.4, Fidelity.laterHalfMeanMs(csv), 1e-9);
        java.nio.file.Files.writeString(csv, "operation\n9000000\n7000000\n300000\n500000\n700000\n");
        assertEquals(0.5, Fidelity.laterHalfMeanMs(csv), 1e-9, "of 5, the last 3");
        java.nio.file.Files.writeString(csv, "operation\n9000000\n");
        assertTrue(Double.isNaN(Fidelity.laterHalfMeanMs(csv)));
        java.nio.file.Files.delete(csv);
    }

    @Test
    void aRunThatEndedWellLeavesNoWorkFolderAndOneWithAFailureSaysWhereItIs() throws Exception {
        java.nio.file.Path work = java.nio.file.Files.createTempDirectory("omb-tx-bench-test-");
        java.nio.file.Files.createDirectories(work.resolve("logs"));
        java.nio.file.Files.writeString(work.resolve("logs/run.log"), "measured\n");
        java.nio.file.Files.writeString(work.resolve("result.json"), "{}");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Bench bench = new Bench(work.getParent(), work);
        bench.finish(new PrintStream(out, true, StandardCharsets.UTF_8), true);
        assertEquals(
                "Work folder kept (workloads, results, per-operation files, logs): " + work,
                out.toString(StandardCharsets.UTF_8).strip());
        assertTrue(java.nio.file.Files.isRegularFile(work.resolve("logs/run.log")));
        out.reset();
        bench.finish(new PrintStream(out, true, StandardCharsets.UTF_8), false);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertTrue(!java.nio.file.Files.exists(work), "deleted with what it held");
    }

    @Test
    void cpuListsReadAsTheKernelWritesThem() throws Exception {
        assertEquals(List.of(0, 1), Fidelity.cpuList("0-1\n"));
        assertEquals(List.of(0, 2, 3, 4, 7), Fidelity.cpuList(" 0,2-4,7"));
        assertEquals(List.of(3), Fidelity.cpuList("3"));
        org.junit.jupiter.api.Assumptions.assumeTrue(Fidelity.onPath("taskset"), "taskset");
        // taskset's own reading of this process's affinity, e.g. "pid 42's current affinity list: 0,1".
        Process taskset = new ProcessBuilder(
                        "taskset",
                        "-c",
                        "-p",
                        Long.toString(ProcessHandle.current().pid()))
                .redirectErrorStream(true)
                .start();
        String said = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, taskset.waitFor(), said);
        assertEquals(Fidelity.cpuList(said.substring(said.lastIndexOf(':') + 1)), Fidelity.allowedCpus(), said);
    }

    /** --pin's binding, on a real JVM (a broker's kind of process): every one of its threads, read back. */
    @Test
    void pinBindsEveryThreadOfAProcess(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                Fidelity.onPath("taskset") && java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task")),
                "Linux with taskset");
        assertTrue(!Fidelity.onPath("omb-tx-no-such-program"));
        java.nio.file.Path source = dir.resolve("Idle.java");
        java.nio.file.Files.writeString(
                source,
                "public class Idle { public static void main(String[] a) throws Exception {"
                        + " System.out.println(\"up\"); Thread.sleep(60_000); } }");
        String launcher = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
                .toString();
        Process jvm = new ProcessBuilder(launcher, "-Xmx64m", source.toString())
                .redirectErrorStream(true)
                .start();
        try {
            // Up: its GC, compiler and signal threads are running.
            assertEquals(
                    "up", new java.io.BufferedReader(new java.io.InputStreamReader(jvm.getInputStream())).readLine());
            Fidelity.pin(jvm.pid(), "0");
            java.nio.file.Path tasks = java.nio.file.Path.of("/proc", Long.toString(jvm.pid()), "task");
            List<java.nio.file.Path> threads;
            try (var listed = java.nio.file.Files.list(tasks)) {
                threads = listed.toList();
            }
            assertTrue(threads.size() > 5, "a JVM's threads: " + threads);
            for (java.nio.file.Path thread : threads) {
                assertEquals(List.of(0), Fidelity.allowedCpus(thread.resolve("status")), thread.toString());
            }
        } finally {
            jvm.destroyForcibly().waitFor();
        }
        IllegalStateException gone = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalStateException.class, () -> Fidelity.pin(jvm.pid(), "0"));
        assertEquals("taskset could not pin process " + jvm.pid() + " to CPU 0: no such process", gone.getMessage());
    }

    @Test
    void throughput() {
        Outcome help = parse(new Throughput.Options(), "--help");
        assertEquals(OptionalInt.of(0), help.code());
        assertTrue(
                help.out().contains("bin/bench throughput")
                        && help.out().contains("ProducerPerformance")
                        && help.out().contains("--quick"),
                help.out());
        assertError(parse(new Throughput.Options(), "--passes", "0"), "--passes must be 1 to 50, got 0");
        assertError(parse(new Throughput.Options(), "--messages", "5"), "--messages must be at least 10000, got 5");
        assertError(parse(new Throughput.Options(), "--delay-repeats", "0"), "--delay-repeats must be 1 to 50, got 0");
        assertError(
                parse(new Throughput.Options(), "--control-passes", "-1"), "--control-passes must be 0 to 50, got -1");
        Throughput.Options quick = new Throughput.Options();
        assertEquals(OptionalInt.empty(), parse(quick, "--quick").code());
        assertEquals(1_000_000, quick.messages());
        assertEquals(5, quick.delaySeconds());
        assertEquals(2, quick.passes());
        assertEquals(1, quick.delayRepeats());
        assertEquals(1, quick.controlPasses());
        Throughput.Options defaults = new Throughput.Options();
        parse(defaults);
        assertEquals(4_000_000, defaults.messages());
        assertEquals(3, defaults.passes());
        assertEquals(15, defaults.delaySeconds());
        assertEquals(3, defaults.delayRepeats());
        assertEquals(2, defaults.controlPasses());
    }
}

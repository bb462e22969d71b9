package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
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
        assertEquals(1, defaults.rounds);
        assertError(parse(new RunnerOverhead.Options(), "-n", "0"), "--rounds");
    }

    @Test
    void fidelity() {
        Outcome help = parse(new Fidelity.Options(), "--help");
        assertEquals(OptionalInt.of(0), help.code());
        assertTrue(help.out().contains("bin/bench fidelity") && help.out().contains("--jvm-opt"), help.out());
        assertError(parse(new Fidelity.Options(), "--scenarios", "tx-nope"), "unknown scenario 'tx-nope'");
        assertError(parse(new Fidelity.Options(), "--jvm-opt", "Xmx1g"), "--jvm-opt expects one JVM flag");
        assertError(parse(new Fidelity.Options(), "--jvm-opt=-Xmx1g -Xms1g"), "--jvm-opt expects one JVM flag");
        assertError(parse(new Fidelity.Options(), "--warmup", "lots"), "got 'lots'");
        assertError(parse(new Fidelity.Options(), "--warmup", "-5"), "--warmup");
        assertError(parse(new Fidelity.Options(), "--measure", "9"), "--measure");
        assertError(parse(new Fidelity.Options(), "--rounds", "0"), "--rounds");
        assertError(parse(new Fidelity.Options(), "--broker-config", "=1"), "--broker-config");
        assertError(parse(new Fidelity.Options(), "--broker-version", "two"), "--broker-version two");
        assertError(parse(new Fidelity.Options(), "--pool", "/tmp"), "--pool");
        Fidelity.Options defaults = new Fidelity.Options();
        assertEquals(OptionalInt.empty(), parse(defaults).code());
        assertEquals(5, defaults.rounds);
        assertEquals(1000, defaults.warmup);
        assertEquals(1000, defaults.measure);
        assertEquals(SeedLoop.SCENARIOS, defaults.scenarios);
        assertTrue(!defaults.keepWork.keep);
        Fidelity.Options given = new Fidelity.Options();
        assertEquals(
                OptionalInt.empty(),
                parse(
                                given,
                                "-n",
                                "1",
                                "--warmup",
                                "0",
                                "--measure",
                                "10",
                                "--scenarios",
                                "tx-writes,bulk-tx",
                                "--broker-config",
                                "log.flush.interval.messages=1",
                                "--jvm-opt=-XX:TieredStopAtLevel=1",
                                "--jvm-opt",
                                "-Xlog:gc",
                                "--keep-work")
                        .code());
        assertEquals(List.of("tx-writes", "bulk-tx"), given.scenarios);
        assertEquals(Map.entry("log.flush.interval.messages", "1"), given.brokerConfig.get(0));
        assertEquals(List.of("-XX:TieredStopAtLevel=1", "-Xlog:gc"), given.jvmOpts);
        assertTrue(given.keepWork.keep);
    }

    @Test
    void scale() {
        Outcome help = parse(new Scale.Options(), "--help");
        assertEquals(OptionalInt.of(0), help.code());
        assertTrue(help.out().contains("bin/bench scale") && help.out().contains("--rounds"), help.out());
        assertError(parse(new Scale.Options(), "--rate", "0"), "--rate");
        assertError(parse(new Scale.Options(), "many"), "N expects a whole number, got 'many'");
        Scale.Options given = new Scale.Options();
        assertEquals(
                OptionalInt.empty(),
                parse(given, "-n", "2", "--rate", "500", "3").code());
        assertEquals(2, given.rounds);
        assertEquals(500, given.rate());
        assertArrayEquals(new int[] {3}, given.counts());
        Scale.Options defaults = new Scale.Options();
        parse(defaults);
        assertArrayEquals(new int[] {10, 100, 1_000}, defaults.counts());
        assertEquals(1, defaults.rounds);
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
        assertError(parse(new Throughput.Options(), "--passes", "0"), "--passes");
        assertError(parse(new Throughput.Options(), "--messages", "5"), "--messages");
        assertError(parse(new Throughput.Options(), "--skip-delay"), "--skip-delay");
        Throughput.Options quick = new Throughput.Options();
        assertEquals(OptionalInt.empty(), parse(quick, "--quick").code());
        assertEquals(1_000_000, quick.messages());
        assertEquals(2, quick.passes());
        Throughput.Options defaults = new Throughput.Options();
        parse(defaults);
        assertEquals(4_000_000, defaults.messages());
        assertEquals(3, defaults.passes());
    }
}

package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What every benchmark shares: the rounds' order, the ratios over them and what their interval decides. */
class BenchTest {

    @Test
    void omb_txGoesFirstInOddRoundsAndSecondInEvenOnes() throws Exception {
        List<String> ran = new ArrayList<>();
        Bench.Pair<String> first = Bench.round(1, () -> add(ran, "omb"), () -> add(ran, "bare"));
        Bench.Pair<String> second = Bench.round(2, () -> add(ran, "omb"), () -> add(ran, "bare"));
        assertEquals(List.of("omb", "bare", "bare", "omb"), ran);
        assertEquals(new Bench.Pair<>("omb", "bare"), first);
        assertEquals(first, second, "each side's figures in its place, whichever ran first");
    }

    private static String add(List<String> ran, String side) {
        ran.add(side);
        return side;
    }

    @Test
    void ratiosAreRoundByRoundOmbTxOverTheBaselineSorted() {
        List<Bench.Pair<Double>> rounds =
                List.of(new Bench.Pair<>(2.0, 8.0), new Bench.Pair<>(3.0, 3.0), new Bench.Pair<>(4.0, 1.0));
        assertArrayEquals(new double[] {0.25, 1.0, 4.0}, Bench.ratios(rounds, Double::doubleValue));
        assertEquals(3.0, Bench.median(rounds, true, Double::doubleValue));
        assertEquals(3.0, Bench.median(rounds, false, Double::doubleValue));
    }

    @Test
    void aRatioIsItsMedianWithTheIntervalFromFiveRoundsOnAndTheRangeBefore() {
        assertEquals("1.020", Bench.ratio(new double[] {1.02}));
        assertEquals("1.000 (0.900–1.100)", Bench.ratio(new double[] {1.1, 0.9, 1.0, 1.0}));
        // n = 10: [x(2), x(9)] covers the median 97.9% of the time, [x(3), x(8)] only 89.1%
        assertEquals("5.500 [2.000–9.000]", Bench.ratio(new double[] {10, 9, 8, 7, 6, 5, 4, 3, 2, 1}));
    }

    @Test
    void anIntervalInsideTheBandMeetsItOneAcrossItsEdgeDecidesNothing() {
        double[] tight = {0.97, 0.98, 0.99, 1.0, 1.0, 1.0, 1.01, 1.02, 1.03, 1.04};
        double[] wide = {0.6, 0.8, 0.9, 0.99, 1.0, 1.0, 1.01, 1.1, 1.3, 1.5};
        double[] off = {1.5, 1.51, 1.52, 1.53, 1.54, 1.55, 1.56, 1.57, 1.58, 1.59};
        assertEquals("1.000 [0.980–1.030] met", Bench.decided(tight, 0.95, 1.05));
        assertEquals("1.000 [0.800–1.300] undecided", Bench.decided(wide, 0.95, 1.05));
        assertEquals("1.545 [1.510–1.580] not met", Bench.decided(off, 0.95, 1.05));
        assertEquals("1.000 (0.980–1.020)", Bench.decided(new double[] {0.98, 1.0, 1.02}, 0.95, 1.05));
    }

    @Test
    void aRunThatEndedWellLeavesNoWorkFolderAndOneWithAFailureSaysWhereItIs() throws Exception {
        Path work = Files.createTempDirectory("omb-tx-bench-test-");
        Files.createDirectories(work.resolve("logs"));
        Files.writeString(work.resolve("logs/run.log"), "measured\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Bench bench = new Bench(work.getParent(), work);
        bench.finish(new PrintStream(out, true, StandardCharsets.UTF_8), true);
        assertEquals(
                "Work folder kept (workloads, results, logs): " + work,
                out.toString(StandardCharsets.UTF_8).strip());
        assertTrue(Files.isRegularFile(work.resolve("logs/run.log")));
        out.reset();
        bench.finish(new PrintStream(out, true, StandardCharsets.UTF_8), false);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertTrue(!Files.exists(work), "deleted with what it held");
    }
}

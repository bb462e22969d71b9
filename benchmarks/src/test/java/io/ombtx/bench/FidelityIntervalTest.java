package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fidelity table's intervals: which order statistics bound a median, and what they decide. */
class FidelityIntervalTest {

    private static double[] oneToN(int n) {
        return IntStream.rangeClosed(1, n).asDoubleStream().toArray();
    }

    @Test
    void theIntervalIsTheOrderStatisticsThatCoverTheMedianNineTimesInTen() {
        // n = 10: P(B <= 1) = 11/1024, so [x(2), x(9)] covers 97.9%; [x(3), x(8)] only 89.1%.
        assertArrayEquals(new double[] {2, 9}, FidelityReport.interval(oneToN(10)));
        // n = 5: the whole range covers 1 - 2/32 = 93.75%.
        assertArrayEquals(new double[] {1, 5}, FidelityReport.interval(oneToN(5)));
        // n = 20: P(B <= 5) = 2.07%, P(B <= 6) = 5.77%: [x(6), x(15)].
        assertArrayEquals(new double[] {6, 15}, FidelityReport.interval(oneToN(20)));
        // n = 4: even the whole range covers only 87.5%.
        assertNull(FidelityReport.interval(oneToN(4)));
    }

    @Test
    void theRoundsToDecideScaleWithTheSquareOfHowFarTheIntervalOverreaches() {
        // median 0.90 below the band, interval [x(2), x(9)] = [0.86, 0.97]: 0.07 up against 0.05 of room
        double[] below = {0.85, 0.86, 0.87, 0.88, 0.89, 0.91, 0.92, 0.93, 0.97, 0.99};
        assertEquals(20, FidelityReport.roundsToDecide(below, 0.95, 1.05)); // ceil(10 × 1.4²) = ceil(19.6)
        // an interval that already lies inside the band: nothing more to run
        double[] inside = {0.97, 0.98, 0.99, 1.0, 1.0, 1.0, 1.01, 1.02, 1.03, 1.04};
        assertEquals(0, FidelityReport.roundsToDecide(inside, 0.95, 1.05));
        // a median on the band's edge: no number of rounds decides it
        double[] edge = {0.9, 0.92, 0.93, 0.94, 0.95, 0.95, 0.96, 0.97, 0.98, 1.0};
        assertEquals(-1, FidelityReport.roundsToDecide(edge, 0.95, 1.05));
        // fewer than 5 rounds have no interval to scale
        assertEquals(-1, FidelityReport.roundsToDecide(new double[] {1, 1, 1, 1}, 0.95, 1.05));
    }

    private static FidelityFigures figures(double p50, long slow) {
        return new FidelityFigures(
                p50,
                100,
                p50 * 1000,
                slow,
                1000,
                Map.of(),
                Double.NaN,
                Double.NaN,
                p50,
                slow,
                Double.NaN,
                Double.NaN,
                Double.NaN);
    }

    @Test
    void aMedianInsideTheBandWithAWideIntervalIsUndecidedAndATightOneIsMet() {
        Map<String, List<FidelityFigures[]>> measured = new LinkedHashMap<>();
        List<FidelityFigures[]> tight = new ArrayList<>();
        List<FidelityFigures[]> wide = new ArrayList<>();
        List<FidelityFigures[]> off = new ArrayList<>();
        double[] spread = {0.97, 0.98, 0.99, 1.0, 1.0, 1.0, 1.01, 1.02, 1.03, 1.04};
        double[] scattered = {0.6, 0.8, 0.9, 0.99, 1.0, 1.0, 1.01, 1.1, 1.3, 1.5};
        for (int i = 0; i < 10; i++) {
            tight.add(new FidelityFigures[] {figures(spread[i], 100), figures(1, 100)});
            wide.add(new FidelityFigures[] {figures(scattered[i], 100 + 20 * i), figures(1, 100)});
            off.add(new FidelityFigures[] {figures(1.5 + i / 100.0, 60), figures(1, 100), figures(1, 100)});
        }
        measured.put("tight", tight);
        measured.put("wide", wide);
        measured.put("off", off);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FidelityReport.printIntervals(new PrintStream(bytes, true, StandardCharsets.UTF_8), measured);
        String table = bytes.toString(StandardCharsets.UTF_8);

        String tightLine = line(table, "tight");
        assertTrue(tightLine.contains("[0.980–1.030] met"), tightLine);
        String wideLine = line(table, "wide");
        // the interval [0.8, 1.3] overreaches the room above the median 1.0 (0.05) six times: 10 × 6² rounds
        assertTrue(wideLine.contains("[0.800–1.300] undecided (≈360 rounds)"), wideLine);
        // slow counts 100..280 against 100: ratios 1.0..2.8, interval [x(2), x(9)] = [1.2, 2.6]: not within 10%
        assertTrue(wideLine.endsWith("[1.200–2.600] not met"), wideLine);
        String offLine = line(table, "off");
        assertTrue(offLine.contains("[1.510–1.580] not met"), offLine);
        assertTrue(offLine.endsWith("[0.600–0.600] not met"), offLine);
        // with the bare loop run twice a round (--aa), the bare loop against itself too
        String aaLine = line(table, "off (A/A)");
        assertTrue(aaLine.contains("[1.000–1.000] met") && aaLine.endsWith("[1.000–1.000] met"), aaLine);
        assertTrue(table.lines().noneMatch(l -> l.startsWith("wide (A/A)")), table);
    }

    @Test
    void theMedianUnderTenMillisecondsIsTheFastModesAndTheSplitTableDecidesIt() {
        // 600 operations: 400 of 2..5.99 ms (10 each of 40 values, median 3.95-4.0 ms), 200 of 100 ms
        org.HdrHistogram.Histogram operations = twoModes(40, 2_000, 100, 100_000, 200);
        double fast = FidelityFigures.fastMedian(operations);
        assertTrue(fast >= 3.9 && fast <= 4.0, "the median of the fast mode, not of all: " + fast);
        // more slow operations than fast ones: the p50 is a slow one, the fast median stays put
        operations.recordValueWithCount(100_000, 300);
        assertTrue(operations.getValueAtPercentile(50) >= 99_000);
        assertEquals(fast, FidelityFigures.fastMedian(operations));
        assertTrue(Double.isNaN(FidelityFigures.fastMedian(new org.HdrHistogram.Histogram(3))));

        List<FidelityFigures[]> runs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            FidelityFigures omb = new FidelityFigures(
                    100,
                    100,
                    1,
                    300,
                    600,
                    Map.of(),
                    Double.NaN,
                    Double.NaN,
                    4.0 * (1 + i / 200.0),
                    300,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN);
            FidelityFigures bare = new FidelityFigures(
                    3,
                    100,
                    1,
                    200,
                    600,
                    Map.of(),
                    Double.NaN,
                    Double.NaN,
                    4.0,
                    200,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN);
            runs.add(new FidelityFigures[] {omb, bare});
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FidelityReport.printSplit(new PrintStream(bytes, true, StandardCharsets.UTF_8), Map.of("tx-x", runs));
        String split = line(bytes.toString(StandardCharsets.UTF_8), "tx-x");
        assertTrue(split.contains("backed off 50.0% / 33.3%"), split);
        // 300 ÷ 200 backed off in every round: outside 0.90-1.10 however few the rounds
        assertTrue(split.contains("backed off × 1.500 [1.500–1.500] not met"), split);
        // ratios 1.000..1.035, 8 rounds: [x(2), x(7)] = [1.005, 1.030], inside 0.95-1.05
        assertTrue(split.matches(".*under 10 ms p50 × 1\\.01[78] \\[1\\.005–1\\.030\\] met.*"), split);
    }

    @Test
    void theBackOffLineIsTenMillisecondsSoTheTwentyMillisecondRetryIsNoFastOperation() {
        // tx-writes on Kafka 4.x: 700 operations of 1.5-3.5 ms, 300 after the 20 ms retry of a first write
        double fast = FidelityFigures.fastMedian(twoModes(70, 1_500, 30, 21_000, 300));
        assertTrue(fast >= 2.5 && fast <= 2.55, "the median of the 700 under 10 ms: " + fast);
    }

    /** {@code values} fast values from {@code firstMicros} {@code stepMicros} apart, 10 of each, and the slow ones. */
    private static org.HdrHistogram.Histogram twoModes(
            int values, long firstMicros, long stepMicros, long slowMicros, long slowCount) {
        org.HdrHistogram.Histogram operations = new org.HdrHistogram.Histogram(3);
        for (int v = 0; v < values; v++) {
            operations.recordValueWithCount(firstMicros + stepMicros * v, 10);
        }
        operations.recordValueWithCount(slowMicros, slowCount);
        return operations;
    }

    /** A round of three sides: omb-tx, the bare loop, the bare loop again (--aa). */
    private static FidelityFigures[] round(double ombP50, double bareP50, double againP50) {
        return new FidelityFigures[] {figures(ombP50, 0), figures(bareP50, 0), figures(againP50, 0)};
    }

    @Test
    void aMissTheBareLoopAlsoMakesAgainstItselfIsNotDecidedAndOneItDoesNotIsNotMet() {
        // the bare loop ÷ itself 1.10 to 1.40, median 1.25: the band is out of reach of these rounds on this machine,
        // and omb-tx's 1.30 is inside the bare loop's own spread
        double[] again = {1.2, 1.4, 1.1, 1.3, 1.25};
        List<FidelityFigures[]> noisy = new ArrayList<>();
        List<FidelityFigures[]> wider = new ArrayList<>();
        List<FidelityFigures[]> off = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            noisy.add(round(1.3, 1.0, again[i]));
            wider.add(round(1.6, 1.0, again[i]));
            off.add(round(1.3, 1.0, 1.0));
        }
        List<String> missed = new ArrayList<>(List.of("p50", "total"));
        assertEquals(
                "NOT DECIDED here (p50: A/A misses it too, 1.250; total: A/A misses it too, 1.250)",
                FidelityReport.verdict(missed, noisy));
        // omb-tx's 1.60 is beyond the bare loop's own spread: its miss, though the A/A misses the band too
        assertEquals("NOT MET (p50, total)", FidelityReport.verdict(missed, wider));
        // the bare loop agrees with itself: omb-tx's miss is its own
        assertEquals("NOT MET (p50, total)", FidelityReport.verdict(missed, off));
        // without --aa there is nothing to set a miss beside
        List<FidelityFigures[]> twoSides =
                noisy.stream().map(r -> new FidelityFigures[] {r[0], r[1]}).toList();
        assertEquals("NOT MET (p50, total)", FidelityReport.verdict(missed, twoSides));
        assertEquals("MET", FidelityReport.verdict(List.of(), noisy));
    }

    @Test
    void overSixRoundsEachSideRunsBeforeEachOtherOneHalfTheTimes() {
        for (int sides = 2; sides <= 3; sides++) {
            int[][] before = new int[sides][sides];
            for (int round = 1; round <= 6; round++) {
                int[] order = Bench.order(round, sides);
                assertEquals(sides, IntStream.of(order).distinct().count(), "every side once a round");
                for (int i = 0; i < sides; i++) {
                    for (int j = i + 1; j < sides; j++) {
                        before[order[i]][order[j]]++;
                    }
                }
            }
            for (int a = 0; a < sides; a++) {
                for (int b = 0; b < sides; b++) {
                    if (a != b) {
                        assertEquals(3, before[a][b], sides + " sides: side " + a + " before side " + b);
                    }
                }
            }
        }
        assertArrayEquals(new int[] {0, 1}, Bench.order(1, 2));
        assertArrayEquals(new int[] {1, 0}, Bench.order(2, 2));
    }

    @Test
    void withTheAaRunThePhaseMeansGapsAndBackOffsShowTheBareLoopsSecondRunBesideTheFirst() {
        List<FidelityFigures[]> runs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            runs.add(new FidelityFigures[] {
                new FidelityFigures(
                        2,
                        20,
                        2000,
                        0,
                        1000,
                        Map.of("send", 0.150, "commit", 7.2),
                        13.2,
                        25.1,
                        1.8,
                        250,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN),
                new FidelityFigures(
                        2,
                        20,
                        2000,
                        0,
                        1000,
                        Map.of("send", 0.133, "commit", 6.9),
                        8.7,
                        17.0,
                        1.8,
                        245,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN),
                new FidelityFigures(
                        2,
                        20,
                        2000,
                        0,
                        1000,
                        Map.of("send", 0.160, "commit", 7.0),
                        9.1,
                        18.2,
                        1.8,
                        300,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN)
            });
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FidelityReport.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), Map.of("tx-writes", runs));
        String table = bytes.toString(StandardCharsets.UTF_8);
        List<String> lines =
                table.lines().filter(l -> l.startsWith("tx-writes ")).toList();
        assertTrue(table.contains("(omb-tx / bare / bare again, the A/A;"), table);
        assertTrue(lines.stream().anyMatch(l -> l.contains("send 0.150 / 0.133 / 0.160 |")), table);
        assertTrue(lines.stream().anyMatch(l -> l.contains("| 250/245/300 250/245/300")), table);
        assertTrue(
                lines.stream().anyMatch(l -> l.contains("p50    13.2 /     8.7 /     9.1 | p90    25.1 /    17.0")),
                table);
    }

    @Test
    void theOperationsThatMetAnyBackOffAreCountedFromTenMillisecondsAndPrintedRoundByRound() throws Exception {
        // ack-first on Kafka 4.x: most writes resolve in ~0.5 ms, some after the 20 ms retry, one at ~100
        org.HdrHistogram.Histogram operations = new org.HdrHistogram.Histogram(3);
        operations.recordValueWithCount(600, 900);
        operations.recordValueWithCount(9_990, 5); // under the line
        operations.recordValueWithCount(22_000, 94);
        operations.recordValueWithCount(103_000, 1);
        FidelityFigures omb = FidelityFigures.of(operations, Map.of(), java.nio.file.Path.of("no-gaps-here"));
        assertEquals(95, omb.backedOff(), "the 20 ms and the 100 ms ones");
        assertEquals(1, omb.slow(), "only the 100 ms one is slow");
        FidelityFigures bare = new FidelityFigures(
                0.6, 22, 1, 0, 1000, Map.of(), Double.NaN, Double.NaN, 0.6, 40, Double.NaN, Double.NaN, Double.NaN);
        FidelityFigures none = new FidelityFigures(
                0.6, 1, 1, 0, 1000, Map.of(), Double.NaN, Double.NaN, 0.6, 0, Double.NaN, Double.NaN, Double.NaN);
        Map<String, List<FidelityFigures[]>> measured = new LinkedHashMap<>();
        measured.put(
                "tx-writes-ack-first",
                List.of(new FidelityFigures[] {omb, bare}, new FidelityFigures[] {omb, none}, new FidelityFigures[] {
                    none, bare
                }));
        measured.put("base-writes", List.<FidelityFigures[]>of(new FidelityFigures[] {none, none}));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FidelityReport.printBackedOff(new PrintStream(bytes, true, StandardCharsets.UTF_8), measured);
        String table = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(
                line(table, "tx-writes-ack-first").endsWith("|    95.0 / 40.0    | 95/40 95/0 0/40"),
                "medians, then round by round: " + table);
        assertTrue(table.lines().noneMatch(l -> l.startsWith("base-writes")), "no back-off on either side: " + table);
        bytes.reset();
        FidelityReport.printBackedOff(
                new PrintStream(bytes, true, StandardCharsets.UTF_8),
                Map.of("base-writes", measured.get("base-writes")));
        assertEquals("", bytes.toString(StandardCharsets.UTF_8), "no table when nothing backed off");
    }

    @Test
    void aPhaseOfOneSideOnlyIsADashOnTheOtherNotNaN() {
        // tx-fetch: the bare loop times its wait until the records are visible as a phase, omb-tx as end-to-end
        Map<String, Double> bare = new LinkedHashMap<>();
        bare.put("commit", 9.5);
        bare.put("fetch", 1.111);
        FidelityFigures ombSide = new FidelityFigures(
                11,
                30,
                10,
                0,
                1000,
                Map.of("commit", 9.75),
                Double.NaN,
                Double.NaN,
                11,
                2,
                Double.NaN,
                Double.NaN,
                Double.NaN);
        FidelityFigures bareSide = new FidelityFigures(
                11, 30, 10, 0, 1000, bare, Double.NaN, Double.NaN, 11, 2, Double.NaN, Double.NaN, Double.NaN);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FidelityReport.print(
                new PrintStream(bytes, true, StandardCharsets.UTF_8),
                Map.of("tx-fetch", List.<FidelityFigures[]>of(new FidelityFigures[] {ombSide, bareSide})));
        String table = bytes.toString(StandardCharsets.UTF_8);
        String phases = table.lines()
                .filter(l -> l.startsWith("tx-fetch") && l.contains("commit"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(table));
        assertTrue(phases.endsWith("| commit 9.750 / 9.500 | fetch — / 1.111 |"), phases);
    }

    @Test
    void aLoopStillGettingFasterAfterItsWarmUpIsSaid() {
        // as measured after 1000 warm-up operations of tx-fetch: the first measured ones ~1.5 ms, the later ~1.1 ms
        long[] warming = new long[1000];
        for (int op = 0; op < warming.length; op++) {
            warming[op] = op < 500 ? 1500 + op % 7 : 1100 + op % 5;
        }
        assertEquals(1102.0 / 1503, FidelityFigures.settling(warming), 1e-9);
        long[] steady = new long[1001];
        for (int op = 0; op < steady.length; op++) {
            steady[op] = 1100 + (op * 37) % 11; // no trend; the middle operation belongs to neither half
        }
        assertEquals(1.0, FidelityFigures.settling(steady), 0.01);
        assertTrue(Double.isNaN(FidelityFigures.settling(new long[] {5})));

        Map<String, List<FidelityFigures[]>> measured = new LinkedHashMap<>();
        List<FidelityFigures[]> fetch = new ArrayList<>();
        List<FidelityFigures[]> writes = new ArrayList<>();
        for (double s : new double[] {0.80, 0.85, 0.97}) {
            FidelityFigures omb = figures(1, 0); // omb-tx's order is not known: NaN, not shown
            fetch.add(new FidelityFigures[] {omb, withSettling(s)});
            writes.add(new FidelityFigures[] {omb, withSettling(s + 0.15)});
        }
        measured.put("tx-fetch", fetch);
        measured.put("base-writes", writes);
        measured.put("bulk-tx", List.<FidelityFigures[]>of(new FidelityFigures[] {figures(1, 0), figures(1, 0)}));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FidelityReport.printSettling(new PrintStream(bytes, true, StandardCharsets.UTF_8), measured);
        String table = bytes.toString(StandardCharsets.UTF_8);
        assertEquals("tx-fetch                  | 0.850 [0.800–0.970] still warming up", line(table, "tx-fetch"));
        assertEquals("base-writes               | 1.000 [0.950–1.120]", line(table, "base-writes"));
        assertTrue(table.lines().noneMatch(l -> l.startsWith("bulk-tx")), "no order known on either side: " + table);
    }

    @Test
    void omb_txsPausedTimeIsReadForTheMeasuredOperationsAndPrintedOverTheRoundsThatKeptIt(@TempDir Path dir)
            throws Exception {
        // 3 warm-up operations paused 500 µs each, then 10 measured ones 1..10 µs (in ns, as LoopFiles writes them)
        Path file = dir.resolve("tx-writes-1-omb.json.pauses");
        List<String> lines = new ArrayList<>(List.of("500000", "500000", "500000"));
        for (int us = 10; us >= 1; us--) {
            lines.add(Long.toString(us * 1000L));
        }
        Files.write(file, lines);
        FidelityFigures measured10 = new FidelityFigures(
                1, 1, 1, 0, 10, Map.of(), Double.NaN, Double.NaN, 1, 0, Double.NaN, Double.NaN, Double.NaN);
        FidelityFigures omb = measured10.withPauses(file);
        assertEquals(6.0, omb.pauseP50()); // the sorted measured 1..10: index 5
        assertEquals(10.0, omb.pauseP90()); // index 9: the warm-up's 500 µs are not among them
        assertTrue(measured10.withPauses(dir.resolve("absent")) == measured10, "no file: unchanged");

        Map<String, List<FidelityFigures[]>> measured = new LinkedHashMap<>();
        measured.put("tx-writes", List.of(new FidelityFigures[] {omb, measured10}, new FidelityFigures[] {
            measured10, measured10
        })); // a pooled round with no file
        measured.put("base-streaming", List.<FidelityFigures[]>of(new FidelityFigures[] {measured10, measured10}));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FidelityReport.printPauses(new PrintStream(bytes, true, StandardCharsets.UTF_8), measured);
        String table = bytes.toString(StandardCharsets.UTF_8);
        assertEquals("tx-writes                 | p50     6.0 | p90    10.0 (1 of 2 rounds)", line(table, "tx-writes"));
        assertTrue(table.lines().noneMatch(l -> l.startsWith("base-streaming")), table);
        ByteArrayOutputStream none = new ByteArrayOutputStream();
        FidelityReport.printPauses(
                new PrintStream(none, true, StandardCharsets.UTF_8),
                Map.of("base-streaming", measured.get("base-streaming")));
        assertEquals("", none.toString(StandardCharsets.UTF_8), "nothing paused: no table");
    }

    private static FidelityFigures withSettling(double settling) {
        return new FidelityFigures(
                1, 1, 1, 0, 1000, Map.of(), Double.NaN, Double.NaN, 1, 0, settling, Double.NaN, Double.NaN);
    }

    private static String line(String table, String scenario) {
        return table.lines()
                .filter(l -> l.startsWith(scenario + " ") && !l.startsWith(scenario + " (A/A)"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(scenario + " not in:\n" + table));
    }
}

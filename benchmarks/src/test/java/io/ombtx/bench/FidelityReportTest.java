package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.stats.Histograms;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** bin/bench fidelity's figures of one run and its table of ratios and verdicts. */
class FidelityReportTest {

    @Test
    void aRunsFiguresAreItsPercentilesTotalAndOperationsOfFiftyMillisecondsOrMore() {
        Histogram operations = Histograms.create();
        operations.recordValueWithCount(2_000, 90); // 2 ms
        operations.recordValueWithCount(49_000, 5); // just under the line
        operations.recordValueWithCount(100_000, 5); // a back-off
        Fidelity.Figures figures = Fidelity.Figures.of(operations);
        assertEquals(2.0, figures.p50(), 0.01);
        assertEquals(100.0, figures.p99(), 0.1);
        assertEquals(90 * 2 + 5 * 49 + 5 * 100, figures.total(), 1);
        assertEquals(5, figures.slow());
        assertEquals(100, figures.count());
        assertEquals(0, Fidelity.Figures.of(Histograms.create()).slow());
    }

    private static Fidelity.Figures figures(double p50, long slow) {
        return new Fidelity.Figures(p50, 10 * p50, 1000 * p50, slow, 1000);
    }

    @Test
    void aScenarioMeetsItsTargetsWhenEveryMedianIsInTheBandAndItsBackOffsWithinTenPercent() {
        Map<String, List<Bench.Pair<Fidelity.Figures>>> measured = new LinkedHashMap<>();
        double[] spread = {0.97, 0.98, 0.99, 1.0, 1.0, 1.0, 1.01, 1.02, 1.03, 1.04};
        List<Bench.Pair<Fidelity.Figures>> tight = new ArrayList<>();
        List<Bench.Pair<Fidelity.Figures>> slower = new ArrayList<>();
        for (double ratio : spread) {
            tight.add(new Bench.Pair<>(figures(ratio, 104), figures(1, 100)));
            slower.add(new Bench.Pair<>(figures(ratio + 0.5, 150), figures(1, 100)));
        }
        measured.put("tight", tight);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertTrue(Fidelity.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), measured));
        String tightLine = line(bytes.toString(StandardCharsets.UTF_8), "tight");
        assertTrue(tightLine.contains("1.000 [0.980–1.030] met") && tightLine.endsWith("| MET"), tightLine);

        measured.put("slower", slower);
        bytes.reset();
        assertFalse(Fidelity.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), measured));
        String slowerLine = line(bytes.toString(StandardCharsets.UTF_8), "slower");
        assertTrue(slowerLine.contains("1.500 [1.480–1.530] not met"), slowerLine);
        assertTrue(slowerLine.endsWith("NOT MET (p50, p99, total, >=50ms)"), slowerLine);
    }

    @Test
    void backOffsUnderOnePercentOfTheOperationsOnBothSidesAreTooFewToMiss() {
        List<Bench.Pair<Fidelity.Figures>> rounds = List.of(new Bench.Pair<>(figures(1, 9), figures(1, 3)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertTrue(Fidelity.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), Map.of("rare", rounds)));
        assertTrue(line(bytes.toString(StandardCharsets.UTF_8), "rare").endsWith("| MET"), bytes.toString());
    }

    private static String line(String table, String scenario) {
        return table.lines()
                .filter(l -> l.startsWith(scenario + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(scenario + " not in:\n" + table));
    }
}

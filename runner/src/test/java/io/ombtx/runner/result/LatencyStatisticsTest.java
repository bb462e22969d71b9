package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.stats.Histograms;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** How a histogram becomes the result's latency statistics: omb-tx's summary, OMB's eight statistics, quantiles. */
class LatencyStatisticsTest {

    private static final ObjectMapper JSON = ResultWriter.json();

    private static Histogram oneToHundredMillis() {
        Histogram h = Histograms.create();
        for (int v = 1; v <= 100; v++) {
            h.recordValue(v * 1000L); // 1..100 ms
        }
        return h;
    }

    @Test
    void summaryIsInMillisecondsWithTheSeedsPercentiles() throws Exception {
        LatencySummary s = LatencySummary.of(oneToHundredMillis());
        assertEquals(100, s.count());
        assertEquals(1.0, s.min(), 0.01);
        assertEquals(25.0, s.p25(), 0.05);
        assertEquals(50.0, s.p50(), 0.05);
        assertEquals(90.0, s.p90(), 0.1);
        assertEquals(100.0, s.max(), 0.1);
        assertEquals(5050.0, s.totalMillis(), 5);
        JsonNode json = JSON.readTree(JSON.writeValueAsString(s));
        assertEquals("ms", json.get("unit").asText());
        assertEquals(
                List.of(
                        "unit",
                        "count",
                        "min",
                        "avg",
                        "p25",
                        "p50",
                        "p75",
                        "p90",
                        "p95",
                        "p99",
                        "p999",
                        "p9999",
                        "max",
                        "totalMillis"),
                fieldNames(json));
        assertEquals(s, JSON.readValue(JSON.writeValueAsString(s), LatencySummary.class));
    }

    @Test
    void anEmptySummaryHasOnlyUnitAndCount() throws Exception {
        LatencySummary s = LatencySummary.of(Histograms.create());
        assertEquals(0, s.count());
        assertNull(s.p50());
        assertEquals("{\"unit\":\"ms\",\"count\":0}", JSON.writeValueAsString(s).replaceAll("\\s", ""));
    }

    @Test
    void ombStatisticsInMicrosAreWholeExceptTheAverageAndInMillisAllDoubles() throws Exception {
        Histogram h = Histograms.create();
        h.recordValue(1500);
        h.recordValue(2500);
        h.recordValue(10_000);
        OmbLatency<Double, Long> micros = OmbLatency.micros(h);
        assertEquals(h.getMean(), micros.avg());
        assertEquals(h.getValueAtPercentile(50), micros.p50());
        assertEquals(h.getMaxValue(), micros.max());
        OmbLatency<Double, Double> millis = OmbLatency.millis(h);
        assertEquals(h.getMean() / 1000, millis.avg());
        assertEquals(h.getValueAtPercentile(99.99) / 1000.0, millis.p9999());
        JsonNode json = JSON.readTree(JSON.writeValueAsString(micros));
        assertEquals(List.of("Avg", "50pct", "75pct", "95pct", "99pct", "999pct", "9999pct", "Max"), fieldNames(json));
        assertTrue(json.get("Avg").isDouble()
                && json.get("50pct").isIntegralNumber()
                && json.get("Max").isIntegralNumber());

        OmbLatency<Double, Long> empty = OmbLatency.micros(Histograms.create());
        assertEquals(new OmbLatency<>(0.0, 0L, 0L, 0L, 0L, 0L, 0L, 0L), empty);
    }

    @Test
    void perPeriodStatisticsBecomeOneListPerStatistic() {
        Histogram first = Histograms.create();
        first.recordValue(2000);
        Histogram second = Histograms.create();
        second.recordValue(4000);
        second.recordValue(8000);
        OmbLatency<List<Double>, List<Double>> series =
                OmbLatency.series(List.of(OmbLatency.millis(first), OmbLatency.millis(second)));
        assertEquals(List.of(first.getMean() / 1000, second.getMean() / 1000), series.avg());
        assertEquals(List.of(first.getMaxValue() / 1000.0, second.getMaxValue() / 1000.0), series.max());
        assertEquals(
                List.of(),
                OmbLatency.series(List.<OmbLatency<Double, Long>>of()).p50());
    }

    @Test
    void quantilesHoldEveryWholePercentileAndTheTail() throws Exception {
        Histogram h = oneToHundredMillis();
        Map<Double, Double> q = Quantiles.millis(h);
        assertEquals(25.0, q.get(25.0), 0.05);
        assertEquals(100.0, q.get(100.0), 0.1);
        assertEquals(h.getValueAtPercentile(99.999), Quantiles.micros(h).get(99.999));
        JsonNode json = JSON.readTree(JSON.writeValueAsString(q));
        List<String> keys = fieldNames(json);
        assertEquals(List.of("0.0", "1.0", "1.5"), keys.subList(0, 3), "p0.5 lies in the run of 1 ms from p0 to p1");
        for (int p = 0; p <= 99; p++) {
            assertTrue(keys.contains(p + ".0"), "whole percentile " + p);
        }
        assertEquals(
                List.of("99.9", "99.99", "99.999", "100.0"),
                keys.subList(keys.size() - 4, keys.size()),
                "a short run still answers the usual tail questions");
        assertTrue(Quantiles.micros(Histograms.create()).isEmpty());
    }

    /** OMB's maps step 100 times per halving of the tail; ours never step wider, wherever the percentile lies. */
    @Test
    void quantilesAreAtLeastAsDenseAsOmbsEverywhere() {
        for (long count : new long[] {1_000, 60_000, 1_000_000, 600_000_000}) {
            List<Double> levels = Quantiles.percentiles(count);
            double smallestTail = 100.0 / count;
            for (int i = 1; i < levels.size(); i++) {
                double tail = 100 - levels.get(i - 1);
                if (tail < smallestTail * 2) {
                    break; // the end of the ladder: beyond it lies less than one recorded value
                }
                // OMB: 200 steps per half-distance (100, 50, 25, … percent of tail, the one the tail lies in).
                double halfDistance = 100;
                while (halfDistance / 2 >= tail) {
                    halfDistance /= 2;
                }
                assertTrue(
                        levels.get(i) - levels.get(i - 1) <= halfDistance / 200 + 1e-12,
                        count + " values: step after p" + levels.get(i - 1) + " is "
                                + (levels.get(i) - levels.get(i - 1)));
            }
            double halvings = Math.log(count) / Math.log(2);
            assertTrue(
                    levels.size() >= 100 * halvings,
                    count + " values: " + levels.size() + " points, OMB has about " + Math.round(100 * halvings));
            assertTrue(levels.size() <= 200 * halvings, "not needlessly denser: " + levels.size());
        }
    }

    /** Only the inner points of runs of equal values are left out: every ladder level's value can be read back. */
    @Test
    void quantileMapsLoseNothingOfTheLadder() {
        Histogram h = Histograms.create();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 200_000; i++) {
            h.recordValue(500 + (long) (random.nextExponential() * 3000)); // a long tail, like a real latency
        }
        Map<Double, Long> q = Quantiles.micros(h);
        List<Double> ladder = Quantiles.percentiles(h.getTotalCount());
        assertTrue(q.size() < ladder.size(), "runs of one value are written as their ends: " + q.size());
        java.util.TreeMap<Double, Long> written = new java.util.TreeMap<>(q);
        for (double p : ladder) {
            long expected = h.getValueAtPercentile(p);
            Map.Entry<Double, Long> below = written.floorEntry(p);
            Map.Entry<Double, Long> above = written.ceilingEntry(p);
            if (!below.getKey().equals(p)) {
                assertEquals(below.getValue(), above.getValue(), "p" + p + " lies inside a run");
            }
            assertEquals(expected, below.getValue(), "p" + p);
        }
    }

    @Test
    void quantileKeysAreShortDecimals() {
        for (double p : Quantiles.percentiles(1_000_000)) {
            String key = Double.toString(p);
            assertTrue(key.length() <= 11 && !key.contains("E"), key);
        }
        assertTrue(Quantiles.percentiles(1_000_000).contains(99.9975));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}

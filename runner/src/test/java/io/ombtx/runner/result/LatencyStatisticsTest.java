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
        assertEquals(List.of("unit", "count", "min", "avg", "p25", "p50", "p75", "p90", "p95", "p99", "p999", "p9999",
                "max", "totalMillis"), fieldNames(json));
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
        assertTrue(json.get("Avg").isDouble() && json.get("50pct").isIntegralNumber() && json.get("Max").isIntegralNumber());

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
        assertEquals(List.of(), OmbLatency.series(List.<OmbLatency<Double, Long>>of()).p50());
    }

    @Test
    void quantilesCoverOneToNinetyNineAndTheTail() throws Exception {
        Histogram h = oneToHundredMillis();
        Map<Double, Double> q = Quantiles.millis(h);
        assertEquals(103, q.size());
        assertEquals(25.0, q.get(25.0), 0.05);
        assertEquals(100.0, q.get(100.0), 0.1);
        assertEquals(h.getValueAtPercentile(99.999), Quantiles.micros(h).get(99.999));
        JsonNode json = JSON.readTree(JSON.writeValueAsString(q));
        List<String> keys = fieldNames(json);
        assertEquals(List.of("1.0", "2.0"), keys.subList(0, 2));
        assertEquals(List.of("99.0", "99.9", "99.99", "99.999", "100.0"), keys.subList(98, 103));
        assertTrue(Quantiles.micros(Histograms.create()).isEmpty());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}

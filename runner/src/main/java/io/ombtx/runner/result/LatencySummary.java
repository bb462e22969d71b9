package io.ombtx.runner.result;

import static io.ombtx.runner.stats.Histograms.millis;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.HdrHistogram.Histogram;

/**
 * omb-tx's latency summary of one histogram, in milliseconds with microsecond precision: the seeds' percentiles
 * (p25 and p90 included) and {@code totalMillis}, the sum of all recorded values (seed 001's "N txes in T ms").
 * Written with {@code "unit": "ms"} first. When nothing was recorded only {@code unit} and {@code count} (0) are
 * written, and the other members are null.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
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
    "totalMillis"
})
@JsonIgnoreProperties(value = "unit", allowGetters = true)
public record LatencySummary(
        long count,
        Double min,
        Double avg,
        Double p25,
        Double p50,
        Double p75,
        Double p90,
        Double p95,
        Double p99,
        Double p999,
        Double p9999,
        Double max,
        Double totalMillis) {

    /** Summarises {@code h} (values in µs). */
    public static LatencySummary of(Histogram h) {
        long count = h.getTotalCount();
        if (count == 0) {
            return new LatencySummary(0, null, null, null, null, null, null, null, null, null, null, null, null);
        }
        return new LatencySummary(
                count,
                millis(h.getMinValue()),
                millis(h.getMean()),
                millis(h.getValueAtPercentile(25)),
                millis(h.getValueAtPercentile(50)),
                millis(h.getValueAtPercentile(75)),
                millis(h.getValueAtPercentile(90)),
                millis(h.getValueAtPercentile(95)),
                millis(h.getValueAtPercentile(99)),
                millis(h.getValueAtPercentile(99.9)),
                millis(h.getValueAtPercentile(99.99)),
                millis(h.getMaxValue()),
                millis(h.getMean() * count));
    }

    /** Always {@code "ms"}. */
    @JsonProperty("unit")
    public String unit() {
        return "ms";
    }
}

package io.ombtx.runner.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.ombtx.runner.stats.Histograms;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * OMB's eight latency statistics under OMB's names: {@code Avg, 50pct, 75pct, 95pct, 99pct, 999pct, 9999pct, Max}.
 * One record serves both shapes OMB writes: the statistics of one histogram (the {@code aggregated…} scalars) and,
 * per reporting period, one list per statistic (the per-period arrays). In a {@link RunResult} it is unwrapped under
 * a prefix, e.g. {@code publishLatency} + {@code 50pct}.
 *
 * <p>{@link #micros(Histogram)} is the one place that says how a histogram becomes these statistics; milliseconds
 * and per-period lists are derived from it.
 *
 * @param <A> the type of the average
 * @param <V> the type of the percentiles and the maximum
 */
@JsonPropertyOrder({"Avg", "50pct", "75pct", "95pct", "99pct", "999pct", "9999pct", "Max"})
public record OmbLatency<A, V>(
        @JsonProperty("Avg") A avg,
        @JsonProperty("50pct") V p50,
        @JsonProperty("75pct") V p75,
        @JsonProperty("95pct") V p95,
        @JsonProperty("99pct") V p99,
        @JsonProperty("999pct") V p999,
        @JsonProperty("9999pct") V p9999,
        @JsonProperty("Max") V max) {

    /**
     * In microseconds, as OMB writes publish delay: the average as a double, percentiles and maximum as whole
     * microseconds; all zero for an empty histogram.
     */
    public static OmbLatency<Double, Long> micros(Histogram h) {
        boolean empty = h.getTotalCount() == 0;
        return new OmbLatency<>(
                empty ? 0.0 : h.getMean(),
                h.getValueAtPercentile(50),
                h.getValueAtPercentile(75),
                h.getValueAtPercentile(95),
                h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9),
                h.getValueAtPercentile(99.99),
                empty ? 0L : h.getMaxValue());
    }

    /** In milliseconds, every statistic a double, as OMB writes publish and end-to-end latency. */
    public static OmbLatency<Double, Double> millis(Histogram h) {
        return micros(h).map(Histograms::millis, Histograms::millis);
    }

    /** OMB's per-period arrays from per-period statistics: one list per statistic, one element per period. */
    public static <A, V> OmbLatency<List<A>, List<V>> series(List<OmbLatency<A, V>> periods) {
        return new OmbLatency<>(
                column(periods, OmbLatency::avg),
                column(periods, OmbLatency::p50),
                column(periods, OmbLatency::p75),
                column(periods, OmbLatency::p95),
                column(periods, OmbLatency::p99),
                column(periods, OmbLatency::p999),
                column(periods, OmbLatency::p9999),
                column(periods, OmbLatency::max));
    }

    /** The same statistics, the average converted by {@code average} and the others by {@code value}. */
    public <B, W> OmbLatency<B, W> map(
            Function<? super A, ? extends B> average, Function<? super V, ? extends W> value) {
        return new OmbLatency<>(
                average.apply(avg),
                value.apply(p50),
                value.apply(p75),
                value.apply(p95),
                value.apply(p99),
                value.apply(p999),
                value.apply(p9999),
                value.apply(max));
    }

    private static <A, V, T> List<T> column(List<OmbLatency<A, V>> periods, Function<OmbLatency<A, V>, T> statistic) {
        List<T> values = new ArrayList<>(periods.size());
        periods.forEach(p -> values.add(statistic.apply(p)));
        return values;
    }
}

package io.ombtx.runner.run;

import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** OMB-style progress lines: rates, backlog and latency percentiles for one period. */
final class ProgressLine {

    private ProgressLine() {}

    static String format(String phase, double seconds, StatsSnapshot s, long backlog, String countProgress) {
        double pubRate = s.counter(Counter.MESSAGES_SENT) / seconds;
        double pubMb = s.counter(Counter.BYTES_SENT) / seconds / (1024.0 * 1024.0);
        double errRate = s.counter(Counter.PUBLISH_ERRORS) / seconds;
        double consRate = s.counter(Counter.MESSAGES_RECEIVED) / seconds;
        double consMb = s.counter(Counter.BYTES_RECEIVED) / seconds / (1024.0 * 1024.0);
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "%-7s Pub rate %8.1f msg/s / %6.2f MB/s | Pub err %6.1f err/s | Cons rate %8.1f msg/s / %6.2f MB/s"
                        + " | Backlog %6.1f K",
                phase,
                pubRate,
                pubMb,
                errRate,
                consRate,
                consMb,
                backlog / 1000.0));
        line.append(" | Pub Latency (ms) ").append(latencies(s.histogram(Latency.PUBLISH_LATENCY)));
        line.append(" | Pub Delay (us) ").append(delays(s.histogram(Latency.PUBLISH_DELAY)));
        Histogram ops = s.histogram(Latency.OPERATION_LATENCY);
        if (ops.getTotalCount() > 0) {
            line.append(String.format(Locale.ROOT, " | Ops %7.1f/s (ms) ", ops.getTotalCount() / seconds))
                    .append(latencies(ops));
        }
        Histogram e2e = s.histogram(Latency.END_TO_END);
        if (e2e.getTotalCount() > 0) {
            line.append(" | E2E (ms) ").append(latencies(e2e));
        }
        if (countProgress != null) {
            line.append(" | ").append(countProgress);
        }
        return line.toString();
    }

    private static String latencies(Histogram h) {
        if (h.getTotalCount() == 0) {
            return "-";
        }
        return String.format(
                Locale.ROOT,
                "avg %7.3f - 50%% %7.3f - 99%% %7.3f - 99.9%% %7.3f - Max %7.3f",
                Histograms.millis(h.getMean()),
                Histograms.millis(h.getValueAtPercentile(50)),
                Histograms.millis(h.getValueAtPercentile(99)),
                Histograms.millis(h.getValueAtPercentile(99.9)),
                Histograms.millis(h.getMaxValue()));
    }

    private static String delays(Histogram h) {
        if (h.getTotalCount() == 0) {
            return "-";
        }
        return String.format(
                Locale.ROOT,
                "avg %7.1f - 50%% %7d - 99%% %7d - 99.9%% %7d - Max %7d",
                h.getMean(),
                h.getValueAtPercentile(50),
                h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9),
                h.getMaxValue());
    }
}

package io.ombtx.runner.result;

import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * The periods of OMB's per-period lists ({@code publishRate}, {@code publishLatency50pct}, …). Stock OMB reports
 * every 10 s and its tools (e.g. {@code create_charts.py}) assume that length; a run that reports progress more
 * often (a workload's or {@code --report-interval}'s shorter interval that divides 10 s) has its periods merged
 * into 10-s ones for these lists, exactly (counters summed, histograms added). omb-tx's own {@code periods} keep
 * the reporting interval; {@code runMode.ombPeriodSeconds} says which length the OMB lists have.
 */
public final class OmbPeriods {

    /** OMB's reporting period (its WorkloadGenerator's fixed 10 s). */
    public static final int OMB_SECONDS = 10;

    private OmbPeriods() {}

    /** The length of the OMB lists' periods for a run reporting every {@code reportingIntervalSeconds}. */
    public static int seconds(int reportingIntervalSeconds) {
        return reportingIntervalSeconds < OMB_SECONDS && OMB_SECONDS % reportingIntervalSeconds == 0
                ? OMB_SECONDS
                : reportingIntervalSeconds;
    }

    /**
     * {@code periods} merged {@code 10 / reportingIntervalSeconds} at a time (the last group may be shorter: the run
     * ended), or unchanged when the interval does not divide 10 s. Each merged period lasts the sum of its parts,
     * ends where its last part ended, and carries that part's backlog.
     */
    public static List<Period> regroup(List<Period> periods, int reportingIntervalSeconds) {
        int perGroup = seconds(reportingIntervalSeconds) / reportingIntervalSeconds;
        if (perGroup <= 1 || periods.size() <= 1) {
            return periods;
        }
        List<Period> merged = new ArrayList<>((periods.size() + perGroup - 1) / perGroup);
        for (int start = 0; start < periods.size(); start += perGroup) {
            List<Period> group = periods.subList(start, Math.min(periods.size(), start + perGroup));
            StatsSnapshot stats = new StatsSnapshot();
            double seconds = 0;
            for (Period p : group) {
                stats.add(p.stats());
                seconds += p.seconds();
            }
            Period last = group.get(group.size() - 1);
            merged.add(new Period(seconds, last.elapsedSeconds(), stats, last.backlog()));
        }
        return merged;
    }
}

package io.ombtx.runner.run;

import io.ombtx.runner.plan.Measurement;
import io.ombtx.runner.result.RateSearchRecord;
import io.ombtx.runner.search.MaxRateSearch;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.Worker.Progress;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Runs a {@link MaxRateSearch} against the running load before the warm-up: sets each probe's rate on the workers
 * (after a failed probe, first half of it, until what that probe left in flight has drained), lets it settle,
 * counts what the window issued, acknowledged and received, samples what is in flight and the backlogs through the
 * window, reads the window's publish delay, and finally sets the rate found, which the warm-up and the measured
 * phase then hold. Nothing it publishes is measured (the stats are reset after it).
 * An interruption or a failing worker ends the search where it is; the measurement loop then ends the run as usual.
 */
final class MaxRateSearchPhase {

    static final String CRITERION = "a probe is sustained when, over its window (after a settling pause of %.2f s,"
            + " longer, up to %.1f s, while what is in flight still shrinks; after a failed probe the workers first"
            + " drain at half the target), the producers issued, the broker acknowledged and each subscription"
            + " received at least %.0f%% of the target rate; what is in flight (issued, not acknowledged) and each"
            + " subscription's backlog did not grow (their least-squares slope, sampled every %.0f ms, at most %.0f ms"
            + " of the target rate, or %.0f messages, over the window); and the publish delay's p99 over the window"
            + " was at most %.0f ms; ramp x2 from %.0f msg/s until a probe fails (a failure is tried once more unless"
            + " the producers were blocked: short of the schedule and late), bisect to within %.0f%% (the upper end"
            + " capped a margin above what a failed probe delivered, the cap itself probed before the bisection"
            + " ends), confirm over"
            + " %.1f s (a confirmation that kept up and stayed punctual but grew is tried once more; then stepping"
            + " down %.0f%% until it holds, or bisecting again below what it delivered if that was far short)%s";

    private final WorkerGroup group;
    private final Measurement workload;
    private final Interruption interruption;
    private final Consumer<String> log;

    MaxRateSearchPhase(WorkerGroup group, Measurement workload, Interruption interruption, Consumer<String> log) {
        this.group = group;
        this.workload = workload;
        this.interruption = interruption;
        this.log = log;
    }

    /** Searches, leaves the workers at the rate found, and says how it was found. */
    RateSearchRecord run(MaxRateSearch search) {
        long begin = System.nanoTime();
        String stopped = null;
        try {
            while (!search.done() && stopped == null) {
                double target = search.target();
                MaxRateSearch.Settings s = search.settings();
                List<MaxRateSearch.Step> steps = search.steps();
                boolean afterFailure =
                        !steps.isEmpty() && !steps.get(steps.size() - 1).sustained();
                // After an overload kafka-clients' buffer may be full; at the next target it would drain only at the
                // capacity minus that target, seconds near the capacity, holding the producers up meanwhile. At half
                // the target it drains fast, and the next probe starts from an empty buffer.
                if (afterFailure) {
                    group.adjustRate(target / 2);
                }
                if (afterFailure && !drained(s, target, s.maxSettleSeconds())) {
                    stopped = "interrupted";
                    break;
                }
                group.adjustRate(target);
                if (!sleep(s.settleSeconds()) || !drained(s, target, s.maxSettleSeconds() - s.settleSeconds())) {
                    stopped = "interrupted";
                    break;
                }
                Window window = window(search.windowSeconds(), search.settings().sampleSeconds());
                if (window == null) {
                    stopped = "interrupted";
                    break;
                }
                if (window.failure() != null) {
                    stopped = window.failure();
                    break;
                }
                MaxRateSearch.Observation o = window.observation();
                MaxRateSearch.Stage stage = search.stage();
                search.observe(o);
                log.accept(describe(stage, target, o, MaxRateSearch.sustained(target, o, search.settings())));
            }
        } catch (Exception e) {
            // The measurement loop meets the same failure at once and ends the run with a partial result.
            stopped = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        double found = search.done() ? search.foundRate() : bestSoFar(search);
        double seconds = (System.nanoTime() - begin) / 1e9;
        if (stopped == null) {
            try {
                group.adjustRate(found);
            } catch (Exception e) {
                stopped = e.getMessage();
            }
        }
        log.accept(String.format(
                Locale.ROOT,
                "Max-rate search %s: %.0f msg/s after %.1f s and %d probe(s)%s",
                stopped == null ? "done" : "stopped (" + stopped + ")",
                found,
                seconds,
                search.steps().size(),
                search.nothingHeld()
                        ? "; NO probe held the criterion, down to " + String.format(Locale.ROOT, "%.0f", found)
                                + " msg/s: the run goes on at that rate, which failed (each probe's line says why)"
                        : ""));
        return new RateSearchRecord(
                criterion(search.settings()),
                found,
                seconds,
                search.done(),
                search.steps().stream()
                        .map(step -> new RateSearchRecord.Probe(
                                step.stage().name().toLowerCase(Locale.ROOT),
                                step.targetRate(),
                                step.seconds(),
                                step.issuedRate(),
                                Double.isNaN(step.ackedRate()) ? null : step.ackedRate(),
                                step.receivedRate(),
                                step.sustained(),
                                step.inFlightGrowth(),
                                step.backlogGrowth(),
                                step.publishDelayP99Millis(),
                                search.settings().hasLatencyTarget() ? step.latencyP99Millis() : null))
                        .toList());
    }

    /** The criterion in words, with the settings' figures, as the result records it. */
    static String criterion(MaxRateSearch.Settings s) {
        String latency = s.hasLatencyTarget()
                ? String.format(
                        Locale.ROOT,
                        "; and the operations' latency p99 over the window was at most %.1f ms (latencyTarget)",
                        s.maxLatencyP99Millis())
                : "";
        return String.format(
                Locale.ROOT,
                CRITERION,
                s.settleSeconds(),
                s.maxSettleSeconds(),
                100 * s.keepUpRatio(),
                1000 * s.sampleSeconds(),
                1000 * s.maxGrowthSeconds(),
                s.growthFloorMessages(),
                s.maxPublishDelayP99Millis(),
                s.startRate(),
                100 * s.tolerance(),
                s.confirmSeconds(),
                100 * s.tolerance(),
                latency);
    }

    private static String describe(
            MaxRateSearch.Stage stage, double target, MaxRateSearch.Observation o, boolean sustained) {
        return String.format(
                Locale.ROOT,
                "Max-rate search %-7s %10.0f msg/s: issued %10.0f, acked %10.0f%s%s%s%s%s" + " -> %s",
                stage.name().toLowerCase(Locale.ROOT),
                target,
                o.issuedRate(),
                o.ackedRate(),
                figure(", received %10.0f", o.receivedRate()),
                figure("; in flight %+.1f%%/s", 100 * o.inFlightGrowth() / target),
                figure(", backlog %+.1f%%/s", 100 * o.backlogGrowth() / target),
                figure(", delay p99 %.1f ms", o.publishDelayP99Millis()),
                figure(", latency p99 %.1f ms", o.latencyP99Millis()),
                sustained ? "sustained" : "not sustained");
    }

    /** The figure in its format, or nothing when it was not measured (NaN). */
    private static String figure(String format, double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, format, value);
    }

    /**
     * Waits, in steps of a quarter second and up to {@code maxSeconds}, while what is in flight or a backlog shrinks
     * faster than a probe at {@code target} may grow: what an earlier, higher rate left is still draining, and
     * while kafka-clients' buffer is full the producers are held up whatever the new rate. False if interrupted.
     */
    private boolean drained(MaxRateSearch.Settings settings, double target, double maxSeconds) throws Exception {
        double bound = MaxRateSearch.maxGrowthPerSecond(target, settings.probeSeconds(), settings);
        double step = 0.25;
        Progress previous = group.progress();
        for (double waited = 0; waited + step <= maxSeconds + 1e-9; waited += step) {
            if (!sleep(step)) {
                return false;
            }
            Progress now = group.progress();
            double inFlightDrop = (inFlight(previous) - inFlight(now)) / step;
            double backlogDrop = (backlog(previous) - backlog(now)) / step;
            previous = now;
            if (now.failure() != null || !(inFlightDrop > bound || backlogDrop > bound)) {
                return true;
            }
        }
        return true;
    }

    /** Messages issued and not yet acknowledged; 0 when operations write no messages. */
    private double inFlight(Progress p) {
        return p.operationsStarted() * (double) workload.messagesPerOperation() - p.messagesSent();
    }

    /** Messages acknowledged and not yet received, per subscription; 0 without consumers. */
    private double backlog(Progress p) {
        int subscriptions = workload.subscriptionsPerTopic();
        return subscriptions == 0 || workload.messagesPerOperation() == 0
                ? 0
                : p.messagesSent() - p.messagesReceived() / (double) subscriptions;
    }

    /** What one window measured; {@code failure} is a worker's, or null. */
    record Window(MaxRateSearch.Observation observation, String failure) {}

    /**
     * One probe window: the workers' period statistics are drained at its start (the settling pause's are not the
     * window's) and read at its end for the publish delay; their running totals are sampled every
     * {@code sampleSeconds} for the rates and the slopes. Null if the run was interrupted meanwhile.
     */
    Window window(double windowSeconds, double sampleSeconds) throws Exception {
        group.periodStats();
        long start = System.nanoTime();
        int samples = Math.max(2, (int) Math.round(windowSeconds / sampleSeconds) + 1);
        double[] times = new double[samples];
        Progress[] progress = new Progress[samples];
        progress[0] = group.progress();
        for (int i = 1; i < samples; i++) {
            long due = start + (long) (i * windowSeconds / (samples - 1) * 1e9);
            if (!sleep((due - System.nanoTime()) / 1e9)) {
                return null;
            }
            progress[i] = group.progress();
            times[i] = (System.nanoTime() - start) / 1e9;
            if (progress[i].failure() != null) {
                return new Window(null, progress[i].failure());
            }
        }
        StatsSnapshot stats = group.periodStats();
        Histogram delay = stats.histogram(Latency.PUBLISH_DELAY);
        double delayP99Millis = delay.getTotalCount() == 0 ? Double.NaN : delay.getValueAtPercentile(99) / 1000.0;
        Histogram latency = stats.histogram(Latency.OPERATION_LATENCY);
        double latencyP99Millis = latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(99) / 1000.0;
        return new Window(observe(progress, times, delayP99Millis, latencyP99Millis), null);
    }

    /** A window's rates from the workers' cumulative counts at its start and end, and its slopes from every sample. */
    MaxRateSearch.Observation observe(
            Progress[] samples, double[] times, double publishDelayP99Millis, double latencyP99Millis) {
        int last = samples.length - 1;
        double seconds = times[last] - times[0];
        int perOperation = workload.messagesPerOperation();
        int subscriptions = workload.subscriptionsPerTopic();
        Progress before = samples[0];
        Progress after = samples[last];
        double issued =
                (after.operationsStarted() - before.operationsStarted()) * (double) Math.max(1, perOperation) / seconds;
        double acked = perOperation == 0 ? Double.NaN : (after.messagesSent() - before.messagesSent()) / seconds;
        double received = subscriptions == 0
                ? Double.NaN
                : (after.messagesReceived() - before.messagesReceived()) / (double) subscriptions / seconds;
        double[] inFlight = new double[samples.length];
        double[] backlog = new double[samples.length];
        for (int i = 0; i < samples.length; i++) {
            inFlight[i] = inFlight(samples[i]);
            backlog[i] = backlog(samples[i]);
        }
        double inFlightGrowth = perOperation == 0 ? Double.NaN : MaxRateSearch.slope(times, inFlight);
        double backlogGrowth =
                subscriptions == 0 || perOperation == 0 ? Double.NaN : MaxRateSearch.slope(times, backlog);
        return new MaxRateSearch.Observation(
                seconds,
                issued,
                acked,
                received,
                inFlightGrowth,
                backlogGrowth,
                publishDelayP99Millis,
                latencyP99Millis);
    }

    private static double bestSoFar(MaxRateSearch search) {
        return search.steps().stream()
                .filter(MaxRateSearch.Step::sustained)
                .mapToDouble(MaxRateSearch.Step::targetRate)
                .max()
                .orElse(search.settings().startRate());
    }

    /** False if the run was interrupted meanwhile. */
    private boolean sleep(double seconds) throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (interruption.reason() == null) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
        }
        return false;
    }
}

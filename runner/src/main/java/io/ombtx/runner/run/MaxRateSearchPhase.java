package io.ombtx.runner.run;

import io.ombtx.runner.config.Workload;
import io.ombtx.runner.result.RateSearchRecord;
import io.ombtx.runner.worker.Worker.Progress;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs a {@link MaxRateSearch} against the running load before the warm-up: sets each probe's rate on the workers,
 * lets it settle, counts what the window issued, acknowledged and received, and finally sets the rate found, which
 * the warm-up and the measured phase then hold. Nothing it publishes is measured (the stats are reset after it).
 * An interruption or a failing worker ends the search where it is; the measurement loop then ends the run as usual.
 */
final class MaxRateSearchPhase {

    static final String CRITERION = "a probe is sustained when, over its window (after a settling pause), the"
            + " producers issued, the broker acknowledged and each subscription received at least %.0f%% of the target"
            + " rate; ramp x2 from %.0f msg/s until a probe fails, bisect to within %.0f%%, confirm over %.1f s";

    private final WorkerGroup group;
    private final Workload workload;
    private final RunCoordinator.Interruption interruption;
    private final Consumer<String> log;

    MaxRateSearchPhase(WorkerGroup group, Workload workload, RunCoordinator.Interruption interruption,
            Consumer<String> log) {
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
                group.adjustRate(target);
                if (!sleep(search.settings().settleSeconds())) {
                    stopped = "interrupted";
                    break;
                }
                Progress before = group.progress();
                long start = System.nanoTime();
                if (!sleep(search.windowSeconds())) {
                    stopped = "interrupted";
                    break;
                }
                Progress after = group.progress();
                double seconds = (System.nanoTime() - start) / 1e9;
                if (after.failure() != null) {
                    stopped = after.failure();
                    break;
                }
                MaxRateSearch.Observation o = observe(before, after, seconds);
                MaxRateSearch.Stage stage = search.stage();
                search.observe(o);
                log.accept(String.format(Locale.ROOT, "Max-rate search %-7s %10.0f msg/s: issued %10.0f, acked %10.0f%s"
                        + " -> %s", stage.name().toLowerCase(Locale.ROOT), target, o.issuedRate(), o.ackedRate(),
                        Double.isNaN(o.receivedRate()) ? "" : String.format(Locale.ROOT, ", received %10.0f",
                                o.receivedRate()), MaxRateSearch.sustained(target, o, search.settings().keepUpRatio())
                                ? "sustained" : "not sustained"));
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
        log.accept(String.format(Locale.ROOT, "Max-rate search %s: %.0f msg/s after %.1f s and %d probe(s)",
                stopped == null ? "done" : "stopped (" + stopped + ")", found, seconds, search.steps().size()));
        MaxRateSearch.Settings s = search.settings();
        String criterion = String.format(Locale.ROOT, CRITERION, 100 * s.keepUpRatio(), s.startRate(),
                100 * s.tolerance(), s.confirmSeconds());
        return new RateSearchRecord(criterion, found, seconds, search.done(), search.steps().stream()
                .map(step -> new RateSearchRecord.Probe(step.stage().name().toLowerCase(Locale.ROOT),
                        step.targetRate(), step.seconds(), step.issuedRate(),
                        Double.isNaN(step.ackedRate()) ? null : step.ackedRate(), step.receivedRate(), step.sustained()))
                .toList());
    }

    /** A window's rates from the workers' cumulative counts at its start and end. */
    MaxRateSearch.Observation observe(Progress before, Progress after, double seconds) {
        int perOperation = workload.messagesPerOperation();
        double issued = (after.operationsStarted() - before.operationsStarted()) * (double) Math.max(1, perOperation)
                / seconds;
        double acked = perOperation == 0 ? Double.NaN : (after.messagesSent() - before.messagesSent()) / seconds;
        int subscriptions = workload.subscriptionsPerTopic();
        double received = subscriptions == 0 ? Double.NaN
                : (after.messagesReceived() - before.messagesReceived()) / (double) subscriptions / seconds;
        return new MaxRateSearch.Observation(seconds, issued, acked, received);
    }

    private static double bestSoFar(MaxRateSearch search) {
        return search.steps().stream().filter(MaxRateSearch.Step::sustained)
                .mapToDouble(MaxRateSearch.Step::targetRate).max().orElse(search.settings().startRate());
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

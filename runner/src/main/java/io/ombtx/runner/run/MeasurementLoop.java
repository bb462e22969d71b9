package io.ombtx.runner.run;

import io.ombtx.runner.fault.FaultInjector;
import io.ombtx.runner.metrics.LiveMetrics;
import io.ombtx.runner.plan.Measurement;
import io.ombtx.runner.plan.WorkerAssignment;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.CpuMeter;
import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.Worker;
import io.ombtx.runner.worker.Worker.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Watches a running load: ends a time-based warm-up by draining its last period and resetting the workers, closes
 * reporting periods, and decides when the run is over — done, stalled, failed or interrupted. Everything it measured
 * stays available whichever way the run ends; the measured phase ends with the last poll, before the workers stop.
 *
 * <p>A count-based run with consumers is done only once they have received what was sent (see {@link #drains()}):
 * after the last measured operation it goes on polling, and closing periods, until every subscription has every
 * message, or until nothing more was received for the stall timeout ({@link RunResult.Drain}).
 */
final class MeasurementLoop {

    private static final long POLL_MILLIS = 50;
    /** The shortest spell without a completion that counts as a stall, at any rate. */
    static final double STALL_SECONDS = 5;
    /**
     * The teardown's deadline once the cluster is lost or nothing the load tried succeeded (the configured one when
     * shorter): closing clients that cannot flush anything is not waited for long.
     */
    static final java.time.Duration SHORT_TEARDOWN = java.time.Duration.ofSeconds(5);

    private final Measurement measurement;
    private final WorkerGroup group;
    private final long intervalNanos;
    private final Interruption interruption;
    private final Consumer<String> log;
    private final java.time.Duration teardownBudget;
    private Teardown teardown = Teardown.unbounded();
    private final FaultInjector faults; // null: the workload declares none
    private final Supplier<String> clusterLost;
    /** Set when the cluster was lost: its clients cannot flush anything, so closing them is not waited for long. */
    private boolean lost;

    private final StatsSnapshot measured = new StatsSnapshot();
    private final List<Period> periods = new ArrayList<>();
    private boolean warmingUp;
    private long measureStartNanos;
    private long lastPeriodNanos;
    private long lastProgressNanos;
    private Progress lastProgress;
    /** The measured phase's completions (operations, acknowledged and received messages) at the last poll. */
    private long lastCompletions = -1;
    /** When the completions last changed (0: not measuring yet); a long gap since is a stall. */
    private long lastCompletionNanos;

    private final List<RunResult.Stall> stalls = new ArrayList<>();
    private long totalSent;
    private long totalReceived;
    private Instant startTime = Instant.now();
    private Instant endTime;
    /** CPU use from the measurement's start (or the loop's, when it never got there) to its end. */
    private CpuMeter cpuMeter = CpuMeter.start();

    private CpuMeter.Use cpu;
    /** The workers' CPU counters when the measured phase began, when some run elsewhere; null otherwise. */
    private List<CpuMeter.Sample> workersCpuStart;
    /** An open loop's target rate, msg/s; 0 for none (closed loop, or not said). */
    private double targetRate;

    private String partialReason;
    /** This JVM's threads when the run stopped making progress, with a local worker among them; else null. */
    private String stallThreads;
    /** Why the run failed outright (nothing the load tried succeeded), or null. */
    private String failureReason;
    /** OMB's backlog mode: build a backlog with consumers paused, then drain it, then measure the test duration. */
    private enum Backlog {
        NONE,
        WAITING,
        BUILDING,
        DRAINING,
        DRAINED
    }

    private Backlog backlog = Backlog.NONE;
    private long drainedNanos;
    /** The wait for the consumers after the last measured operation: when it began (0: not begun), and its record. */
    private long drainStartNanos;

    private long drainInFlight;
    private long lastPollNanos;
    private final PollPace pace = new PollPace();
    private RunResult.Drain drain;

    /**
     * @param faults injects the workload's faults once the measurement starts, or null
     * @param clusterLost why the cluster can no longer serve the run (a broker that died on its own), or null while
     *     it is whole: polled with the workers, it ends the run at once
     */
    MeasurementLoop(
            Measurement measurement,
            WorkerGroup group,
            int intervalSeconds,
            Interruption interruption,
            java.time.Duration teardownBudget,
            Consumer<String> log,
            FaultInjector faults,
            Supplier<String> clusterLost) {
        this.faults = faults;
        this.clusterLost = clusterLost;
        this.teardownBudget = teardownBudget;
        this.measurement = measurement;
        this.group = group;
        this.intervalNanos = TimeUnit.SECONDS.toNanos(intervalSeconds);
        this.interruption = interruption;
        this.log = log;
    }

    /** The run's live metrics, fed as each period closes; null: none served. */
    private LiveMetrics.Run metrics;

    /** Feeds the run's live metrics from here on (each period, as the console line is made). */
    void metrics(LiveMetrics.Run run) {
        this.metrics = run;
    }

    /** The state the workers' figures handed out now are counted in: measure when they belong to the measurement. */
    private LiveMetrics.State countedAs() {
        return countsAsMeasured() ? LiveMetrics.State.MEASURE : LiveMetrics.State.WARM_UP;
    }

    /** Counts figures the result keeps out of the periods (the reset's, the last ones) in the live metrics. */
    private void countLive(LiveMetrics.State state, StatsSnapshot stats) {
        if (metrics != null) {
            metrics.count(state, stats);
        }
    }

    /** The rate (msg/s) an open loop is asked to hold: a measured period below 95% of it says so on its line. */
    void targetRate(double messagesPerSecond) {
        this.targetRate = messagesPerSecond;
    }

    /** Polls until the run is over, then stops the workers and collects their last figures. */
    void run() {
        long begin = System.nanoTime();
        // A count-based run is warming up until its first measured operation completes (the workers gate what
        // they record by count, so nothing is reset); a time-based one until its warm-up duration has passed.
        warmingUp = measurement.countBased()
                ? measurement.warmupOperations() > 0
                : !measurement.warmupDuration().isZero();
        measureStartNanos = !measurement.countBased() && warmingUp
                ? begin + measurement.warmupDuration().toNanos()
                : begin;
        lastPeriodNanos = begin;
        lastProgressNanos = begin;
        if (!warmingUp) {
            lastCompletionNanos = begin;
            startCpu();
        }
        backlog = measurement.load().consumerBacklogSizeGB() > 0 ? Backlog.WAITING : Backlog.NONE;
        if (faults != null && !warmingUp) {
            faults.measurementStarted(measureStartNanos);
        }
        try {
            // The workers are asked when something is due (PollPace); between asks only what is noticed without
            // asking them, an interruption or a lost cluster, is looked at every POLL_MILLIS.
            long nextAsk = begin;
            while (partialReason == null) {
                if (System.nanoTime() - nextAsk >= 0 || interruption.reason() != null || clusterLost.get() != null) {
                    if (poll()) {
                        break;
                    }
                    nextAsk = lastPollNanos + nextWait(lastPollNanos);
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            partialReason = "interrupted";
        } catch (Exception e) {
            // A worker or the broker failed mid-run: keep what was measured and say why.
            partialReason = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        // Measuring ends here: stopping the workers next (a consumer's close may take its whole time-out) is not
        // part of the measured phase.
        endTime = Instant.now();
        cpu = stopCpu();
        if (partialReason != null) {
            // Ended early: from here every step shares one deadline (the teardown time-out), a short one when the
            // cluster is gone or took nothing: clients closing then would only wait out their own time-outs.
            boolean hopeless = lost || failureReason != null;
            teardown = Teardown.within(
                    hopeless && teardownBudget.compareTo(SHORT_TEARDOWN) > 0 ? SHORT_TEARDOWN : teardownBudget);
        }
        for (WorkerGroup.Member member : group.members()) {
            // One by one, so a worker that fails here does not cost the others' last figures.
            try {
                String who = " on worker " + member.assignment().worker();
                teardown.run("stop-all" + who, () -> member.worker().run(Worker.Command.STOP_ALL));
                StatsSnapshot tail =
                        teardown.call("last stats" + who, () -> member.worker().periodStats());
                if (countsAsMeasured()) {
                    measured.add(tail);
                }
                countLive(countedAs(), tail);
            } catch (Exception e) {
                partialReason = partialReason != null ? partialReason : e.getMessage();
            }
        }
        if (metrics != null) {
            metrics.state(LiveMetrics.State.DONE);
        }
    }

    /** The deadline the rest of the run's steps share (unbounded when the run completed). */
    Teardown teardown() {
        return teardown;
    }

    /** One poll: true when the run is complete; sets {@link #partialReason} when it must end early. */
    private boolean poll() throws Exception {
        long now = System.nanoTime();
        if (interruption.reason() != null) {
            partialReason = interruption.reason();
            return false;
        }
        Progress progress = progress();
        String gone = clusterLost.get();
        if (gone != null) {
            // What was measured up to the death is kept as a last (short) period; the rest of the run is not run.
            lost = true;
            partialReason = gone;
            if (!warmingUp) {
                try {
                    closePeriod(progress);
                } catch (Exception e) {
                    // The workers' last figures are asked for once more as they stop, below.
                }
            }
            return false;
        }
        lastPollNanos = now;
        noteCompletions(now, progress);
        if (progress.failure() != null) {
            partialReason = progress.failure();
            if (progress.nothingSucceeded()) {
                failureReason = progress.failure();
            }
            return false;
        }
        if (!progress.equals(lastProgress)) {
            lastProgress = progress;
            lastProgressNanos = now;
        } else if (now - lastProgressNanos > TimeUnit.SECONDS.toNanos(measurement.stallTimeoutSeconds())) {
            if (drainStartNanos != 0) {
                // The measurement is whole; only the consumers stopped: the result records what they did not get.
                endDrain(now, progress);
                closePeriod(progress);
                return true;
            }
            partialReason = "no progress for " + measurement.stallTimeoutSeconds() + " s (broker fault?)";
            stallThreads = ThreadDump.ifLocal(group, partialReason);
            return false;
        }
        boolean warmupOver =
                measurement.countBased() ? progress.measuredOperationsDone() > 0 : now >= measureStartNanos;
        if (warmingUp && warmupOver) {
            if (!measurement.countBased()) {
                // The warm-up's last period is drained first, as OMB's coordinator does: a stock OMB worker's reset
                // clears only its latencies, so counts not collected now would land in the first measured period.
                closePeriod(progress);
                group.run(Worker.Command.RESET_STATS);
                // And once more after the reset, unseen: what was counted meanwhile (on a stock worker, since the
                // drain; on an omb-tx worker, since the reset) is not measured either, so every worker counts the
                // first measured period from here.
                StatsSnapshot meanwhile = group.periodStats();
                countLive(LiveMetrics.State.WARM_UP, meanwhile);
                totalSent += meanwhile.counter(Counter.MESSAGES_SENT);
                totalReceived += meanwhile.counter(Counter.MESSAGES_RECEIVED);
                now = System.nanoTime();
            }
            measureStartNanos = now;
            lastCompletionNanos = now;
            warmingUp = false;
            lastPeriodNanos = now;
            startTime = Instant.now();
            startCpu();
            log.accept("Warm-up done; measuring");
            if (metrics != null) {
                metrics.state(LiveMetrics.State.MEASURE);
            }
            if (faults != null) {
                faults.measurementStarted(now);
            }
            return false;
        }
        if (faults != null && !warmingUp) {
            faults.poll(now, progress.measuredOperationsDone());
        }
        if (!warmingUp && backlog != Backlog.NONE) {
            advanceBacklog(progress, now);
        }
        boolean finished = measurement.countBased()
                ? progress.measuredOperationsDone() >= measurement.measureOperations()
                : !warmingUp
                        && now - measureStartNanos >= measurement.testDuration().toNanos()
                        && (backlog == Backlog.NONE
                                || backlog == Backlog.DRAINED
                                        && now - drainedNanos
                                                >= measurement.testDuration().toNanos());
        if (finished && drains()) {
            finished = drained(now, progress);
        }
        if (now - lastPeriodNanos >= intervalNanos || finished) {
            closePeriod(progress);
        }
        return finished;
    }

    /** Starts measuring the load generators' CPU: this process's, and each remote worker's over HTTP. */
    private void startCpu() {

        cpuMeter = CpuMeter.start();
        boolean remote =
                group.members().stream().anyMatch(m -> !m.assignment().worker().equals(WorkerAssignment.LOCAL));
        workersCpuStart = remote ? group.cpuSamples() : null;
    }

    /**
     * What the load generators used over the measured phase: this process's use when every worker is in it; with
     * remote workers, the busiest worker's (its URL in {@code where}), or null when none could say (stock OMB's).
     */
    private CpuMeter.Use stopCpu() {
        CpuMeter.Use own = cpuMeter.stop();
        if (workersCpuStart == null) {
            return own;
        }
        List<CpuMeter.Sample> end = group.cpuSamples();
        CpuMeter.Use busiest = null;
        for (int i = 0; i < group.members().size(); i++) {
            CpuMeter.Sample from = workersCpuStart.get(i);
            CpuMeter.Sample to = end.get(i);
            String where = group.members().get(i).assignment().worker();
            CpuMeter.Use use = where.equals(WorkerAssignment.LOCAL)
                    ? own
                    : from == null || to == null
                            ? null
                            : CpuMeter.between(from, to).at(where);
            if (use != null
                    && use.process() != null
                    && (busiest == null || busiest.process() == null || use.process() > busiest.process())) {
                busiest = use;
            }
        }
        return busiest;
    }

    /**
     * The shortest spell without a completion that counts as a stall: 5 s, or ten times the gap between operations
     * an open loop's rate implies when that is longer (a slow schedule is not a stall).
     */
    private long stallNanos() {
        double operationsPerSecond = targetRate / Math.max(1, measurement.messagesPerOperation());
        double gapSeconds = operationsPerSecond > 0 ? 1 / operationsPerSecond : 0;
        return TimeUnit.MILLISECONDS.toNanos((long) (1000 * Math.max(STALL_SECONDS, 10 * gapSeconds)));
    }

    /**
     * At each poll of the measured phase (before the drain): when completions come again after a stall, it is recorded
     * and said. What was started does not count: an open loop keeps issuing sends into the client's buffer while the
     * broker answers nothing.
     */
    private void noteCompletions(long now, Progress progress) {
        if (warmingUp || drainStartNanos != 0 || lastCompletionNanos == 0) {
            return;
        }
        long completions = progress.measuredOperationsDone() + progress.messagesSent() + progress.messagesReceived();
        if (completions != lastCompletions) {
            if (lastCompletions >= 0 && now - lastCompletionNanos >= stallNanos()) {
                RunResult.Stall stall = stall(now, true);
                stalls.add(stall);
                log.accept(String.format(
                        Locale.ROOT,
                        "STALLED %.1f s from %.1f s into the measurement: nothing completed (no operation, no"
                                + " acknowledgement, no message received), then the run went on. A broker pause, a"
                                + " long GC or a network cut?",
                        stall.seconds(),
                        stall.atSeconds()));
            }
            lastCompletions = completions;
            lastCompletionNanos = now;
        }
    }

    private RunResult.Stall stall(long now, boolean recovered) {
        return new RunResult.Stall(
                Math.max(0, lastCompletionNanos - measureStartNanos) / 1e9,
                (now - lastCompletionNanos) / 1e9,
                recovered);
    }

    /**
     * The spells of the measured phase in which nothing completed; one still going when the run ended is the last,
     * not recovered.
     */
    List<RunResult.Stall> stalls() {
        List<RunResult.Stall> all = new ArrayList<>(stalls);
        if (lastCompletionNanos != 0 && drainStartNanos == 0 && lastPollNanos - lastCompletionNanos >= stallNanos()) {
            all.add(stall(lastPollNanos, false));
        }
        return all;
    }

    /**
     * The wait after the poll at {@code now} before the workers are asked again; {@link #lastProgress} is what they
     * said then (it changes only when their progress does).
     */
    private long nextWait(long now) {
        Progress latest = lastProgress;
        if (faults != null || backlog != Backlog.NONE || drainStartNanos != 0 || latest == null) {
            // A fault's moment, a backlog's level and a drain's end are taken from every poll, as they always were.
            return PollPace.MIN_NANOS;
        }
        long due = lastPeriodNanos + intervalNanos - now;
        long left = -1;
        if (measurement.countBased()) {
            left = warmingUp
                    ? Math.max(0, measurement.warmupOperations() - latest.operationsStarted()) + 1
                    : Math.max(0, measurement.measureOperations() - latest.measuredOperationsDone());
        } else {
            long phaseEnd = warmingUp
                    ? measureStartNanos
                    : measureStartNanos + measurement.testDuration().toNanos();
            due = Math.min(due, phaseEnd - now);
        }
        return pace.next(now, latest.operationsStarted(), left, Math.max(0, due));
    }

    /**
     * Whether the run waits, after its last measured operation, for its consumers to receive what was sent: a
     * count-based run with subscriptions whose producers' messages are what the consumers read. Not a STREAM run: its
     * measured operations are the processors' own (done when the count is reached), and its source producers, paced
     * or not, are not bounded by the count. Time-based runs keep OMB's meaning and end on the clock.
     */
    private boolean drains() {
        return measurement.countBased()
                && measurement.subscriptionsPerTopic() > 0
                && !measurement.streaming()
                && measurement.messagesPerOperation() > 0;
    }

    /** Messages sent (acknowledged, warm-up included) that some subscription has not received yet. */
    private long notReceived(Progress progress) {
        return Math.max(0, progress.messagesSent() * measurement.subscriptionsPerTopic() - progress.messagesReceived());
    }

    /** One poll after the last measured operation: true once every subscription has received every message sent. */
    private boolean drained(long now, Progress progress) throws Exception {
        long missing = notReceived(progress);
        if (drainStartNanos == 0) {
            drainStartNanos = now;
            drainInFlight = missing;
            if (backlog == Backlog.BUILDING) {
                // OMB's backlog mode paused the consumers and the count ran out first: they must read to drain.
                group.run(Worker.Command.RESUME_CONSUMERS);
                backlog = Backlog.DRAINING;
            }
            if (missing > 0) {
                log.accept(String.format(Locale.ROOT, "Draining: %d message(s) in flight to the consumers", missing));
            }
        }
        if (missing > 0) {
            return false;
        }
        endDrain(now, progress);
        return true;
    }

    private void endDrain(long now, Progress progress) {
        long missing = notReceived(progress);
        double seconds = (now - drainStartNanos) / 1e9;
        drain = new RunResult.Drain(drainInFlight, missing, seconds, measurement.stallTimeoutSeconds(), missing == 0);
        if (missing > 0) {
            log.accept(String.format(
                    Locale.ROOT,
                    "WARNING: the consumers did not receive %d of the messages sent"
                            + " (nothing received for %d s); end-to-end latency leaves them out",
                    missing,
                    measurement.stallTimeoutSeconds()));
        } else if (drainInFlight > 0) {
            log.accept(String.format(Locale.ROOT, "Drained %d message(s) in %.1f s", drainInFlight, seconds));
        }
    }

    private void closePeriod(Progress progress) throws Exception {
        StatsSnapshot period;
        try {
            period = group.periodStats();
        } catch (WorkerGroup.PartialStats e) {
            if (countsAsMeasured()) {
                measured.add(e.reported()); // the workers that answered keep their figures
            }
            countLive(countedAs(), e.reported());
            throw e;
        }
        // A period ends when the workers' counts were read, as the first measured one begins: timed from the start
        // of the poll, which asks for progress first, each period would end early by that request's time.
        long now = System.nanoTime();
        double seconds = (now - lastPeriodNanos) / 1e9;
        totalSent += period.counter(Counter.MESSAGES_SENT);
        totalReceived += period.counter(Counter.MESSAGES_RECEIVED);
        long backlog = Math.max(0, totalSent * measurement.subscriptionsPerTopic() - totalReceived);
        // A period wholly after the last measured operation is the drain's; the one in which it began says so too.
        boolean draining = drainStartNanos != 0;
        String counts = !measurement.countBased()
                ? null
                : warmingUp
                        ? String.format(
                                Locale.ROOT,
                                "warm-up %d/%d ops",
                                Math.min(progress.operationsStarted(), measurement.warmupOperations()),
                                measurement.warmupOperations())
                        : String.format(
                                        Locale.ROOT,
                                        "%d/%d ops (%.0f%%)",
                                        progress.measuredOperationsDone(),
                                        measurement.measureOperations(),
                                        100.0 * progress.measuredOperationsDone() / measurement.measureOperations())
                                + (draining ? String.format(Locale.ROOT, ", %d in flight", notReceived(progress)) : "");
        String phase = warmingUp ? "Warm-up" : draining && lastPeriodNanos >= drainStartNanos ? "Drain" : "Measure";
        String line = ProgressLine.format(phase, seconds, period, backlog, counts);
        double ratio = period.counter(Counter.MESSAGES_SENT) / seconds / targetRate;
        if (targetRate > 0 && phase.equals("Measure") && ratio < RunResult.RateVerdict.HELD_RATIO) {
            line += String.format(Locale.ROOT, " | BELOW TARGET: %.0f%% of %.0f msg/s", 100 * ratio, targetRate);
        }
        log.accept(line);
        if (metrics != null) {
            metrics.period(countedAs(), seconds, period, backlog);
        }
        if (countsAsMeasured()) {
            measured.add(period);
        }
        if (!warmingUp) {
            periods.add(new Period(seconds, (now - measureStartNanos) / 1e9, period, backlog));
        }
        lastPeriodNanos = now;
    }

    private void advanceBacklog(Progress progress, long now) throws Exception {
        long capacityMessages = (long) (measurement.load().consumerBacklogSizeGB() * 1024 * 1024 * 1024)
                / Math.max(1, measurement.messageSize());
        long current = measurement.subscriptionsPerTopic() * progress.messagesSent() - progress.messagesReceived();
        switch (backlog) {
            case WAITING -> {
                group.run(Worker.Command.PAUSE_CONSUMERS);
                backlog = Backlog.BUILDING;
                log.accept("Consumers paused to build a backlog of "
                        + measurement.load().consumerBacklogSizeGB() + " GB");
            }
            case BUILDING -> {
                if (current >= capacityMessages) {
                    group.run(Worker.Command.RESUME_CONSUMERS);
                    backlog = Backlog.DRAINING;
                    log.accept("Backlog of " + current + " messages built; consumers resumed to drain it");
                }
            }
            case DRAINING -> {
                long emptyLevel =
                        Math.max(1000L, (long) ((1.0 - measurement.load().backlogDrainRatio()) * capacityMessages));
                if (current <= emptyLevel) {
                    backlog = Backlog.DRAINED;
                    drainedNanos = now;
                    log.accept("Backlog drained; measuring for "
                            + measurement.testDuration().toSeconds() + " s more");
                }
            }
            default -> {}
        }
    }

    /**
     * Whether what the workers hand out now belongs to the measurement. Count-based workers record only measured
     * operations, so everything they hand out counts, even while the first measured one is still in flight.
     */
    private boolean countsAsMeasured() {
        return measurement.countBased() || !warmingUp;
    }

    private Progress progress() throws Exception {
        return group.progress();
    }

    StatsSnapshot measured() {
        return measured;
    }

    List<Period> periods() {
        return periods;
    }

    Instant startTime() {
        return startTime;
    }

    /** When measuring ended: the last poll, before the workers were stopped. */
    /** CPU use over the measured phase; null before it ended. */
    CpuMeter.Use cpu() {
        return cpu;
    }

    Instant endTime() {
        return endTime;
    }

    String partialReason() {
        return partialReason;
    }

    /** Why the run failed outright: nothing the load tried succeeded, with the first error; null otherwise. */
    String stallThreads() {
        return stallThreads;
    }

    String failureReason() {
        return failureReason;
    }

    /**
     * How the run waited for its consumers after the last measured operation, or null when it did not. A run that
     * ended early while waiting has one that did not complete, its count as last seen.
     */
    RunResult.Drain drain() {
        if (drain == null && drainStartNanos != 0 && lastProgress != null) {
            long missing = notReceived(lastProgress);
            return new RunResult.Drain(
                    drainInFlight,
                    missing,
                    (lastPollNanos - drainStartNanos) / 1e9,
                    measurement.stallTimeoutSeconds(),
                    missing == 0);
        }
        return drain;
    }
}

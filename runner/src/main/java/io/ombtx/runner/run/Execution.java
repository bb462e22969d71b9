package io.ombtx.runner.run;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.runner.cluster.ClusterSession;
import io.ombtx.runner.cluster.CoordinatorLog;
import io.ombtx.runner.config.Guarantee;
import io.ombtx.runner.metrics.LiveMetrics;
import io.ombtx.runner.plan.Measurement;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.result.RateSearchRecord;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.search.MaxRateSearch;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.CpuMeter;
import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.Worker;
import io.ombtx.runner.worker.Worker.TopicSubscription;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The measurement, once the load has started: the max-rate search when the rate is to be found, the
 * {@link MeasurementLoop} (warm-up, periods, stop conditions, drain), then what ends it: the faults' last records,
 * the exactly-once check, the live check's report (started in {@link SetUp}) and the workers' environment. Returns
 * what was {@link Measured}.
 */
final class Execution {

    /** How long, after a completed measurement, faults still under way (a restart) may take. */
    private static final Duration FAULT_FINISH_TIMEOUT = Duration.ofSeconds(180);

    /**
     * What a run measured, and what the result needs beside it.
     *
     * @param partialReason why the run ended early (the result is partial), or null
     * @param rateSearch how the rate was found ({@code producerRate: 0}), or null
     * @param faults what happened to each of the workload's faults, or null when it declares none
     * @param drain how the run waited for its consumers at the end, or null
     * @param stalls the spells of the measured phase in which nothing completed
     * @param failureReason why the run failed outright (nothing the load tried succeeded), or null
     * @param liveCheck what the live check saw ({@code operation.liveCheck}), or null
     * @param stallThreads this JVM's threads when the run stopped making progress (a local worker's), or null
     * @param cpu this process's and the machine's CPU use over the measured phase, or null
     * @param coordinators the transaction coordinators' load over the measured phase, or null
     */
    record Measured(
            Instant startTime,
            Instant endTime,
            String partialReason,
            Map<String, Object> environment,
            ExactlyOnceReport exactlyOnce,
            StatsSnapshot stats,
            List<Period> periods,
            RateSearchRecord rateSearch,
            List<RunResult.FaultEvent> faults,
            RunResult.Drain drain,
            List<RunResult.Stall> stalls,
            String failureReason,
            LiveCheckReport liveCheck,
            String stallThreads,
            CpuMeter.Use cpu,
            RunResult.Coordinators coordinators,
            RunResult.Conformance conformance) {

        /** Nothing measured: the run ended in set-up. */
        static Measured nothing(String reason) {
            Instant now = Instant.now();
            return new Measured(
                    now,
                    now,
                    reason,
                    Map.of(),
                    null,
                    new StatsSnapshot(),
                    List.of(),
                    null,
                    null,
                    null,
                    List.of(),
                    null,
                    null,
                    null,
                    null,
                    null,
                    null);
        }
    }

    private final RunConsole console;
    private final Interruption interruption;
    private final ClusterSession cluster;
    private final LiveMetrics metrics;

    /**
     * @param cluster the run's cluster, or null when the run has none to watch (no broker, or reached before)
     * @param metrics the live metrics the run feeds, or null
     */
    Execution(RunConsole console, Interruption interruption, ClusterSession cluster, LiveMetrics metrics) {
        this.metrics = metrics;
        this.console = console;
        this.interruption = interruption;
        this.cluster = cluster;
    }

    Measured run(RunSpec spec, RunResult.Broker broker, WorkerGroup group, SetUp.Done ready) throws Exception {
        Measurement w = spec.measurement();
        if (spec.repetition() != null && spec.repetition().count() > 1) {
            console.say(
                    "%s: repetition %d of %d (group %s)",
                    w.name(),
                    spec.repetition().index(),
                    spec.repetition().count(),
                    spec.repetition().group());
        }
        console.say(
                "%s: %s, %s loop%s",
                w.name(),
                w.countBased()
                        ? "warm-up " + w.warmupOperations() + " then " + w.measureOperations() + " operation(s)"
                        : "warm-up " + w.warmupDuration().toSeconds() + " s then "
                                + w.testDuration().toSeconds() + " s",
                w.loop().key(),
                spec.openLoop()
                        ? " at "
                                + (spec.findMaximumRate()
                                        ? "the maximum sustainable rate"
                                        : (long) spec.initialRate() + " msg/s")
                        : "");
        RateSearchRecord rateSearch = null;
        if (spec.findMaximumRate()) {
            rateSearch =
                    new MaxRateSearchPhase(group, w, interruption, console::line).run(new MaxRateSearch(spec.search()));
            if (rateSearch.completed()) {
                // The probes are not measured: their last period is drained before the reset, which on a stock OMB
                // worker clears only the latencies (see MeasurementLoop).
                group.periodStats();
                group.run(Worker.Command.RESET_STATS);
            }
        }
        MeasurementLoop loop = new MeasurementLoop(
                w,
                group,
                spec.reportingIntervalSeconds(),
                interruption,
                Duration.ofSeconds(spec.teardownTimeoutSeconds()),
                console::line,
                ready.faults(),
                cluster == null ? () -> null : cluster::lost);
        CoordinatorLog coordinatorLog =
                cluster != null && w.operation().transactional() ? coordinatorLog(cluster) : null;
        CoordinatorLog.Mark coordinatorsFrom = coordinatorLog == null ? null : markCoordinators(coordinatorLog);
        if (metrics != null) {
            loop.metrics(metrics.run(w.name(), spec.driver().name()));
        }
        if (spec.openLoop()) {
            loop.targetRate(
                    !spec.findMaximumRate()
                            ? spec.initialRate()
                            : rateSearch != null && rateSearch.completed() ? rateSearch.foundRate() : 0);
        }
        loop.run();
        String partialReason = loop.partialReason();
        Instant endTime = loop.endTime();
        Teardown teardown = loop.teardown();
        List<RunResult.FaultEvent> faultEvents = null;
        if (ready.faults() != null) {
            // Before the exactly-once check: a restart still waiting is done now, so the check reads a whole cluster.
            // A run that ended early on the embedded cluster, which closes next, does without (an external one is
            // left as the workload meant to leave it).
            faultEvents = ready.faults()
                    .finish(teardown.remaining(FAULT_FINISH_TIMEOUT), !teardown.bounded() || !broker.embedded());
        }
        boolean endedEarly = partialReason != null;
        ExactlyOnceReport exactlyOnce = null;
        if (w.verifyExactlyOnce() && !endedEarly) {
            console.say(
                    "Verifying exactly-once delivery on %d topic(s)",
                    ready.topics().size());
            try {
                exactlyOnce = teardown.call(
                        "exactly-once verification", () -> verifyExactlyOnce(group, ready.subscriptions()));
            } catch (Exception e) {
                // The measurement stands; only the verdict is missing, and the result says why.
                partialReason = "exactly-once check failed: " + e.getMessage();
            }
        }
        if (exactlyOnce != null) {
            boolean aborts = exactlyOnce.abortedSeen() > 0 || w.abortsOnPurpose();
            console.say(
                    "Exactly-once: %d checked, %d duplicated, %d missing, %d unexpected%s: %s",
                    exactlyOnce.checked(),
                    exactlyOnce.duplicated(),
                    exactlyOnce.missing(),
                    exactlyOnce.unexpected(),
                    aborts ? ", " + exactlyOnce.abortedSeen() + " aborted seen" : "",
                    exactlyOnce.passed() ? "PASS" : "FAIL");
        }
        LiveCheckReport liveCheck = null;
        if (w.liveCheck() && !endedEarly) {
            // Stopped after the check after the run, so it reads on to an end at least as far as that check read:
            // every output that check judged, the live one saw too.
            try {
                liveCheck =
                        teardown.call("live exactly-once check", () -> stopLiveChecks(group, ready.subscriptions()));
            } catch (Exception e) {
                partialReason =
                        partialReason != null ? partialReason : "live exactly-once check failed: " + e.getMessage();
            }
        }
        RunResult.Coordinators coordinators = null;
        if (coordinatorLog != null) {
            coordinators = coordinators(coordinatorLog, coordinatorsFrom, loop, teardown, endedEarly);
        }
        RunResult.Conformance conformance = null;
        Guarantee guarantee = w.conformance();
        if (guarantee != null) {
            conformance = endedEarly
                    ? ConformanceJudge.notJudged(guarantee, "the run ended early: " + partialReason)
                    : guarantee.probe()
                            ? probe(guarantee)
                            : ConformanceJudge.judge(
                                    guarantee,
                                    exactlyOnce,
                                    liveCheck,
                                    faultEvents,
                                    loop.measured().counter(Counter.ABORTED_ON_PURPOSE),
                                    loop.startTime());
            console.say("%s", ConformanceLine.of(conformance, broker));
        }
        Map<String, Object> environment;
        try {
            environment = teardown.call("environment", group::environment);
        } catch (Exception e) {
            environment = Map.of("error", String.valueOf(e.getMessage()));
        }
        if (teardown.bounded()) {
            // Ended early: the workers (and their drivers) close within the same deadline, before the result is
            // written, so that what was abandoned is named in it.
            closeWorkers(teardown, group);
            partialReason = withNote(partialReason, teardown);
        }
        return new Measured(
                loop.startTime(),
                endTime,
                partialReason,
                environment,
                exactlyOnce,
                loop.measured(),
                loop.periods(),
                rateSearch,
                faultEvents,
                loop.drain(),
                loop.stalls(),
                loop.failureReason(),
                liveCheck,
                loop.stallThreads(),
                loop.cpu(),
                coordinators,
                conformance);
    }

    private CoordinatorLog coordinatorLog(ClusterSession cluster) {
        try {
            return cluster.coordinatorLog();
        } catch (RuntimeException e) {
            console.line("The transaction coordinators' log cannot be read: " + e.getMessage());
            return null;
        }
    }

    /** Where the coordinators' log ends before the load's measurement, or null (said) when it does not answer. */
    private CoordinatorLog.Mark markCoordinators(CoordinatorLog log) {
        try {
            return log.mark();
        } catch (Exception e) {
            console.line("The transaction coordinators' log could not be marked: " + e.getMessage());
            return null;
        }
    }

    /**
     * The transactions the coordinators ended in the measured phase (by the log's own time stamps), read from their
     * log between the mark taken before the measurement and one taken now that the load has stopped, said in one
     * line; null when it could not be read (said too) or the run ended early.
     */
    private RunResult.Coordinators coordinators(
            CoordinatorLog log, CoordinatorLog.Mark from, MeasurementLoop loop, Teardown teardown, boolean endedEarly) {
        try (log) {
            if (endedEarly || from == null) {
                return null;
            }
            RunResult.Coordinators c = teardown.call(
                    "transaction coordinators' load",
                    () -> log.between(from, log.mark(), loop.startTime(), loop.endTime()));
            console.say("%s", CoordinatorLine.of(c));
            return c;
        } catch (Exception e) {
            console.line("The transaction coordinators' log could not be read: " + e.getMessage());
            return null;
        }
    }

    /** A guarantee judged by the cluster's own probe, after the measurement (its clients of its own). */
    private RunResult.Conformance probe(Guarantee guarantee) {
        if (cluster == null) {
            return ConformanceJudge.notJudged(guarantee, "the run has no cluster to probe");
        }
        console.say("Probing the cluster: %s", guarantee.title());
        try {
            RunResult.Conformance probed = cluster.probeConformance(guarantee, console::line);
            return probed != null
                    ? probed
                    : ConformanceJudge.notJudged(guarantee, "this cluster system has no probe of " + guarantee.id());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ConformanceJudge.notJudged(guarantee, "the probe was interrupted");
        } catch (Exception e) {
            return ConformanceJudge.notJudged(guarantee, "the probe failed: " + e);
        }
    }

    static void closeWorkers(Teardown teardown, WorkerGroup group) {
        try {
            if (group.claimClose()) {
                teardown.runEvenLate("worker close", group::closeMembers);
            }
        } catch (Exception e) {
            // Best effort, as closing always is; an abandoned close is named in the result.
        }
    }

    static String withNote(String reason, Teardown teardown) {
        String note = teardown.note();
        return note == null ? reason : reason + "; " + note;
    }

    private static LiveCheckReport stopLiveChecks(WorkerGroup group, List<TopicSubscription> subscriptions)
            throws Exception {
        LiveCheckReport all = null;
        for (TopicSubscription s : subscriptions.stream().distinct().toList()) {
            LiveCheckReport one = group.stopLiveCheck(s.topic(), s.subscription());
            all = all == null ? one : all.plus(one);
        }
        return all;
    }

    private static ExactlyOnceReport verifyExactlyOnce(WorkerGroup group, List<TopicSubscription> subscriptions)
            throws Exception {
        long checked = 0;
        long duplicated = 0;
        long missing = 0;
        long unexpected = 0;
        long abortedSeen = 0;
        for (TopicSubscription s : subscriptions.stream().distinct().toList()) {
            ExactlyOnceReport one = group.verifyExactlyOnce(s.topic(), s.subscription());
            checked += one.checked();
            duplicated += one.duplicated();
            missing += one.missing();
            unexpected += one.unexpected();
            abortedSeen += one.abortedSeen();
        }
        return new ExactlyOnceReport(checked, duplicated, missing, unexpected, abortedSeen);
    }
}

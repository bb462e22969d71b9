package io.ombtx.runner.result;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.Phase;
import io.ombtx.runner.result.RunResult.Broker;
import io.ombtx.runner.result.RunResult.Counts;
import io.ombtx.runner.result.RunResult.ExactlyOnce;
import io.ombtx.runner.result.RunResult.PeriodSeries;
import io.ombtx.runner.result.RunResult.RunMode;
import io.ombtx.runner.result.RunResult.Scenario;
import io.ombtx.runner.result.RunResult.Status;
import io.ombtx.runner.result.RunResult.Summary;
import io.ombtx.runner.result.RunResult.Versions;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.CpuMeter;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * Turns a run's measured statistics and facts into its {@link RunResult}: OMB's {@code TestResult} fields with
 * OMB's names and units, then omb-tx's (docs/result-format.md). Pure: the same inputs give the same result (asked
 * to, with {@code -Dombtx.recordResultInputs}, it also writes those inputs down: {@link RecordedInputs}). The result
 * is filled section by section through {@link RunResult#builder()}; the caller names the run's facts through
 * {@link RunFacts#builder()}.
 */
public final class ResultBuilder {

    /**
     * Everything about a run that is not a statistic.
     *
     * @param partialReason why the run ended early, or null when it completed
     * @param exactlyOnce the exactly-once verdict, or null when it was not checked
     * @param liveCheck what the live check saw, or null when there was none (reported only beside a verdict)
     * @param faults what became of the workload's faults, or null when it declared none
     * @param drain how the run waited for its consumers at the end, or null when it did not
     * @param stalls the spells of the measured phase in which nothing completed, or null
     * @param failureReason why every operation failed (the first cause), or null when it did not
     * @param host the machine the runner ran on ({@link HostFacts#host}), or null when not read
     * @param conformance the verdict on the broker guarantee the run judged, or null when it judged none
     */
    public record RunFacts(
            WorkloadRecord workload,
            String driverName,
            Instant startTime,
            Instant endTime,
            String partialReason,
            RunMode runMode,
            Versions versions,
            Broker broker,
            Map<String, Object> driverConfig,
            Map<String, Object> environment,
            ExactlyOnceReport exactlyOnce,
            LiveCheckReport liveCheck,
            RunResult.Repetition repetition,
            List<RunResult.FaultEvent> faults,
            RunResult.Drain drain,
            List<RunResult.Stall> stalls,
            String failureReason,
            RunResult.Host host,
            List<RunResult.ClientWarning> clientWarnings,
            CpuMeter.Use cpu,
            RunResult.Coordinators coordinators,
            RunResult.Conformance conformance) {

        public static Builder builder() {
            return new Builder();
        }

        /** Sets the facts by name; those left unset are null (not known, did not happen). */
        public static final class Builder {
            private WorkloadRecord workload;
            private String driverName;
            private Instant startTime;
            private Instant endTime;
            private String partialReason;
            private RunMode runMode;
            private Versions versions;
            private Broker broker;
            private Map<String, Object> driverConfig;
            private Map<String, Object> environment;
            private ExactlyOnceReport exactlyOnce;
            private LiveCheckReport liveCheck;
            private RunResult.Repetition repetition;
            private List<RunResult.FaultEvent> faults;
            private RunResult.Drain drain;
            private List<RunResult.Stall> stalls;
            private String failureReason;
            private RunResult.Host host;
            private List<RunResult.ClientWarning> clientWarnings;
            private CpuMeter.Use cpu;
            private RunResult.Coordinators coordinators;
            private RunResult.Conformance conformance;

            private Builder() {}

            public Builder conformance(RunResult.Conformance conformance) {
                this.conformance = conformance;
                return this;
            }

            /** The transaction coordinators' load over the measured phase, when the cluster's log was read. */
            public Builder coordinators(RunResult.Coordinators coordinators) {
                this.coordinators = coordinators;
                return this;
            }

            public Builder clientWarnings(List<RunResult.ClientWarning> clientWarnings) {
                this.clientWarnings = clientWarnings;
                return this;
            }

            /** The load generator's CPU over the measured phase, when it ran in this process (else leave it null). */
            public Builder cpu(CpuMeter.Use cpu) {
                this.cpu = cpu;
                return this;
            }

            public Builder workload(WorkloadRecord workload) {
                this.workload = workload;
                return this;
            }

            public Builder driverName(String driverName) {
                this.driverName = driverName;
                return this;
            }

            public Builder startTime(Instant startTime) {
                this.startTime = startTime;
                return this;
            }

            public Builder endTime(Instant endTime) {
                this.endTime = endTime;
                return this;
            }

            public Builder partialReason(String partialReason) {
                this.partialReason = partialReason;
                return this;
            }

            public Builder runMode(RunMode runMode) {
                this.runMode = runMode;
                return this;
            }

            public Builder versions(Versions versions) {
                this.versions = versions;
                return this;
            }

            public Builder broker(Broker broker) {
                this.broker = broker;
                return this;
            }

            public Builder driverConfig(Map<String, Object> driverConfig) {
                this.driverConfig = driverConfig;
                return this;
            }

            public Builder environment(Map<String, Object> environment) {
                this.environment = environment;
                return this;
            }

            public Builder exactlyOnce(ExactlyOnceReport exactlyOnce) {
                this.exactlyOnce = exactlyOnce;
                return this;
            }

            public Builder liveCheck(LiveCheckReport liveCheck) {
                this.liveCheck = liveCheck;
                return this;
            }

            public Builder repetition(RunResult.Repetition repetition) {
                this.repetition = repetition;
                return this;
            }

            public Builder faults(List<RunResult.FaultEvent> faults) {
                this.faults = faults;
                return this;
            }

            public Builder drain(RunResult.Drain drain) {
                this.drain = drain;
                return this;
            }

            public Builder stalls(List<RunResult.Stall> stalls) {
                this.stalls = stalls;
                return this;
            }

            public Builder failureReason(String failureReason) {
                this.failureReason = failureReason;
                return this;
            }

            public Builder host(RunResult.Host host) {
                this.host = host;
                return this;
            }

            public RunFacts build() {
                return new RunFacts(
                        workload,
                        driverName,
                        startTime,
                        endTime,
                        partialReason,
                        runMode,
                        versions,
                        broker,
                        driverConfig,
                        environment,
                        exactlyOnce,
                        liveCheck,
                        repetition,
                        faults,
                        drain,
                        stalls,
                        failureReason,
                        host,
                        clientWarnings,
                        cpu,
                        coordinators,
                        conformance);
            }
        }
    }

    /** Where the result's environment holds the phase-sequence counts. */
    static final String ENVIRONMENT_PHASE_SEQUENCES = "phaseSequences";

    private ResultBuilder() {}

    public static RunResult build(RunFacts facts, StatsSnapshot measured, List<Period> periods) {
        RecordedInputs.recordIfAsked(facts, measured, periods);
        RunResultBuilder result = RunResult.builder();
        ombWorkload(result, facts);
        // OMB's lists on OMB's period (see OmbPeriods); omb-tx's own `periods` below keep the reporting interval.
        ombPeriods(result, OmbPeriods.regroup(periods, facts.runMode().reportingIntervalSeconds()));
        ombAggregated(result, measured);
        Counts counts = Counts.of(measured, facts.workload().abortsOnPurpose());
        outcome(result, facts, counts);
        scenario(result, facts, measured);
        measured(result, facts, measured, counts);
        return result.periods(periodSeries(periods))
                .repetition(facts.repetition())
                .drain(facts.drain())
                .stalls(facts.stalls())
                .build();
    }

    /** OMB's description of the workload and driver. */
    private static void ombWorkload(RunResultBuilder result, RunFacts facts) {
        WorkloadRecord w = facts.workload();
        result.workload(w.name())
                .driver(facts.driverName())
                .messageSize(w.messageSize())
                .topics(w.topics())
                .partitions(w.partitionsPerTopic())
                .producersPerTopic(w.producersPerTopic())
                .consumersPerTopic(w.consumersPerSubscription()); // OMB's meaning: consumers per subscription
    }

    /** OMB's per-period lists: rates, backlog and latency statistics, one element per OMB period. */
    private static void ombPeriods(RunResultBuilder result, List<Period> omb) {
        result.publishRate(perPeriod(omb, p -> rate(p, Counter.MESSAGES_SENT)))
                .publishErrorRate(perPeriod(omb, p -> rate(p, Counter.PUBLISH_ERRORS)))
                .consumeRate(perPeriod(omb, p -> rate(p, Counter.MESSAGES_RECEIVED)))
                .backlog(perPeriod(omb, Period::backlog))
                .publishLatency(perPeriodLatency(omb, Latency.PUBLISH_LATENCY, OmbLatency::millis))
                .publishDelayLatency(perPeriodLatency(omb, Latency.PUBLISH_DELAY, OmbLatency::micros))
                .endToEndLatency(perPeriodLatency(omb, Latency.END_TO_END, OmbLatency::millis));
    }

    /** OMB's statistics and quantiles over the measured phase. */
    private static void ombAggregated(RunResultBuilder result, StatsSnapshot measured) {
        Histogram publish = measured.histogram(Latency.PUBLISH_LATENCY);
        Histogram delay = measured.histogram(Latency.PUBLISH_DELAY);
        Histogram endToEnd = measured.histogram(Latency.END_TO_END);
        result.aggregatedPublishLatency(OmbLatency.millis(publish))
                .aggregatedPublishDelayLatency(OmbLatency.micros(delay))
                .aggregatedEndToEndLatency(OmbLatency.millis(endToEnd))
                .aggregatedPublishLatencyQuantiles(Quantiles.millis(publish))
                .aggregatedPublishDelayLatencyQuantiles(Quantiles.micros(delay))
                .aggregatedEndToEndLatencyQuantiles(Quantiles.millis(endToEnd));
    }

    /** When the run took place and how it ended: a failed run outranks a partial one. */
    private static void outcome(RunResultBuilder result, RunFacts facts, Counts counts) {
        // The load's own verdict (nothing succeeded, with the first error) says more than the measured counts.
        String failureReason = facts.failureReason() != null ? facts.failureReason() : failureReason(counts);
        Status status = failureReason != null
                ? Status.FAILED
                : facts.partialReason() != null ? Status.PARTIAL : Status.COMPLETE;
        result.schemaVersion(RunResult.SCHEMA_VERSION)
                .startTime(facts.startTime())
                .endTime(facts.endTime())
                .status(status)
                .partialReason(facts.partialReason())
                .failureReason(failureReason);
    }

    /** What ran, on what: the workload's description, run mode and operation, the software and the brokers. */
    private static void scenario(RunResultBuilder result, RunFacts facts, StatsSnapshot measured) {
        WorkloadRecord w = facts.workload();
        result.description(w.description())
                .runMode(facts.runMode())
                .scenario(Scenario.of(w, phaseSequence(measured)))
                .sweep(w.sweep())
                .versions(facts.versions())
                .broker(facts.broker())
                .host(facts.host())
                .driverConfig(facts.driverConfig())
                .environment(environment(facts.environment(), measured));
    }

    /** omb-tx's figures over the measured phase: counts, summary, latency summaries, checks, faults, histograms. */
    private static void measured(RunResultBuilder result, RunFacts facts, StatsSnapshot measured, Counts counts) {
        WorkloadRecord w = facts.workload();
        result.counts(counts)
                .summary(summary(measured, facts))
                .operationLatency(LatencySummary.of(measured.histogram(Latency.OPERATION_LATENCY)))
                .intendedPublishLatency(LatencySummary.of(measured.histogram(Latency.INTENDED_PUBLISH_LATENCY)))
                .transactionPhases(phases(measured, w))
                .transactions(transactions(w, measured, counts))
                .coordinators(facts.coordinators())
                .rate(RateJudge.verdict(facts, measured))
                .clientWarnings(facts.clientWarnings())
                .exactlyOnce(exactlyOnce(facts))
                .faults(facts.faults() == null || facts.faults().isEmpty() ? null : List.copyOf(facts.faults()))
                .conformance(facts.conformance())
                .histograms(encodedHistograms(measured, w));
    }

    /** A transactional PUBLISH's transactions as the driver cut them; null for every other operation. */
    private static RunResult.Transactions transactions(WorkloadRecord w, StatsSnapshot measured, Counts counts) {
        if (!w.operation().cutsTransactions()) {
            return null;
        }
        Histogram sizes = measured.histogram(Latency.MESSAGES_PER_TRANSACTION);
        RunResult.CountSummary held = new RunResult.CountSummary(
                sizes.getTotalCount(),
                sizes.getTotalCount() == 0 ? 0 : sizes.getMean(),
                sizes.getValueAtPercentile(50),
                sizes.getValueAtPercentile(99),
                sizes.getMaxValue());
        int max = w.operation().messagesPerTransaction();
        return new RunResult.Transactions(
                w.operation().commitIntervalMs(), max > 0 ? max : null, counts.committed(), counts.failed(), held);
    }

    private static ExactlyOnce exactlyOnce(RunFacts facts) {
        if (facts.exactlyOnce() == null) {
            return null;
        }
        ExactlyOnce verdict =
                ExactlyOnce.of(facts.exactlyOnce(), facts.workload().abortsOnPurpose());
        return facts.liveCheck() == null
                ? verdict
                : verdict.withLive(RunResult.LiveCheck.of(facts.liveCheck(), facts.startTime()));
    }

    /** omb-tx's per-period series, one element per reporting period. */
    private static PeriodSeries periodSeries(List<Period> periods) {
        return new PeriodSeries(
                perPeriod(periods, Period::elapsedSeconds),
                perPeriod(periods, p -> rate(p, Counter.OPERATIONS)),
                perPeriod(periods, p -> operationLatencyMillis(p, 50)),
                perPeriod(periods, p -> operationLatencyMillis(p, 99)),
                perPeriod(
                        periods,
                        p -> Histograms.millis(
                                p.stats().histogram(Latency.OPERATION_LATENCY).getMaxValue())));
    }

    /** The phases most measured operations ran, by their keys; null when the driver reported none. */
    private static List<String> phaseSequence(StatsSnapshot measured) {
        return measured.phaseSequences()
                .dominant()
                .map(sequence -> sequence.stream().map(Phase::key).toList())
                .orElse(null);
    }

    /**
     * What the driver reported, and the measured operations by the phase sequence they ran
     * ({@code phaseSequences}, summed over workers) when any was reported.
     */
    private static Map<String, Object> environment(Map<String, Object> reported, StatsSnapshot measured) {
        if (measured.phaseSequences().isEmpty()) {
            return reported;
        }
        Map<String, Object> environment = new LinkedHashMap<>(reported == null ? Map.of() : reported);
        environment.put(ENVIRONMENT_PHASE_SEQUENCES, measured.phaseSequences().byName());
        return environment;
    }

    /** Why the run failed, or null: every measured operation failed (a failed run outranks a partial one). */
    static String failureReason(Counts counts) {
        if (!counts.nothingSucceeded()) {
            return null;
        }
        return "every measured operation failed: " + counts.failed() + " failed operation(s), " + counts.publishErrors()
                + " publish error(s), no transaction committed, no message acknowledged";
    }

    /** The phases that occurred; the whole of a non-transactional operation is operationLatency, not a transaction. */
    private static Map<Phase, LatencySummary> phases(StatsSnapshot measured, WorkloadRecord w) {
        Map<Phase, LatencySummary> phases = new LinkedHashMap<>();
        for (Phase phase : Phase.values()) {
            if (countsAsPhase(phase, w)) {
                measured.recorded(phase).ifPresent(h -> phases.put(phase, LatencySummary.of(h)));
            }
        }
        return phases;
    }

    private static boolean countsAsPhase(Phase phase, WorkloadRecord w) {
        return phase != Phase.TRANSACTION || w.operation().transactional();
    }

    /** Every histogram with values, by its result name ({@code publishLatencyMicros}, {@code phase.commit}, …). */
    private static Map<String, String> encodedHistograms(StatsSnapshot measured, WorkloadRecord w) {
        Map<String, String> encoded = new LinkedHashMap<>();
        String wholePhase = StatsSnapshot.PHASE_PREFIX + Phase.TRANSACTION.key();
        measured.histogramsByName().forEach((name, h) -> {
            if (h.getTotalCount() > 0 && !(name.equals(wholePhase) && !countsAsPhase(Phase.TRANSACTION, w))) {
                boolean times = !name.startsWith(StatsSnapshot.PHASE_PREFIX)
                        && !name.equals(Latency.MESSAGES_PER_TRANSACTION.key());
                encoded.put(times ? name + "Micros" : name, Histograms.encode(h));
            }
        });
        return encoded;
    }

    private static Summary summary(StatsSnapshot s, RunFacts facts) {
        double seconds = s.counter(Counter.MEASURED_SPAN_NANOS) > 0
                ? s.counter(Counter.MEASURED_SPAN_NANOS) / 1e9
                : Math.max(
                        1e-9,
                        (facts.endTime().toEpochMilli() - facts.startTime().toEpochMilli()) / 1000.0);
        // A STREAM run's messages are the records its operations consumed and wrote on; otherwise those produced.
        long messages =
                facts.workload().streaming() ? s.counter(Counter.MESSAGES_PROCESSED) : s.counter(Counter.MESSAGES_SENT);
        long operations = s.counter(Counter.OPERATIONS);
        return new Summary(
                seconds, messages / seconds, operations / seconds, messages == 0 ? null : seconds * 1000.0 / messages);
    }

    /** OMB's per-period arrays of one histogram's statistics. */
    private static <A, V> OmbLatency<List<A>, List<V>> perPeriodLatency(
            List<Period> periods, Latency histogram, Function<Histogram, OmbLatency<A, V>> statistics) {
        return OmbLatency.series(
                perPeriod(periods, p -> statistics.apply(p.stats().histogram(histogram))));
    }

    private static double operationLatencyMillis(Period p, double percentile) {
        return Histograms.millis(p.stats().histogram(Latency.OPERATION_LATENCY).getValueAtPercentile(percentile));
    }

    private static double rate(Period p, Counter counter) {
        return p.seconds() <= 0 ? 0 : p.stats().counter(counter) / p.seconds();
    }

    private static <T> List<T> perPeriod(List<Period> periods, Function<Period, T> value) {
        List<T> values = new ArrayList<>(periods.size());
        periods.forEach(p -> values.add(value.apply(p)));
        return values;
    }
}

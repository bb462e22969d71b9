package io.ombtx.runner.result;

import io.ombtx.driver.api.Phase;
import io.ombtx.runner.result.RunResult.Broker;
import io.ombtx.runner.result.RunResult.Counts;
import io.ombtx.runner.result.RunResult.Drain;
import io.ombtx.runner.result.RunResult.ExactlyOnce;
import io.ombtx.runner.result.RunResult.FaultEvent;
import io.ombtx.runner.result.RunResult.PeriodSeries;
import io.ombtx.runner.result.RunResult.Repetition;
import io.ombtx.runner.result.RunResult.RunMode;
import io.ombtx.runner.result.RunResult.Scenario;
import io.ombtx.runner.result.RunResult.Status;
import io.ombtx.runner.result.RunResult.Summary;
import io.ombtx.runner.result.RunResult.Sweep;
import io.ombtx.runner.result.RunResult.Versions;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Sets a {@link RunResult}'s fields by name ({@link RunResult#builder()}), so that a result is never made from 45
 * positional arguments; {@link #build()} makes the record. Fields left unset are null (0 and false for numbers and
 * flags), as in a file that leaves them out.
 */
public final class RunResultBuilder {
    private String workload;
    private String driver;
    private int messageSize;
    private int topics;
    private int partitions;
    private int producersPerTopic;
    private int consumersPerTopic;
    private List<Double> publishRate;
    private List<Double> publishErrorRate;
    private List<Double> consumeRate;
    private List<Long> backlog;
    private OmbLatency<List<Double>, List<Double>> publishLatency;
    private OmbLatency<List<Double>, List<Long>> publishDelayLatency;
    private OmbLatency<List<Double>, List<Double>> endToEndLatency;
    private OmbLatency<Double, Double> aggregatedPublishLatency;
    private OmbLatency<Double, Long> aggregatedPublishDelayLatency;
    private OmbLatency<Double, Double> aggregatedEndToEndLatency;
    private Map<Double, Double> aggregatedPublishLatencyQuantiles;
    private Map<Double, Long> aggregatedPublishDelayLatencyQuantiles;
    private Map<Double, Double> aggregatedEndToEndLatencyQuantiles;
    private int schemaVersion;
    private Instant startTime;
    private Instant endTime;
    private Status status;
    private String partialReason;
    private String failureReason;
    private String description;
    private RunMode runMode;
    private Scenario scenario;
    private Sweep sweep;
    private Versions versions;
    private Broker broker;
    private RunResult.Host host;
    private Map<String, Object> driverConfig;
    private Map<String, Object> environment;
    private Counts counts;
    private Summary summary;
    private LatencySummary operationLatency;
    private LatencySummary intendedPublishLatency;
    private Map<Phase, LatencySummary> transactionPhases;
    private RunResult.Transactions transactions;
    private RunResult.Coordinators coordinators;
    private RunResult.RateVerdict rate;
    private List<RunResult.ClientWarning> clientWarnings;
    private ExactlyOnce exactlyOnce;
    private List<FaultEvent> faults;
    private RunResult.Conformance conformance;
    private Map<String, String> histograms;
    private PeriodSeries periods;
    private Repetition repetition;
    private Drain drain;
    private List<RunResult.Stall> stalls;

    RunResultBuilder() {}

    public RunResultBuilder workload(String workload) {
        this.workload = workload;
        return this;
    }

    public RunResultBuilder driver(String driver) {
        this.driver = driver;
        return this;
    }

    public RunResultBuilder messageSize(int messageSize) {
        this.messageSize = messageSize;
        return this;
    }

    public RunResultBuilder topics(int topics) {
        this.topics = topics;
        return this;
    }

    public RunResultBuilder partitions(int partitions) {
        this.partitions = partitions;
        return this;
    }

    public RunResultBuilder producersPerTopic(int producersPerTopic) {
        this.producersPerTopic = producersPerTopic;
        return this;
    }

    public RunResultBuilder consumersPerTopic(int consumersPerTopic) {
        this.consumersPerTopic = consumersPerTopic;
        return this;
    }

    public RunResultBuilder publishRate(List<Double> publishRate) {
        this.publishRate = publishRate;
        return this;
    }

    public RunResultBuilder publishErrorRate(List<Double> publishErrorRate) {
        this.publishErrorRate = publishErrorRate;
        return this;
    }

    public RunResultBuilder consumeRate(List<Double> consumeRate) {
        this.consumeRate = consumeRate;
        return this;
    }

    public RunResultBuilder backlog(List<Long> backlog) {
        this.backlog = backlog;
        return this;
    }

    public RunResultBuilder publishLatency(OmbLatency<List<Double>, List<Double>> publishLatency) {
        this.publishLatency = publishLatency;
        return this;
    }

    public RunResultBuilder publishDelayLatency(OmbLatency<List<Double>, List<Long>> publishDelayLatency) {
        this.publishDelayLatency = publishDelayLatency;
        return this;
    }

    public RunResultBuilder endToEndLatency(OmbLatency<List<Double>, List<Double>> endToEndLatency) {
        this.endToEndLatency = endToEndLatency;
        return this;
    }

    public RunResultBuilder aggregatedPublishLatency(OmbLatency<Double, Double> aggregatedPublishLatency) {
        this.aggregatedPublishLatency = aggregatedPublishLatency;
        return this;
    }

    public RunResultBuilder aggregatedPublishDelayLatency(OmbLatency<Double, Long> aggregatedPublishDelayLatency) {
        this.aggregatedPublishDelayLatency = aggregatedPublishDelayLatency;
        return this;
    }

    public RunResultBuilder aggregatedEndToEndLatency(OmbLatency<Double, Double> aggregatedEndToEndLatency) {
        this.aggregatedEndToEndLatency = aggregatedEndToEndLatency;
        return this;
    }

    public RunResultBuilder aggregatedPublishLatencyQuantiles(Map<Double, Double> aggregatedPublishLatencyQuantiles) {
        this.aggregatedPublishLatencyQuantiles = aggregatedPublishLatencyQuantiles;
        return this;
    }

    public RunResultBuilder aggregatedPublishDelayLatencyQuantiles(
            Map<Double, Long> aggregatedPublishDelayLatencyQuantiles) {
        this.aggregatedPublishDelayLatencyQuantiles = aggregatedPublishDelayLatencyQuantiles;
        return this;
    }

    public RunResultBuilder aggregatedEndToEndLatencyQuantiles(Map<Double, Double> aggregatedEndToEndLatencyQuantiles) {
        this.aggregatedEndToEndLatencyQuantiles = aggregatedEndToEndLatencyQuantiles;
        return this;
    }

    public RunResultBuilder schemaVersion(int schemaVersion) {
        this.schemaVersion = schemaVersion;
        return this;
    }

    public RunResultBuilder startTime(Instant startTime) {
        this.startTime = startTime;
        return this;
    }

    public RunResultBuilder endTime(Instant endTime) {
        this.endTime = endTime;
        return this;
    }

    public RunResultBuilder status(Status status) {
        this.status = status;
        return this;
    }

    public RunResultBuilder partialReason(String partialReason) {
        this.partialReason = partialReason;
        return this;
    }

    public RunResultBuilder failureReason(String failureReason) {
        this.failureReason = failureReason;
        return this;
    }

    public RunResultBuilder description(String description) {
        this.description = description;
        return this;
    }

    public RunResultBuilder runMode(RunMode runMode) {
        this.runMode = runMode;
        return this;
    }

    public RunResultBuilder scenario(Scenario scenario) {
        this.scenario = scenario;
        return this;
    }

    public RunResultBuilder sweep(Sweep sweep) {
        this.sweep = sweep;
        return this;
    }

    public RunResultBuilder versions(Versions versions) {
        this.versions = versions;
        return this;
    }

    public RunResultBuilder host(RunResult.Host host) {
        this.host = host;
        return this;
    }

    public RunResultBuilder broker(Broker broker) {
        this.broker = broker;
        return this;
    }

    public RunResultBuilder driverConfig(Map<String, Object> driverConfig) {
        this.driverConfig = driverConfig;
        return this;
    }

    public RunResultBuilder environment(Map<String, Object> environment) {
        this.environment = environment;
        return this;
    }

    public RunResultBuilder counts(Counts counts) {
        this.counts = counts;
        return this;
    }

    public RunResultBuilder summary(Summary summary) {
        this.summary = summary;
        return this;
    }

    public RunResultBuilder operationLatency(LatencySummary operationLatency) {
        this.operationLatency = operationLatency;
        return this;
    }

    public RunResultBuilder intendedPublishLatency(LatencySummary intendedPublishLatency) {
        this.intendedPublishLatency = intendedPublishLatency;
        return this;
    }

    public RunResultBuilder coordinators(RunResult.Coordinators coordinators) {
        this.coordinators = coordinators;
        return this;
    }

    public RunResultBuilder transactions(RunResult.Transactions transactions) {
        this.transactions = transactions;
        return this;
    }

    public RunResultBuilder rate(RunResult.RateVerdict rate) {
        this.rate = rate;
        return this;
    }

    public RunResultBuilder clientWarnings(List<RunResult.ClientWarning> clientWarnings) {
        this.clientWarnings = clientWarnings;
        return this;
    }

    public RunResultBuilder transactionPhases(Map<Phase, LatencySummary> transactionPhases) {
        this.transactionPhases = transactionPhases;
        return this;
    }

    public RunResultBuilder conformance(RunResult.Conformance conformance) {
        this.conformance = conformance;
        return this;
    }

    public RunResultBuilder exactlyOnce(ExactlyOnce exactlyOnce) {
        this.exactlyOnce = exactlyOnce;
        return this;
    }

    public RunResultBuilder faults(List<FaultEvent> faults) {
        this.faults = faults;
        return this;
    }

    public RunResultBuilder histograms(Map<String, String> histograms) {
        this.histograms = histograms;
        return this;
    }

    public RunResultBuilder periods(PeriodSeries periods) {
        this.periods = periods;
        return this;
    }

    public RunResultBuilder repetition(Repetition repetition) {
        this.repetition = repetition;
        return this;
    }

    public RunResultBuilder drain(Drain drain) {
        this.drain = drain;
        return this;
    }

    public RunResultBuilder stalls(List<RunResult.Stall> stalls) {
        this.stalls = stalls;
        return this;
    }

    public RunResult build() {
        return new RunResult(
                workload,
                driver,
                messageSize,
                topics,
                partitions,
                producersPerTopic,
                consumersPerTopic,
                publishRate,
                publishErrorRate,
                consumeRate,
                backlog,
                publishLatency,
                publishDelayLatency,
                endToEndLatency,
                aggregatedPublishLatency,
                aggregatedPublishDelayLatency,
                aggregatedEndToEndLatency,
                aggregatedPublishLatencyQuantiles,
                aggregatedPublishDelayLatencyQuantiles,
                aggregatedEndToEndLatencyQuantiles,
                schemaVersion,
                startTime,
                endTime,
                status,
                partialReason,
                failureReason,
                description,
                runMode,
                scenario,
                sweep,
                versions,
                broker,
                host,
                driverConfig,
                environment,
                counts,
                summary,
                operationLatency,
                intendedPublishLatency,
                transactionPhases,
                transactions,
                coordinators,
                rate,
                clientWarnings,
                exactlyOnce,
                faults,
                conformance,
                histograms,
                periods,
                repetition,
                drain,
                stalls == null ? null : List.copyOf(stalls));
    }
}

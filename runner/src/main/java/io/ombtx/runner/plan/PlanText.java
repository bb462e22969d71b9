package io.ombtx.runner.plan;

import io.ombtx.driver.api.AwaitAcks;
import io.ombtx.driver.api.Phase;
import io.ombtx.runner.cluster.BrokerPlan;
import io.ombtx.runner.cluster.ClusterReuse;
import io.ombtx.runner.cluster.ClusterSystems;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.Fault;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.config.Secrets;
import io.ombtx.runner.search.MaxRateSearch;
import io.ombtx.runner.worker.LoadSpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The plan as the dry run prints it: every {@link RunSpec}, including the effective driver settings (secrets
 * redacted) and what each worker will do.
 */
public final class PlanText {

    private PlanText() {}

    public static String describe(List<RunSpec> runs) {
        StringBuilder text = new StringBuilder();
        Repetition first = runs.isEmpty() ? null : runs.get(0).repetition();
        line(
                text,
                "Plan: %d run(s)%s",
                runs.size(),
                first == null || first.count() == 1
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ", each (driver, workload) %d times%s",
                                first.count(),
                                first.interleaved() ? ", interleaved" : ""));
        for (RunSpec run : runs) {
            Measurement w = run.measurement();
            BrokerPlan b = run.broker();
            line(text, "%3d. %s × %s", run.number(), w.name(), run.driver().name());
            line(
                    text,
                    "     driver      %s (%s)%s",
                    run.driver().file(),
                    run.driver().driverClass(),
                    run.driverChecked() ? ", checked" : ", not checked here");
            String settings = effectiveSettings(run);
            if (!settings.isEmpty()) {
                line(text, "     settings    %s", settings);
            }
            line(
                    text,
                    "     broker      %s",
                    b.noBroker()
                            ? "none (the driver brings its own transport)"
                            : b.embedded()
                                    ? "embedded " + (b.tansu() ? "Tansu" : "Kafka") + ", " + b.brokers()
                                            + " broker(s), profile "
                                            + b.profile().displayName()
                                            + (b.settings().isEmpty()
                                                    ? ""
                                                    : ", settings " + Secrets.redacted(b.settings()))
                                    : "external " + b.bootstrapServers() + " (needs " + b.brokers() + " broker(s))");
            if (b.embedded()) {
                line(text, b.tansu() ? "     tansu       %s" : "     kafka       %s", versionText(b));
            }
            if (b.secured()) {
                line(
                        text,
                        "     security    %s (%s), authorizer on; the benchmark's principal gets exactly these ACLs:",
                        b.security().key(),
                        b.security().protocol());
            } else if (!b.access().isEmpty()) {
                line(text, "     security    %s", "the driver's own; its principal needs these ACLs:");
            }
            if (!b.access().isEmpty()) {
                for (String acl : ClusterSystems.installed()
                        .accessLines(b.access(), b.embedded() ? "<embedded>" : b.bootstrapServers())) {
                    line(text, "       %s", acl);
                }
            }
            if (!run.brokerNeeds().isEmpty()) {
                // A dry run asks no broker: what the run needs is checked when the cluster answers, before the load.
                line(
                        text,
                        "     needs       %s of the broker (checked against its ApiVersions before the load)",
                        run.brokerNeeds().stream()
                                .map(n -> n.capability().apiText() + " ("
                                        + n.capability().kip() + ")")
                                .collect(Collectors.joining(", ")));
            }
            CapabilityCheck.standInNote(run.driver(), b).ifPresent(note -> line(text, "     note        %s", note));
            if (run.clientVersion() != null) {
                line(
                        text,
                        "     client      kafka-clients %s in a worker JVM of its own (the runner's is built in)",
                        run.clientVersion());
            }
            line(
                    text,
                    "     operation   %s%s, %d message(s) over %d partition(s)%s%s",
                    w.operation().kind(),
                    w.operation().transactional() ? " (transactional)" : "",
                    w.messagesPerOperation(),
                    w.operation().partitionsPerOperation(),
                    w.operation().sendOffsets() ? ", with sendOffsets" : "",
                    w.liveCheck()
                            ? ", exactly-once check (live and after the run)"
                            : w.verifyExactlyOnce() ? ", exactly-once check" : "");
            if (w.operation().cutsTransactions()) {
                line(text, "     tx          %s", transactionCut(w));
            }
            if (w.conformance() != null) {
                line(
                        text,
                        "     conformance %s: %s, judged %s",
                        w.conformance().id(),
                        w.conformance().title(),
                        w.conformance().probe()
                                ? "by a probe of the cluster after the measurement"
                                : "from the run's checks");
            }
            if (w.operation().abortRatio() > 0) {
                line(
                        text,
                        "     aborts      %s of the transactions aborted on purpose (seed %d)",
                        w.operation().abortRatio(),
                        w.operation().abortSeed());
            }
            if (w.operation().transactionsPerProducer() > 0) {
                line(
                        text,
                        "     churn       each producer's transactional id ends %d transaction(s), then a new"
                                + " producer takes a new id (initTransactions timed as the phase init)",
                        w.operation().transactionsPerProducer());
            }
            if (w.operation().awaitAcks() != null) {
                line(
                        text,
                        "     order       awaitAcks %s: %s",
                        w.operation().awaitAcks().key(),
                        AwaitAcks.phasesOf(w.operation()).stream()
                                .map(Phase::key)
                                .collect(Collectors.joining(", ")));
            }
            line(
                    text,
                    "     topology    %d topic(s) × %d partition(s), %d producer(s), %d consumer(s), %d-byte messages",
                    run.topology().topics(),
                    run.topology().partitionsPerTopic(),
                    w.producers(),
                    run.topology().consumers(),
                    w.messageSize());
            String length = w.countBased()
                    ? "warm-up " + w.warmupOperations() + " op(s), measure " + w.measureOperations() + " op(s)"
                    : "warm-up " + w.warmupDuration().toSeconds() + " s, measure "
                            + w.testDuration().toSeconds() + " s";
            String rate = w.loop() == LoopMode.CLOSED
                    ? "closed loop"
                    : run.findMaximumRate()
                            ? "open loop, maximum sustainable rate"
                                    + (run.search().hasLatencyTarget()
                                            ? String.format(
                                                    Locale.ROOT,
                                                    " whose operations' p99 is at most %s ms",
                                                    run.search().maxLatencyP99Millis())
                                            : "")
                                    + " (searched before the warm-up: x2 from " + (long) run.initialRate()
                                    + " msg/s, then bisection, then held)"
                            : run.initialRate() > 0
                                    ? "open loop at " + (long) run.initialRate() + " msg/s"
                                    : "prefilled source";
            line(
                    text,
                    "     load        %s; %s; report every %d s; teardown time-out %d s",
                    rate,
                    length,
                    run.reportingIntervalSeconds(),
                    run.teardownTimeoutSeconds());
            if (w.load().consumerBacklogSizeGB() > 0) {
                line(
                        text,
                        "     backlog     consumerBacklogSizeGB %s (%d message(s) of %d bytes across the subscriptions):"
                                + " consumers paused after the warm-up until it is built, then resumed until"
                                + " backlogDrainRatio %s of it has drained",
                        BigDecimal.valueOf(w.load().consumerBacklogSizeGB())
                                .stripTrailingZeros()
                                .toPlainString(),
                        (long) (w.load().consumerBacklogSizeGB() * 1024 * 1024 * 1024) / Math.max(1, w.messageSize()),
                        w.messageSize(),
                        BigDecimal.valueOf(w.load().backlogDrainRatio())
                                .stripTrailingZeros()
                                .toPlainString());
            }
            line(text, "     run id      %s", run.runId());
            line(text, "     topics      %s", topics(run.topology(), run.runId()));
            line(text, "     start-load  %s", startLoad(run.load()));
            line(text, "     payloads    %s", run.payloads().describe());
            if (run.search() != null) {
                line(text, "     search      %s", search(run.search()));
            }
            for (WorkerAssignment a : run.workers()) {
                line(
                        text,
                        "     worker      %s: %d producer(s), %d consumer(s)%s%s%s",
                        a.worker(),
                        a.producers(),
                        a.consumers(),
                        a.publishRate() > 0 ? String.format(Locale.ROOT, ", %.0f msg/s", a.publishRate()) : "",
                        w.countBased()
                                ? ", warm-up " + a.warmupOperations() + " / measure " + a.measureOperations() + " op(s)"
                                : "",
                        a.prefillMessages() > 0 ? ", prefill " + a.prefillMessages() : "");
            }
            for (Fault fault : w.faults()) {
                line(
                        text,
                        "     fault       %s: %s%s",
                        fault.key(),
                        fault.describe(),
                        fault.target().isClient()
                                ? " (the client, through its worker's driver)"
                                : b.embedded() ? " (embedded broker, by the runner)" : " (through --fault-command)");
            }
            if (run.faultCommand() != null) {
                line(text, "     fault hook  %s", run.faultCommand());
            }
            if (run.workerNote() != null) {
                line(text, "     note        %s", run.workerNote());
            }
            List<String> overrides = run.overrides();
            for (int i = 0; i < overrides.size(); i++) {
                line(text, "     %s %s", i == 0 ? "overrides  " : "           ", overrides.get(i));
            }
            if (run.repetition() != null) {
                Repetition r = run.repetition();
                line(
                        text,
                        "     repetition  %d of %d, group %s%s%s",
                        r.index(),
                        r.count(),
                        r.group(),
                        r.comparison() == null ? "" : ", comparison " + r.comparison(),
                        r.interleaved() ? " (interleaved with the other runs of the comparison)" : "");
            }
            if (run.recorded().sweep() != null) {
                line(
                        text,
                        "     sweep       %s: %s = %s",
                        run.recorded().sweep().name(),
                        run.recorded().sweep().parameter(),
                        run.recorded().sweep().value());
            }
        }
        return text.toString();
    }

    /** What the estimate counts for a run's set-up and teardown on an embedded broker: start, topics, stop. */
    static final long EMBEDDED_SETUP_SECONDS = 20;

    /**
     * ... for a run on an embedded cluster kept from the run before it ({@code --reuse-brokers}): topics, clients
     * (a worker JVM of its own on another client release), teardown. Measured on the verdict pass of
     * suites/seed-findings.yaml here: 0.84 s from one result written to the next warm-up (mean of its 288 runs on a
     * kept cluster), and about 1 s from the end of a measurement to its result (its rate sweep: 7 s a run of 2 + 4 s).
     */
    static final long KEPT_CLUSTER_SETUP_SECONDS = 2;

    /** ... and on an external cluster or without a broker: topics, clients, teardown. */
    static final long OTHER_SETUP_SECONDS = 5;

    /**
     * A plan's size and the time it will take, as far as the plan knows it: the warm-ups and measurements of its
     * time-based runs, and a set-up allowance: {@value #EMBEDDED_SETUP_SECONDS} s per embedded cluster started
     * ({@code reuseBrokers}: only where {@link ClusterReuse#starts} starts one, {@value #KEPT_CLUSTER_SETUP_SECONDS}
     * s for a run on a kept one; without reuse every embedded run starts its own), {@value #OTHER_SETUP_SECONDS} s
     * per run without one. Count-based runs and maximum-rate searches last as long as their counts and probes take,
     * which no plan can know, so they are counted apart.
     */
    public static String estimate(List<RunSpec> runs, boolean reuseBrokers) {
        long seconds = 0;
        int counted = 0;
        int searches = 0;
        int embedded = 0;
        for (RunSpec run : runs) {
            Measurement w = run.measurement();
            if (run.broker().embedded()) {
                embedded++;
            } else {
                seconds += OTHER_SETUP_SECONDS;
            }
            if (w.countBased()) {
                counted++;
            } else {
                seconds += w.warmupDuration().toSeconds() + w.testDuration().toSeconds();
            }
            if (run.findMaximumRate()) {
                searches++;
            }
        }
        int starts = reuseBrokers ? clusterStarts(runs) : embedded;
        seconds += starts * EMBEDDED_SETUP_SECONDS + (embedded - starts) * KEPT_CLUSTER_SETUP_SECONDS;
        StringBuilder text = new StringBuilder(
                String.format(Locale.ROOT, "%d run(s), estimated time at least %s", runs.size(), duration(seconds)));
        text.append(" (warm-ups and measurements of the time-based runs, and about ")
                .append(EMBEDDED_SETUP_SECONDS);
        if (reuseBrokers) {
            text.append(" s of set-up per embedded cluster started, ")
                    .append(KEPT_CLUSTER_SETUP_SECONDS)
                    .append(" s per run on a kept one)");
        } else {
            text.append(" s of set-up per run on an embedded broker)");
        }
        if (counted > 0 || searches > 0) {
            text.append("; on top, what ");
            if (counted > 0) {
                text.append(counted).append(" count-based run(s)");
            }
            if (searches > 0) {
                text.append(counted > 0 ? " and " : "").append(searches).append(" maximum-rate search(es)");
            }
            text.append(" take");
        }
        return text.toString();
    }

    /** How many embedded clusters a plan run with {@code --reuse-brokers} starts (a run with faults gets its own). */
    public static int clusterStarts(List<RunSpec> runs) {
        return ClusterReuse.starts(
                runs.stream().map(RunSpec::broker).toList(),
                i -> runs.get(i).measurement().faults().isEmpty());
    }

    /** "45 s", "12 min", "1 h 05 min". */
    static String duration(long seconds) {
        if (seconds < 60) {
            return seconds + " s";
        }
        long minutes = (seconds + 30) / 60;
        return minutes < 60
                ? minutes + " min"
                : String.format(Locale.ROOT, "%d h %02d min", minutes / 60, minutes % 60);
    }

    /** The topics, producers and subscriptions as the workers are asked to create them. */
    public static String topics(Topology t, String runId) {
        return String.format(
                Locale.ROOT,
                "%d × %d partition(s), named <driver prefix>-%s-<index>; %d producer(s) per topic; subscriptions %s,"
                        + " %d consumer(s) each",
                t.topics(),
                t.partitionsPerTopic(),
                runId,
                t.producersPerTopic(),
                t.subscriptionNames(),
                t.consumersPerSubscription());
    }

    /** What {@code /start-load} carries, but the payload bytes (each worker gets its share of rate and counts). */
    public static String startLoad(LoadSpec l) {
        return String.format(
                Locale.ROOT,
                "loop %s, %s msg/s, keys %s, warm-up %d / measure %d op(s), %d message(s) per operation,"
                        + " waitForConsume %s, consumed %s, sender threads per producer %s",
                l.loop(),
                BigDecimal.valueOf(l.messagesPerSecond()).stripTrailingZeros().toPlainString(),
                l.keyDistributor(),
                l.warmupOperations(),
                l.measureOperations(),
                l.messagesPerOperation(),
                l.waitForConsume(),
                l.consumed(),
                l.senderThreadsPerProducer() == null ? "auto" : l.senderThreadsPerProducer());
    }

    /** The max-rate search's settings, every one. */
    public static String search(MaxRateSearch.Settings s) {
        return s.toString()
                .substring(
                        s.getClass().getSimpleName().length() + 1, s.toString().length() - 1);
    }

    /**
     * The effective driver YAML's Kafka settings on one line: the replication factor and each non-empty block as the
     * clients will see it (workload overrides applied, the last of repeated keys winning, secrets redacted).
     */
    private static String effectiveSettings(RunSpec run) {
        StringBuilder settings =
                new StringBuilder("replicationFactor " + run.driver().replicationFactor());
        for (String block : DriverOverrides.BLOCKS) {
            Map<String, String> effective = run.driver().effectiveRedacted(block);
            if (!effective.isEmpty()) {
                StringBuilder pairs = new StringBuilder();
                effective.forEach((key, value) -> pairs.append(pairs.length() == 0 ? "" : ", ")
                        .append(key)
                        .append('=')
                        .append(value));
                settings.append("; ").append(block).append(": ").append(pairs);
            }
        }
        return settings.toString();
    }

    /** "4.1.1 (KRaft, default)", as the broker system describes its release. */
    static String versionText(BrokerPlan b) {
        return ClusterSystems.installed().describeRelease(b);
    }

    private static void line(StringBuilder text, String format, Object... args) {
        text.append(String.format(Locale.ROOT, format, args)).append(System.lineSeparator());
    }

    /**
     * How a transactional PUBLISH's messages are cut into transactions, and the transaction rate that implies: each
     * producer commits at the interval, or sooner when the message bound is reached first, so at most the larger of
     * the two rates (and never more than one transaction per message).
     */
    static String transactionCut(Measurement w) {
        long interval = w.operation().commitIntervalMs();
        int max = w.operation().messagesPerTransaction();
        String cut =
                "cut every " + interval + " ms" + (max > 0 ? " or at " + max + " message(s)" : " (no message bound)");
        if (w.loop() != LoopMode.OPEN || w.load().producerRate() <= 0 || w.producers() == 0) {
            return cut + "; one transaction per producer open at a time";
        }
        double perProducer = (double) w.load().producerRate() / w.producers();
        double perSecond = Math.min(perProducer, Math.max(1000.0 / interval, max > 0 ? perProducer / max : 0));
        return String.format(
                java.util.Locale.ROOT,
                "%s: at %.0f msg/s per producer, about %.1f transaction(s)/s per producer (%.1f message(s) each),"
                        + " %.0f/s over %d producer(s), if each commit takes less than the interval",
                cut,
                perProducer,
                perSecond,
                perProducer / perSecond,
                perSecond * w.producers(),
                w.producers());
    }
}

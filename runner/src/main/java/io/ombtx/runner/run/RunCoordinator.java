package io.ombtx.runner.run;

import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.cluster.BrokerNeeds;
import io.ombtx.runner.cluster.BrokerPlan;
import io.ombtx.runner.cluster.ClusterReuse;
import io.ombtx.runner.cluster.ClusterSession;
import io.ombtx.runner.cluster.ClusterSystem;
import io.ombtx.runner.cluster.ClusterSystems;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.fault.BrokerControl;
import io.ombtx.runner.fault.CommandBrokerControl;
import io.ombtx.runner.fault.FaultCommand;
import io.ombtx.runner.log.ClientWarnings;
import io.ombtx.runner.plan.CapabilityCheck;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.worker.Worker;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs one planned (driver, workload) pair end to end, in named pieces that each return a value: the cluster session
 * ({@link ClusterSystem}), set-up on the workers ({@link SetUp}), the measurement ({@link Execution}), the result
 * ({@link ResultSink}) and the console summary ({@link ConsoleSummary}). A run interrupted or failed in set-up still
 * writes a result, marked partial.
 */
public final class RunCoordinator {

    /** How long one run of the --fault-command hook may take. */
    private static final Duration FAULT_COMMAND_TIMEOUT = Duration.ofSeconds(120);

    private final RunConsole console;
    private final WorkerFactory workerFactory;
    private final Interruption interruption;
    private final Supplier<ClusterSystem> clusters;
    private final ResultSink sink;
    private final ClusterReuse reuse;
    private final io.ombtx.runner.metrics.LiveMetrics metrics;
    /** The client library's warnings of the run under way, from its workers' start to its result. */
    private ClientWarnings.Window warnings;
    /** What the client library warned in the run's remote workers' processes, fetched once the run has measured. */
    private List<ClientWarnings.Summary> workerWarnings = List.of();

    /** Runs plans on the broker system on the class path ({@link ClusterSystems}), found when a plan needs one. */
    public RunCoordinator(RunOptions options, PrintStream out, WorkerFactory workerFactory, Interruption interruption) {
        this(options, out, workerFactory, interruption, ClusterSystems::installed, null);
    }

    /**
     * As {@link #RunCoordinator(RunOptions, PrintStream, WorkerFactory, Interruption)}, the embedded clusters kept
     * between runs by {@code reuse} (null: each run starts its own); the caller closes it after the last run.
     */
    public RunCoordinator(
            RunOptions options,
            PrintStream out,
            WorkerFactory workerFactory,
            Interruption interruption,
            ClusterReuse reuse) {
        this(options, out, workerFactory, interruption, ClusterSystems::installed, reuse);
    }

    /** @param clusters the broker system the plans' clusters are started or reached through */
    public RunCoordinator(
            RunOptions options,
            PrintStream out,
            WorkerFactory workerFactory,
            Interruption interruption,
            Supplier<ClusterSystem> clusters) {
        this(options, out, workerFactory, interruption, clusters, null);
    }

    private RunCoordinator(
            RunOptions options,
            PrintStream out,
            WorkerFactory workerFactory,
            Interruption interruption,
            Supplier<ClusterSystem> clusters,
            ClusterReuse reuse) {
        this.reuse = reuse;
        this.metrics = options.metrics();
        this.console = new RunConsole(out, options.quiet());
        this.workerFactory = workerFactory;
        this.interruption = interruption;
        this.clusters = clusters;
        this.sink = new ResultSink(options);
    }

    /**
     * What a run left behind: its result file and the result written to it.
     *
     * @param resultFile where the result is: not where it was asked to go when {@code unsaved} says why, and null
     *     when it could be written nowhere
     * @param unsaved why the result could not be written where asked ("could not write …: No space left on
     *     device"), or null
     */
    public record Outcome(Path resultFile, RunResult result, String unsaved) {

        public Outcome(Path resultFile, RunResult result) {
            this(resultFile, result, null);
        }

        /** Whether the run ended early (its result is marked partial). */
        public boolean partial() {
            return result.status() == RunResult.Status.PARTIAL;
        }

        /**
         * Whether the run completed, neither ended early nor failed, showed what it was asked to show (see
         * {@link #verdictFailures()}) and its result is where it was asked to go (bin/benchmark exits 1 otherwise).
         */
        public boolean complete() {
            return result.status() == RunResult.Status.COMPLETE
                    && unsaved == null
                    && verdictFailures().isEmpty();
        }

        /**
         * Why the run is not {@link #complete()}, in one line that says where its result is; null when it is. What
         * {@code -q} still prints: a quiet run that exits 1 says why on the error stream.
         */
        public String shortfall() {
            if (complete()) {
                return null;
            }
            String why;
            if (result.status() == RunResult.Status.FAILED) {
                why = "FAILED (" + result.failureReason() + ")";
            } else if (result.partialReason() != null) {
                why = "ended early (" + result.partialReason() + ")";
            } else if (!verdictFailures().isEmpty()) {
                why = String.join("; ", verdictFailures());
            } else {
                why = "complete";
            }
            String where = unsaved == null
                    ? "result in " + resultFile
                    : resultFile == null
                            ? "result NOT saved (" + unsaved + ")"
                            : "result kept in " + resultFile + " (" + unsaved + ")";
            return why + "; " + where;
        }

        /**
         * What a measured run was asked to show and did not, each in a few words: an exactly-once verdict that
         * failed (after the run, or live), a declared fault that could not be carried out. The measurement stands
         * (the result stays complete, with the verdicts and the faults' errors in it), but the run is no success:
         * bin/benchmark exits 1.
         */
        public List<String> verdictFailures() {
            List<String> failures = new ArrayList<>();
            RunResult.ExactlyOnce eos = result.exactlyOnce();
            RunResult.Conformance conformance = result.conformance();
            if (conformance != null && conformance.verdict() == RunResult.Conformance.Verdict.NOT_JUDGED) {
                failures.add("conformance " + conformance.guarantee() + " not judged: " + conformance.note());
            }
            boolean judged = conformance != null && conformance.verdict() != RunResult.Conformance.Verdict.NOT_JUDGED;
            if (judged) {
                // A guarantee judged: what its checks saw is the broker's verdict (brokenGuarantee), not the run's,
                // and so is a fault the broker kept from being carried out (the verdict's note names it).
                eos = null;
            }
            if (eos != null && !eos.passed()) {
                failures.add("exactly-once check failed (" + eos.duplicated() + " duplicated, " + eos.missing()
                        + " missing, " + eos.unexpected() + " unexpected, " + eos.abortedSeen() + " aborted seen)");
            }
            if (eos != null && eos.live() != null && !eos.live().passed()) {
                failures.add("live exactly-once check failed");
            }
            if (result.faults() != null && !judged) {
                for (RunResult.FaultEvent f : result.faults()) {
                    if (f.error() != null) {
                        failures.add(f.fault() + " not carried out: " + f.error());
                    }
                }
            }
            return failures;
        }
    }

    /**
     * The broker guarantee the run judged and found broken, in one line, or null: a verdict on the broker, not a
     * failure of the run (bin/benchmark exits 3 when every run is otherwise complete; docs/conformance.md).
     */
    public static String brokenGuarantee(RunResult result) {
        RunResult.Conformance c = result.conformance();
        return c == null || c.verdict() != RunResult.Conformance.Verdict.FAIL
                ? null
                : ConformanceLine.of(c, result.broker());
    }

    /** Creates the worker an assignment names: {@code local}, or a remote one by URL. */
    public interface WorkerFactory {
        Worker create(String worker);

        /** The worker for {@code worker} in the run {@code spec} (e.g. on the client release it names). */
        default Worker create(String worker, RunSpec spec) {
            return create(worker);
        }
    }

    /** Executes one planned run and returns where its result went. */
    public Outcome run(RunSpec spec) throws Exception {
        BrokerPlan plan = spec.broker();
        if (plan.noBroker()) {
            return execute(spec, spec.driver(), RunResult.Broker.none(), null, null);
        }
        CapabilityCheck.standInNote(spec.driver(), plan).ifPresent(console::line);
        ClusterSession opened;
        try {
            // Interruptible: Ctrl-C while the embedded broker starts stops it at once, its processes killed.
            opened = interruption.interruptibly(() -> reuse == null
                    ? clusters.get().open(plan, spec.driver(), console::line)
                    : reuse.open(
                            clusters.get(),
                            plan,
                            spec.driver(),
                            spec.measurement().faults().isEmpty(),
                            console::line));
        } catch (Exception e) {
            if (interruption.reason() == null) {
                throw e;
            }
            RunResult.Broker notStarted = plan.embedded()
                    ? RunResult.Broker.embedded(
                            plan.brokers(), plan.brokerVersion(), plan.profile().displayName(), Map.of())
                    : RunResult.Broker.external(plan.brokers(), plan.bootstrapServers());
            return ended(spec, spec.driver(), notStarted, null, "interrupted during set-up (broker start)", null);
        }
        try (ClusterSession cluster = opened) {
            BrokerControl control = cluster.processControl();
            if (plan.embedded() && interruption.reason() != null) {
                String reason = "interrupted during set-up (broker start)";
                return ended(spec, cluster.driver(), cluster.facts(), null, reason, null);
            }
            if (!plan.embedded()) {
                if (cluster.brokers() < plan.brokers()) {
                    throw ClusterCheck.tooSmall(plan, cluster.brokers());
                }
                ClusterCheck.faultIndexes(spec.measurement(), cluster.brokers());
                control = spec.faultCommand() == null
                        ? null
                        : new CommandBrokerControl(new FaultCommand(spec.faultCommand()), FAULT_COMMAND_TIMEOUT);
            }
            // Client faults need no control of the brokers: they act through the workers' drivers.
            boolean clientFaults = spec.measurement().hasClientFaults();
            SetUp.FaultAccess faults =
                    control == null && !clientFaults ? null : new SetUp.FaultAccess(control, cluster);
            RunResult.Broker facts = cluster.facts();
            // What the run needs of the transactional protocol, against what the cluster said it serves: exit 2.
            java.util.Optional<ConfigException> lacking = BrokerNeeds.refusal(spec.brokerNeeds(), facts);
            if (lacking.isPresent()) {
                throw lacking.get();
            }
            // A secured cluster's ACLs, asked as the benchmark's principal: a refusal is exit 2, not a time-out later.
            java.util.Optional<String> refused = cluster.accessRefusal(plan.access());
            if (refused.isPresent()) {
                throw new ConfigException(null, null, refused.get());
            }
            Outcome outcome = execute(spec, cluster.driver(), facts, faults, cluster);
            keepBrokerLogs(cluster, outcome);
            return outcome;
        }
    }

    /**
     * A run that measured but is no success (a failed verdict, a fault not carried out, ended early), or that judged a
     * broker guarantee broken, keeps the embedded brokers' logs beside its result, {@code <result>.broker-logs/}: the
     * cluster's folder goes with it, and the logs are where the brokers say what happened (a coordinator's error, a
     * replica that fell behind, a transaction a broker let through).
     */
    private void keepBrokerLogs(ClusterSession cluster, Outcome outcome) {
        boolean evidence = !outcome.complete() || brokenGuarantee(outcome.result()) != null;
        if (!evidence || outcome.resultFile() == null || outcome.unsaved() != null) {
            return;
        }
        Path dir = beside(outcome.resultFile(), ".broker-logs");
        try {
            if (!cluster.keepBrokerLogs(dir).isEmpty()) {
                console.line("Broker logs kept in " + dir);
            }
        } catch (java.io.IOException | RuntimeException e) {
            console.line("The broker logs could not be kept in " + dir + ": " + e.getMessage());
        }
    }

    /** {@code r.json}'s sibling {@code r<suffix>}: what a run keeps beside its result. */
    private static Path beside(Path result, String suffix) {
        return result.resolveSibling(result.getFileName().toString().replaceFirst("\\.json$", "") + suffix);
    }

    /** Runs a plan on a cluster already reached ({@code broker}), without faults. */
    Outcome execute(RunSpec spec, DriverFile driver, RunResult.Broker broker) throws Exception {
        return execute(spec, driver, broker, null, null);
    }

    /** @param cluster the run's cluster (watched, {@link ClusterSession#lost()}, and probed), or null: none to watch */
    Outcome execute(
            RunSpec spec, DriverFile driver, RunResult.Broker broker, SetUp.FaultAccess faults, ClusterSession cluster)
            throws Exception {
        if (spec.workerNote() != null) {
            console.line(spec.workerNote());
        }
        warnings = ClientWarnings.global().open();
        try {
            return executeCounted(spec, driver, broker, faults, cluster);
        } finally {
            clientWarnings(); // a run that ended by an exception stops counting too
        }
    }

    private Outcome executeCounted(
            RunSpec spec, DriverFile driver, RunResult.Broker broker, SetUp.FaultAccess faults, ClusterSession cluster)
            throws Exception {
        try (WorkerGroup group = WorkerGroup.of(spec.workers(), worker -> workerFactory.create(worker, spec))) {
            Execution.Measured measured;
            try {
                SetUp.Done ready = new SetUp(console, interruption).run(spec, driver, group, faults);
                measured = new Execution(console, interruption, cluster, metrics).run(spec, broker, group, ready);
                workerWarnings = group.clientWarnings();
            } catch (SetUp.Interrupted e) {
                return ended(spec, driver, broker, group, "interrupted during set-up (" + e.step + ")", null);
            } catch (SetUp.Failed e) {
                String reason = "set-up failed (" + e.step + "): " + e.getMessage();
                java.util.Optional<String> refused = cluster == null
                        ? java.util.Optional.empty()
                        : cluster.refusalOf(e, spec.broker().access());
                if (refused.isPresent()) {
                    // Bad input (an ACL missing), found by the cluster: exit 2, once the workers are stopped.
                    return ended(spec, driver, broker, group, reason, new ConfigException(null, null, refused.get()));
                }
                return ended(spec, driver, broker, group, reason, e.getCause());
            }
            return written(spec, driver, broker, measured);
        }
    }

    /**
     * Set-up ended before measuring began, interrupted or failed: every worker sent the driver gets {@code /stop-all}
     * (so the next run can initialize it again) and is closed, all within the teardown time-out, and a partial result
     * with nothing measured says why (an interrupted run still exits 130 through the interruption). Bad input found
     * only by a worker ({@code failure}) is rethrown once the workers are stopped: it is reported as bad input.
     */
    private Outcome ended(
            RunSpec spec,
            DriverFile driver,
            RunResult.Broker broker,
            WorkerGroup group,
            String reason,
            Throwable failure)
            throws Exception {
        console.say("%s; stopping", Character.toUpperCase(reason.charAt(0)) + reason.substring(1));
        Teardown teardown = Teardown.within(Duration.ofSeconds(spec.teardownTimeoutSeconds()));
        if (group != null) {
            try {
                teardown.run("stop-all", group::stopInitialized);
            } catch (Exception e) {
                // Named in the result when abandoned; a worker refusing to stop does not hide the set-up's failure.
            }
            Execution.closeWorkers(teardown, group);
        }
        if (failure instanceof ConfigException bad) {
            throw bad;
        }
        return written(spec, driver, broker, Execution.Measured.nothing(Execution.withNote(reason, teardown)));
    }

    private Outcome written(RunSpec spec, DriverFile driver, RunResult.Broker broker, Execution.Measured measured)
            throws Exception {
        ClientWarnings.global().summarize(); // the repeats not yet said, before the summary lines
        Outcome outcome = sink.write(spec, driver, broker, measured, clientWarnings());
        new ConsoleSummary(console).print(outcome);
        keepStallThreads(outcome, measured.stallThreads());
        return outcome;
    }

    /** What the client library warned since this run's workers were made, each distinct message once. */
    private List<RunResult.ClientWarning> clientWarnings() {
        ClientWarnings.Window window = warnings;
        warnings = null;
        List<ClientWarnings.Summary> remote = workerWarnings;
        workerWarnings = List.of();
        if (window == null) {
            return List.of();
        }
        return ClientWarnings.merge(window.close(), remote).stream()
                .map(w -> new RunResult.ClientWarning(
                        w.level(), w.logger(), w.message(), w.count(), w.clients(), w.first(), w.last()))
                .toList();
    }

    /**
     * A run that stopped making progress with its worker in this JVM keeps that moment's threads beside its result,
     * {@code <result>.threads.txt}: where the loop waited is what says whose the stall was (the broker's, the
     * client's, omb-tx's).
     */
    private void keepStallThreads(Outcome outcome, String threads) {
        if (threads == null || outcome.resultFile() == null) {
            return;
        }
        Path file = beside(outcome.resultFile(), ".threads.txt");
        try {
            java.nio.file.Files.writeString(file, threads);
            console.line("Threads at the stall kept in " + file);
        } catch (java.io.IOException e) {
            console.line("The threads at the stall could not be kept in " + file + ": " + e.getMessage());
        }
    }
}

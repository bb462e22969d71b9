package io.ombtx.runner.run;

import io.ombtx.broker.BrokerClassPath;
import io.ombtx.broker.BrokerLibrary;
import io.ombtx.broker.BrokerStartException;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.KafkaVersion;
import io.ombtx.broker.TransactionProtocol;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.Phase;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.Fault;
import io.ombtx.runner.config.FaultTarget;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.fault.BrokerControl;
import io.ombtx.runner.fault.CommandBrokerControl;
import io.ombtx.runner.fault.EmbeddedBrokerControl;
import io.ombtx.runner.fault.FaultCommand;
import io.ombtx.runner.fault.FaultInjector;
import io.ombtx.runner.fault.FaultSummary;
import io.ombtx.runner.plan.BrokerPlan;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.plan.WorkerAssignment;
import io.ombtx.runner.result.LatencySummary;
import io.ombtx.runner.result.RateSearchRecord;
import io.ombtx.runner.result.ResultBuilder;
import io.ombtx.runner.result.ResultWriter;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Payloads;
import io.ombtx.runner.worker.Worker;
import io.ombtx.runner.worker.Worker.TopicSubscription;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;

/**
 * Runs one (driver, workload) pair end to end: brings up the broker it needs, drives the workers through OMB's
 * steps, watches warm-up, measurement and stop conditions, and writes the result — also when the run is
 * interrupted or stalls, then marked partial.
 */
public final class RunCoordinator {

    private final RunOptions options;
    private final PrintStream out;
    private final WorkerFactory workerFactory;
    private final Interruption interruption;
    /** How the current run's rate was found ({@code producerRate: 0}); null when it was not searched for. */
    private RateSearchRecord rateSearch;
    /** How the run being written waited for its consumers at the end (null: it did not). */
    private RunResult.Drain drain;

    public RunCoordinator(RunOptions options, PrintStream out, WorkerFactory workerFactory, Interruption interruption) {
        this.options = options;
        this.out = out;
        this.workerFactory = workerFactory;
        this.interruption = interruption;
    }

    /** Set from a signal handler; the run in progress ends at its next poll and writes a partial result. */
    public static final class Interruption {
        private volatile String reason;

        public void interrupt(String why) {
            reason = why;
        }

        public String reason() {
            return reason;
        }
    }

    /** What a run left behind: its result file and the result written to it. */
    public record Outcome(Path resultFile, RunResult result) {

        /** Whether the run ended early (its result is marked partial). */
        public boolean partial() {
            return result.status() == RunResult.Status.PARTIAL;
        }

        /** Whether the run completed: neither ended early nor failed (bin/benchmark exits 1 otherwise). */
        public boolean complete() {
            return result.status() == RunResult.Status.COMPLETE;
        }
    }

    /** Creates the worker an assignment names: {@code local}, or a remote one by URL. */
    public interface WorkerFactory {
        Worker create(String worker);
    }

    /** Executes one planned run and returns where its result went. */
    public Outcome run(RunSpec spec) throws Exception {
        rateSearch = null;
        drain = null;
        BrokerPlan plan = spec.broker();
        EmbeddedKafkaCluster cluster = null;
        try {
            RunResult.Broker broker;
            BrokerControl faultControl = null;
            DriverFile driver = spec.driver();
            if (plan.embedded()) {
                // Finding the broker's class path first: when it is missing, the error says so before anything else.
                String version = plan.brokerVersion() != null
                        ? plan.brokerVersion()
                        : BrokerClassPath.locate().kafkaVersion();
                if (plan.brokerVersion() != null && !BrokerLibrary.available(KafkaVersion.parse(version))) {
                    say(
                            "Kafka %s is not cached yet: fetching it from Maven Central into %s (once)",
                            version, BrokerLibrary.cacheRoot());
                }
                say(
                        "Starting embedded Kafka %s: %d broker(s), profile %s%s%s",
                        version,
                        plan.brokers(),
                        plan.profile().displayName(),
                        plan.transactionVersion() == null ? "" : ", transaction.version " + plan.transactionVersion(),
                        plan.settings().isEmpty() ? "" : ", overrides " + plan.settings());
                cluster = EmbeddedKafkaCluster.builder()
                        .brokers(plan.brokers())
                        .profile(plan.profile())
                        .overrides(plan.settings())
                        .version(plan.brokerVersion())
                        .transactionVersion(plan.transactionVersion())
                        .start();
                driver = driver.withBootstrapServers(cluster.bootstrapServers());
                broker = embeddedBroker(plan, cluster);
                if (!spec.workload().faults().isEmpty()) {
                    faultControl = new EmbeddedBrokerControl(cluster);
                }
                if (interruption.reason() != null) {
                    return endedInSetUp(spec, driver, broker, null, "interrupted during set-up (broker start)", null);
                }
            } else if (plan.noBroker()) {
                broker = RunResult.Broker.none();
            } else {
                int live = externalBrokerCount(driver, plan);
                if (live < plan.brokers()) {
                    throw tooSmall(plan, live);
                }
                checkFaultIndexes(spec.workload(), live);
                if (spec.faultCommand() != null) {
                    faultControl =
                            new CommandBrokerControl(new FaultCommand(spec.faultCommand()), FAULT_COMMAND_TIMEOUT);
                }
                broker = RunResult.Broker.external(live, plan.bootstrapServers());
                broker = withTransactionProtocol(broker, driver);
            }
            return execute(spec, driver, broker, faultControl);
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /**
     * The embedded brokers as the result records them, read back from them: the version the broker reports, the
     * transaction protocol in force, ZooKeeper or KRaft.
     */
    private RunResult.Broker embeddedBroker(BrokerPlan plan, EmbeddedKafkaCluster cluster) throws BrokerStartException {
        String running = cluster.runningVersion();
        TransactionProtocol protocol;
        try {
            protocol = cluster.transactionProtocol();
        } catch (Exception e) {
            throw new BrokerStartException("embedded Kafka " + running + " started but its transaction.version could"
                    + " not be read back: " + describe(e));
        }
        say(
                "Kafka %s running (%s); transaction protocol: %s",
                running, cluster.zooKeeper() ? "ZooKeeper" : "KRaft", protocol.description());
        return RunResult.Broker.embedded(plan.brokers(), running, plan.profile().displayName(), cluster.settings())
                .withReadBack(
                        cluster.zooKeeper()
                                ? RunResult.Broker.Coordination.ZOOKEEPER
                                : RunResult.Broker.Coordination.KRAFT,
                        protocol.transactionVersion(),
                        protocol.description(),
                        cluster.requestedTransactionVersion())
                .withSystem(RunResult.Broker.SystemKind.KAFKA, null);
    }

    /** An external cluster's transaction protocol, when it answers (the version itself is not asked for). */
    private RunResult.Broker withTransactionProtocol(RunResult.Broker broker, DriverFile driver) {
        Properties props = driver.properties("commonConfig");
        props.setProperty(
                "request.timeout.ms", Integer.toString(lowest(props, "request.timeout.ms", REQUEST_TIMEOUT_MS)));
        props.setProperty(
                "default.api.timeout.ms", Integer.toString(lowest(props, "default.api.timeout.ms", API_TIMEOUT_MS)));
        try (Admin admin = Admin.create(props)) {
            broker = withSystem(broker, admin);
            TransactionProtocol protocol = TransactionProtocol.read(admin, API_TIMEOUT_MS / 1000 + 5);
            return broker.withReadBack(null, protocol.transactionVersion(), protocol.description(), null);
        } catch (Exception e) {
            return broker.withReadBack(null, null, "not read back: " + describe(e), null);
        }
    }

    /** The broker system (kafka or redpanda) as the cluster reports itself; left out when it does not answer. */
    private RunResult.Broker withSystem(RunResult.Broker broker, Admin admin) throws InterruptedException {
        try {
            String clusterId = BrokerSystem.clusterId(admin, API_TIMEOUT_MS / 1000 + 5);
            RunResult.Broker.SystemKind system = RunResult.Broker.SystemKind.ofClusterId(clusterId);
            say("The cluster at %s is %s (cluster id %s)", broker.bootstrapServers(), system.key(), clusterId);
            return broker.withSystem(system, clusterId);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            say("Could not read back which broker system runs at %s: %s", broker.bootstrapServers(), describe(e));
            return broker;
        }
    }

    /** How long one run of the --fault-command hook may take. */
    private static final Duration FAULT_COMMAND_TIMEOUT = Duration.ofSeconds(120);
    /** How long, after a completed measurement, faults still under way (a restart) may take. */
    private static final Duration FAULT_FINISH_TIMEOUT = Duration.ofSeconds(180);

    /** A broker index beyond an external cluster is found once its size is known, before anything starts. */
    static void checkFaultIndexes(Workload w, int live) {
        for (Fault fault : w.faults()) {
            if (fault.target() == FaultTarget.BROKER && fault.brokerIndex() >= live) {
                throw new ConfigException(
                        w.sourceFile(),
                        fault.key() + ".target",
                        "broker index " + fault.brokerIndex() + " but the cluster has " + live
                                + " broker(s), indexes 0 to " + (live - 1));
            }
        }
    }

    /** Timeouts of the cluster-size query (a driver's lower values are kept). */
    private static final int REQUEST_TIMEOUT_MS = 10_000;

    private static final int API_TIMEOUT_MS = 15_000;

    private static int externalBrokerCount(DriverFile driver, BrokerPlan plan) throws InterruptedException {
        Properties props = driver.properties("commonConfig");
        props.setProperty(
                "request.timeout.ms", Integer.toString(lowest(props, "request.timeout.ms", REQUEST_TIMEOUT_MS)));
        int apiTimeout = lowest(props, "default.api.timeout.ms", API_TIMEOUT_MS);
        props.setProperty("default.api.timeout.ms", Integer.toString(apiTimeout));
        String cause;
        Admin admin = null;
        try {
            admin = Admin.create(props);
            return admin.describeCluster()
                    .nodes()
                    .get(apiTimeout + 5_000L, TimeUnit.MILLISECONDS)
                    .size();
        } catch (ExecutionException e) {
            cause = describe(e.getCause());
        } catch (TimeoutException e) {
            cause = "no answer within " + (apiTimeout + 5_000) / 1000 + " s";
        } catch (KafkaException e) {
            cause = describe(e);
        } finally {
            if (admin != null) {
                admin.close(Duration.ofSeconds(5));
            }
        }
        throw new ClusterUnreachable("cannot reach the cluster at " + plan.bootstrapServers() + " named in "
                + plan.serversSource() + ": " + cause);
    }

    private static int lowest(Properties props, String key, int limit) {
        try {
            return Math.min(limit, Integer.parseInt(props.getProperty(key, "").trim()));
        } catch (NumberFormatException e) {
            return limit;
        }
    }

    /** The innermost message, without exception class names. */
    private static String describe(Throwable e) {
        String message = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                message = t.getMessage();
            }
        }
        return message != null ? message : "no answer";
    }

    /** The cluster is smaller than planned: blames the first setting asking for more than it has. */
    static ConfigException tooSmall(BrokerPlan plan, int live) {
        String has = "the cluster at " + plan.bootstrapServers() + " has " + live + " broker(s)";
        for (BrokerPlan.Demand demand : plan.demands()) {
            if (demand.brokers() > live) {
                String asks = demand.key().contains("replicationFactor")
                        ? "replication factor " + demand.brokers() + " needs " + demand.brokers() + " broker(s)"
                        : demand.brokers() + " broker(s) asked for";
                return demand.file() == null
                        ? new ConfigException(null, null, demand.key() + " " + demand.brokers() + ": " + has)
                        : new ConfigException(demand.file(), demand.key(), asks + " but " + has);
            }
        }
        return new ConfigException(null, null, "the run needs " + plan.brokers() + " broker(s) but " + has);
    }

    Outcome execute(RunSpec spec, DriverFile driver, RunResult.Broker broker) throws Exception {
        return execute(spec, driver, broker, null);
    }

    /** @param faultControl how the workload's faults reach the brokers, or null when it declares none */
    Outcome execute(RunSpec spec, DriverFile driver, RunResult.Broker broker, BrokerControl faultControl)
            throws Exception {
        Workload w = spec.workload();
        if (spec.workerNote() != null) {
            say("%s", spec.workerNote());
        }
        List<WorkerGroup.Member> members = new ArrayList<>();
        try {
            for (WorkerAssignment assignment : spec.workers()) {
                members.add(new WorkerGroup.Member(workerFactory.create(assignment.worker()), assignment));
            }
        } catch (RuntimeException e) {
            members.forEach(m -> m.worker().close());
            throw e;
        }
        try (WorkerGroup group = new WorkerGroup(members)) {
            try {
                return setUpAndMeasure(spec, driver, broker, group, faultControl);
            } catch (SetupInterrupted e) {
                return endedInSetUp(spec, driver, broker, group, "interrupted during set-up (" + e.step + ")", null);
            } catch (SetupFailed e) {
                return endedInSetUp(
                        spec, driver, broker, group, "set-up failed (" + e.step + "): " + e.getMessage(), e.getCause());
            }
        }
    }

    private Outcome setUpAndMeasure(
            RunSpec spec, DriverFile driver, RunResult.Broker broker, WorkerGroup group, BrokerControl faultControl)
            throws Exception {
        Workload w = spec.workload();
        setup("driver init", () -> {
            group.initializeDriver(driver.toYaml(), w.operation());
            return null;
        });
        List<String> topics = setup("topics", () -> group.createTopics(w.topics(), w.partitionsPerTopic()));
        say("Created %d topic(s) with %d partition(s): %s", topics.size(), w.partitionsPerTopic(), topics);
        List<TopicSubscription> subscriptions = new ArrayList<>();
        String runTag = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
        for (String topic : topics) {
            for (int s = 0; s < w.subscriptionsPerTopic(); s++) {
                String name = String.format(Locale.ROOT, "sub-%03d-%s", s, runTag);
                for (int c = 0; c < w.consumerPerSubscription(); c++) {
                    subscriptions.add(new TopicSubscription(topic, name));
                }
            }
        }
        List<String> producerTopics = new ArrayList<>();
        for (String topic : topics) {
            for (int p = 0; p < w.producersPerTopic(); p++) {
                producerTopics.add(topic);
            }
        }
        setup("producers", () -> {
            group.createProducers(producerTopics);
            return null;
        });
        List<byte[]> payloads = Payloads.forWorkload(w);
        if (w.streaming() && w.prefillMessages() > 0) {
            say("Prefilling %d message(s) into the source topic(s)", w.prefillMessages());
            setup("prefill", () -> {
                group.prefill(w.prefillMessages(), payloads.get(0));
                return null;
            });
        }
        setup("consumers", () -> {
            group.createConsumers(subscriptions);
            return null;
        });
        say("Created %d producer(s) and %d consumer(s)", producerTopics.size(), subscriptions.size());
        if (!w.streaming() && !subscriptions.isEmpty() && !producerTopics.isEmpty()) {
            awaitConsumersReady(group, (long) producerTopics.size() * w.subscriptionsPerTopic());
        }
        FaultInjector faults = null;
        if (faultControl != null && !w.faults().isEmpty()) {
            List<String> groups = subscriptions.stream()
                    .map(TopicSubscription::subscription)
                    .distinct()
                    .toList();
            faults = setup(
                    "faults",
                    () -> FaultInjector.prepare(
                            w.faults(),
                            faultControl,
                            driver.properties("commonConfig"),
                            topics,
                            groups,
                            w.streaming(),
                            line -> say("%s", line)));
            say(
                    "%d fault(s) planned through the %s; brokers by node id: %s",
                    w.faults().size(),
                    faultControl.describe(),
                    faults.brokersAtStart().stream()
                            .map(b -> b.nodeId() + "=" + b.address())
                            .toList());
        }
        return measure(spec, driver, broker, group, payloads, topics, subscriptions, faults);
    }

    /** Set-up ended by the interruption; {@code step} is the one it ended. */
    private static final class SetupInterrupted extends Exception {
        private final String step;

        SetupInterrupted(String step) {
            super("interrupted during set-up (" + step + ")");
            this.step = step;
        }
    }

    /** A set-up step failed (a worker refused it, or did not answer); the cause says why. */
    private static final class SetupFailed extends Exception {
        private final String step;

        SetupFailed(String step, Exception cause) {
            super(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
            this.step = step;
        }
    }

    private static final long SETUP_POLL_MILLIS = 100;

    /**
     * Runs one set-up step on a thread of its own and watches the interruption meanwhile: when it comes, the step's
     * thread is interrupted and not waited for, and set-up ends at once.
     */
    private <T> T setup(String step, java.util.concurrent.Callable<T> work) throws Exception {
        if (interruption.reason() != null) {
            throw new SetupInterrupted(step);
        }
        try {
            return WatchedCall.call(
                    "set-up: " + step, work, WatchedCall.NO_DEADLINE, () -> interruption.reason() != null, true);
        } catch (WatchedCall.GaveUp e) {
            throw new SetupInterrupted(step);
        } catch (SetupInterrupted | SetupFailed | InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new SetupFailed(step, e);
        }
    }

    /** As OMB does: every producer sends one message; the load starts once every subscription has seen them. */
    private void awaitConsumersReady(WorkerGroup group, long expected) throws Exception {
        setup("consumer readiness", () -> {
            group.run(Worker.Command.PROBE_PRODUCERS);
            return null;
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            long received = setup("consumer readiness", () -> group.progress().messagesReceived());
            if (received >= expected) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new SetupFailed(
                        "consumer readiness",
                        new io.ombtx.runner.worker.WorkerException("consumers"
                                + " received " + received + " of " + expected
                                + " probe messages within 120 s: they are not"
                                + " subscribed (is the broker healthy?)"));
            }
            if (interruption.reason() != null) {
                throw new SetupInterrupted("consumer readiness");
            }
            Thread.sleep(SETUP_POLL_MILLIS);
        }
    }

    /**
     * Set-up ended before measuring began, interrupted or failed: every worker sent the driver gets {@code /stop-all}
     * (so the next run can initialize it again) and is closed, all within the teardown time-out, and a partial result
     * with nothing measured says why (an interrupted run still exits 130 through the interruption). Bad input found
     * only by a worker is rethrown once the workers are stopped: it is reported as bad input, not as a run.
     */
    private Outcome endedInSetUp(
            RunSpec spec,
            DriverFile driver,
            RunResult.Broker broker,
            WorkerGroup group,
            String reason,
            Throwable failure)
            throws Exception {
        say("%s; stopping", Character.toUpperCase(reason.charAt(0)) + reason.substring(1));
        Teardown teardown = Teardown.within(Duration.ofSeconds(spec.teardownTimeoutSeconds()));
        if (group != null) {
            try {
                teardown.run("stop-all", group::stopInitialized);
            } catch (Exception e) {
                // Named in the result when abandoned; a worker refusing to stop does not hide the set-up's failure.
            }
            closeWorkers(teardown, group);
        }
        if (failure instanceof ConfigException bad) {
            throw bad;
        }
        Instant now = Instant.now();
        return writeResult(
                spec,
                driver,
                broker,
                now,
                now,
                withNote(reason, teardown),
                Map.of(),
                null,
                new StatsSnapshot(),
                List.of());
    }

    private static void closeWorkers(Teardown teardown, WorkerGroup group) {
        try {
            if (group.claimClose()) {
                teardown.runEvenLate("worker close", group::closeMembers);
            }
        } catch (Exception e) {
            // Best effort, as closing always is; an abandoned close is named in the result.
        }
    }

    private static String withNote(String reason, Teardown teardown) {
        String note = teardown.note();
        return note == null ? reason : reason + "; " + note;
    }

    private Outcome measure(
            RunSpec spec,
            DriverFile driver,
            RunResult.Broker broker,
            WorkerGroup group,
            List<byte[]> payloads,
            List<String> topics,
            List<TopicSubscription> subscriptions,
            FaultInjector faults)
            throws Exception {
        Workload w = spec.workload();
        try {
            setup("load start", () -> {
                group.startLoad(new LoadSpec(
                        w.loop(),
                        spec.initialRate(),
                        payloads,
                        w.keyDistributor(),
                        w.warmupOperations(),
                        w.measureOperations(),
                        w.messagesPerOperation(),
                        w.waitForConsume(),
                        w.subscriptionsPerTopic() > 0));
                return null;
            });
        } catch (Exception | Error e) {
            if (faults != null) {
                faults.finish(Duration.ZERO, false); // nothing was injected; its client and thread go
            }
            throw e;
        }
        int interval = spec.reportingIntervalSeconds();
        if (spec.repetition() != null && spec.repetition().count() > 1) {
            say(
                    "%s: repetition %d of %d (group %s)",
                    w.name(),
                    spec.repetition().index(),
                    spec.repetition().count(),
                    spec.repetition().group());
        }
        say(
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
        if (spec.findMaximumRate()) {
            rateSearch = new MaxRateSearchPhase(group, w, interruption, line -> say("%s", line))
                    .run(new MaxRateSearch(MaxRateSearchPhase.settings(w, spec.initialRate())));
            if (rateSearch.completed()) {
                group.run(io.ombtx.runner.worker.Worker.Command.RESET_STATS); // the probes are not measured
            }
        }
        MeasurementLoop loop = new MeasurementLoop(
                w,
                group,
                interval,
                interruption,
                Duration.ofSeconds(spec.teardownTimeoutSeconds()),
                line -> say("%s", line),
                faults);
        loop.run();
        drain = loop.drain();
        StatsSnapshot measured = loop.measured();
        String partialReason = loop.partialReason();
        Instant startTime = loop.startTime();
        Instant endTime = Instant.now();
        Teardown teardown = loop.teardown();
        List<RunResult.FaultEvent> faultEvents = null;
        if (faults != null) {
            // Before the exactly-once check: a restart still waiting is done now, so the check reads a whole cluster.
            // A run that ended early on the embedded cluster, which closes next, does without (an external one is
            // left as the workload meant to leave it).
            faultEvents =
                    faults.finish(teardown.remaining(FAULT_FINISH_TIMEOUT), !teardown.bounded() || !broker.embedded());
        }
        ExactlyOnceReport exactlyOnce = null;
        if (w.verifyExactlyOnce() && partialReason == null) {
            say("Verifying exactly-once delivery on %d topic(s)", topics.size());
            try {
                exactlyOnce = teardown.call("exactly-once verification", () -> verifyExactlyOnce(group, subscriptions));
            } catch (Exception e) {
                // The measurement stands; only the verdict is missing, and the result says why.
                partialReason = "exactly-once check failed: " + e.getMessage();
            }
        }
        if (exactlyOnce != null) {
            say(
                    "Exactly-once: %d checked, %d duplicated, %d missing, %d unexpected: %s",
                    exactlyOnce.checked(),
                    exactlyOnce.duplicated(),
                    exactlyOnce.missing(),
                    exactlyOnce.unexpected(),
                    exactlyOnce.passed() ? "PASS" : "FAIL");
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
        return writeResult(
                spec,
                driver,
                broker,
                startTime,
                endTime,
                partialReason,
                environment,
                exactlyOnce,
                measured,
                loop.periods(),
                faultEvents);
    }

    private Outcome writeResult(
            RunSpec spec,
            DriverFile driver,
            RunResult.Broker broker,
            Instant startTime,
            Instant endTime,
            String partialReason,
            Map<String, Object> environment,
            ExactlyOnceReport exactlyOnce,
            StatsSnapshot measured,
            List<io.ombtx.runner.stats.Period> periods)
            throws Exception {
        return writeResult(
                spec,
                driver,
                broker,
                startTime,
                endTime,
                partialReason,
                environment,
                exactlyOnce,
                measured,
                periods,
                null);
    }

    private Outcome writeResult(
            RunSpec spec,
            DriverFile driver,
            RunResult.Broker broker,
            Instant startTime,
            Instant endTime,
            String partialReason,
            Map<String, Object> environment,
            ExactlyOnceReport exactlyOnce,
            StatsSnapshot measured,
            List<io.ombtx.runner.stats.Period> periods,
            List<RunResult.FaultEvent> faults)
            throws Exception {
        Workload w = spec.workload();
        int interval = spec.reportingIntervalSeconds();
        // The broker facts come from the start of the run as a map of the result's "broker" fields.
        ResultBuilder.RunFacts facts = new ResultBuilder.RunFacts(
                w,
                driver.name(),
                startTime,
                endTime,
                partialReason,
                RunResult.RunMode.of(w, interval).withSearch(rateSearch),
                RunResult.Versions.of(broker),
                broker,
                driver.redacted(),
                environment,
                exactlyOnce,
                RunResult.Repetition.of(spec.repetition(), io.ombtx.runner.plan.Repetitions.newGroupId(startTime)),
                faults,
                drain);
        RunResult result = ResultBuilder.build(facts, measured, periods);
        String fileStem = spec.repetition() == null || spec.repetition().count() == 1
                ? w.name()
                : w.name() + "-rep" + spec.repetition().index();
        Path target = options.outputFile() != null
                ? options.outputFile()
                : ResultWriter.defaultPath(options.outputDir(), fileStem, driver.name(), ZonedDateTime.now());
        Path written = ResultWriter.write(target, result);
        if (result.status() == RunResult.Status.FAILED) {
            say("Run FAILED (%s); result written to %s", result.failureReason(), written);
        } else if (partialReason != null) {
            say("Run ended early (%s); partial result written to %s", partialReason, written);
        } else {
            say("Result written to %s", written);
        }
        printSummary(result);
        return new Outcome(written, result);
    }

    private static ExactlyOnceReport verifyExactlyOnce(WorkerGroup group, List<TopicSubscription> subscriptions)
            throws Exception {
        long checked = 0;
        long duplicated = 0;
        long missing = 0;
        long unexpected = 0;
        for (TopicSubscription s : subscriptions.stream().distinct().toList()) {
            ExactlyOnceReport one = group.verifyExactlyOnce(s.topic(), s.subscription());
            checked += one.checked();
            duplicated += one.duplicated();
            missing += one.missing();
            unexpected += one.unexpected();
        }
        return new ExactlyOnceReport(checked, duplicated, missing, unexpected);
    }

    private void printSummary(RunResult result) {
        if (result.status() == RunResult.Status.FAILED) {
            RunResult.Counts c = result.counts();
            say(
                    "No measured operation succeeded: %d failed, %d publish error(s), %d committed; no rates or latencies"
                            + " to report",
                    c.failed(), c.publishErrors(), c.committed());
            return;
        }
        LatencySummary ops = result.operationLatency();
        if (ops.count() > 0) {
            say(
                    "Operations: %d in %.3f s | min %.3f ms | p50 %.3f ms | p99 %.3f ms | max %.3f ms",
                    ops.count(), result.summary().durationSeconds(), ops.min(), ops.p50(), ops.p99(), ops.max());
        }
        Map<Phase, LatencySummary> phases = result.transactionPhases();
        if (phases.size() > 1) {
            StringBuilder line = new StringBuilder("Phases p50 (ms):");
            phases.forEach((phase, s) -> line.append(String.format(Locale.ROOT, " %s %.3f", phase.key(), s.p50())));
            say("%s", line);
            StringBuilder avg = new StringBuilder("Phases avg (ms):");
            phases.forEach((phase, s) -> avg.append(
                    String.format(Locale.ROOT, " %s %.3f", phase.key(), s.avg() == null ? Double.NaN : s.avg())));
            say("%s", avg);
        }
        RunResult.Scenario scenario = result.scenario();
        if (scenario.awaitAcks() != null || scenario.phaseSequence() != null) {
            say(
                    "Order: awaitAcks %s; phases ran %s",
                    scenario.awaitAcks() == null
                            ? "(driver's)"
                            : scenario.awaitAcks().key(),
                    scenario.phaseSequence() == null ? "(not reported)" : String.join(" > ", scenario.phaseSequence()));
        }
        if (result.faults() != null) {
            RunResult.Counts c = result.counts();
            say(
                    "Recovery: %d aborted, %d retried, %d fenced, %d producer(s) replaced, %d client resend(s), %d failed",
                    c.aborted(), c.retries(), c.fenced(), c.producersReplaced(), c.clientRetries(), c.failed());
            for (RunResult.FaultEvent f : result.faults()) {
                say("%s", FaultSummary.line(f));
            }
        }
        RunResult.Drain d = result.drain();
        if (d != null && !d.completed()) {
            say(
                    "WARNING: %d message(s) sent were never received (%s): end-to-end latency leaves them out",
                    d.notReceived(),
                    result.status() == RunResult.Status.COMPLETE
                            ? "the drain gave up after " + d.limitSeconds() + " s without progress"
                            : "the run ended while draining");
        }
    }

    private void say(String format, Object... args) {
        if (!options.quiet()) {
            out.printf(Locale.ROOT, "%tT %s%n", System.currentTimeMillis(), String.format(Locale.ROOT, format, args));
            out.flush();
        }
    }
}

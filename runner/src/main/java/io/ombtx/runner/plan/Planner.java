package io.ombtx.runner.plan;

import io.ombtx.driver.api.CheckedConfiguration;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.cluster.AccessUse;
import io.ombtx.runner.cluster.BrokerNeeds;
import io.ombtx.runner.cluster.BrokerPlan;
import io.ombtx.runner.cluster.ClusterSystem;
import io.ombtx.runner.cluster.ClusterSystems;
import io.ombtx.runner.config.BrokerSecurity;
import io.ombtx.runner.config.BrokerSetup;
import io.ombtx.runner.config.ClusterProfile;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.EmbeddedSystem;
import io.ombtx.runner.config.Fault;
import io.ombtx.runner.config.FaultTarget;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadWarnings;
import io.ombtx.runner.search.MaxRateSearch;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Payloads;
import io.ombtx.runner.worker.RunId;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Planning: drivers × workloads (sweeps already expanded) → fully resolved {@link RunSpec}s. Every decision a run
 * depends on is made here — the effective driver YAML (checked by the driver's own parser), the brokers, what each
 * worker does, the rates and counts it gets — so a bad input fails before anything starts, and the dry run shows
 * exactly what executes. Touches no broker and no worker.
 */
public final class Planner {

    /** OMB's first target when searching for the maximum rate. */
    public static final double MAX_RATE_SEARCH_START = 10_000;

    private Planner() {}

    public static List<RunSpec> plan(List<DriverFile> drivers, List<Workload> workloads, PlanOptions options) {
        List<RunSpec> runs = new ArrayList<>();
        for (Workload workload : workloads) {
            for (DriverFile driver : drivers) {
                runs.add(planOne(runs.size() + 1, driver, workload, options));
            }
        }
        return runs;
    }

    private static RunSpec planOne(int number, DriverFile userDriver, Workload w, PlanOptions options) {
        DriverFile driver = userDriver.effective(w.driverOverrides(), null);
        boolean usesBroker = CapabilityCheck.check(driver, w);
        BrokerPlan broker = usesBroker ? secured(brokers(driver, w, options), driver, w, options) : BrokerPlan.none();
        boolean checked = checkDriver(driver, w, !options.workerUrls().isEmpty());
        if (usesBroker) {
            checkClusterSettings(driver, w, broker);
        }
        boolean streaming = w.streaming();
        boolean open = w.loop() == LoopMode.OPEN;
        double initialRate = !open || (streaming && w.producerRate() == 0)
                ? 0
                : w.producerRate() > 0 ? w.producerRate() : MAX_RATE_SEARCH_START;
        boolean findMax = open && w.producerRate() == 0 && !streaming;
        if (findMax && w.countBased()) {
            // The search runs before the warm-up, and count-based workers would count its operations as measured.
            throw new ConfigException(
                    w.sourceFile(),
                    "producerRate",
                    "0 (search for the maximum sustainable rate)"
                            + " needs a time-based run: give testDurationSeconds (or testDurationMinutes) instead of counts,"
                            + " or set a producerRate");
        }
        List<String> urls = options.workerUrls().isEmpty() ? List.of(WorkerAssignment.LOCAL) : options.workerUrls();
        String note = null;
        if (w.waitForConsume() && urls.size() > 1) {
            note = "waitForConsume: producer and consumer both run on the first worker; the other " + (urls.size() - 1)
                    + " stay idle";
            urls = List.of(urls.get(0));
        }
        int interval = options.reportingIntervalSeconds() != null
                ? options.reportingIntervalSeconds()
                : w.reportingIntervalSeconds();
        List<WorkerAssignment> workers = assign(w, urls, options.extraConsumers(), initialRate);
        if (workers.isEmpty()) {
            throw new ConfigException(
                    w.sourceFile(),
                    "producersPerTopic",
                    "nothing to run: the workload has no"
                            + " producers and no consumers (producersPerTopic and subscriptionsPerTopic are both 0)");
        }
        checkFaults(w, broker, options);
        String faultCommand = w.faults().isEmpty() || broker.embedded() ? null : options.faultCommand();
        String runId = RunId.draw();
        LoadSpec load = new LoadSpec(
                w.loop(),
                initialRate,
                List.of(),
                w.keyDistributor(),
                w.warmupOperations(),
                w.measureOperations(),
                w.messagesPerOperation(),
                w.waitForConsume(),
                w.subscriptionsPerTopic() > 0,
                options.senderThreadsPerProducer());
        return new RunSpec(
                number,
                Measurement.of(w),
                AsRecorded.workload(w),
                driver,
                checked,
                broker,
                workers,
                note,
                initialRate,
                findMax,
                interval,
                options.teardownTimeoutSeconds(),
                null,
                faultCommand,
                runId,
                Topology.of(w, runId),
                load,
                payloads(w),
                findMax ? searchSettings(w, initialRate) : null,
                clientVersion(driver, w, options),
                w.driverOverrides().describe(),
                WorkloadWarnings.of(w),
                usesBroker ? brokerNeeds(driver, w, options) : List.of());
    }

    /**
     * What the run needs of the broker's transactional protocol, each blamed where it was asked for: the consumer
     * group protocol (KIP-848) for {@code group.protocol=consumer}, EndTxn v5 (KIP-890 part 2) for transaction
     * version 2, and TxnOffsetCommit v3 (KIP-447) for a transactional STREAM, whose processors commit their offsets
     * with {@code sendOffsetsToTransaction} and the consumer's group metadata (its member id and generation: every
     * kafka-clients release this runs on, 2.7 and later, refuses to send those below v3). A transactional WRITE's
     * or SEND_OFFSETS' offsets carry a group id alone (no member), which kafka-clients sends at any version. Checked
     * when the cluster has answered, before the load ({@link BrokerNeeds#refusal}).
     */
    static List<BrokerNeeds.Need> brokerNeeds(DriverFile driver, Workload w, PlanOptions options) {
        List<BrokerNeeds.Need> needs = new ArrayList<>();
        for (String block : List.of("consumerConfig", "commonConfig")) {
            String protocol = driver.properties(block).getProperty(BrokerSetup.GROUP_PROTOCOL);
            if (protocol == null) {
                continue;
            }
            if (protocol.trim().equalsIgnoreCase("consumer")) {
                String[] blamed = groupProtocolBlame(driver, w, block);
                needs.add(new BrokerNeeds.Need(
                        BrokerNeeds.Capability.CONSUMER_GROUP_PROTOCOL,
                        blamed[0],
                        blamed[1],
                        "group.protocol=consumer",
                        "use group.protocol=classic, or a broker that serves it (Kafka 4.0 and later)"));
            }
            break;
        }
        boolean fromFlag = options.transactionVersion() != null;
        Integer transactionVersion = fromFlag ? options.transactionVersion() : w.transactionVersion();
        if (transactionVersion != null && transactionVersion >= 2) {
            needs.add(new BrokerNeeds.Need(
                    BrokerNeeds.Capability.TRANSACTION_V2,
                    fromFlag ? null : w.sourceFile(),
                    fromFlag ? "--transaction-version" : "transactionVersion",
                    "transaction version " + transactionVersion,
                    "ask for transaction version 1, or use a broker with KIP-890 part 2 (Kafka 4.0 and later)"));
        }
        if (w.streaming() && w.operation().transactional()) {
            needs.add(new BrokerNeeds.Need(
                    BrokerNeeds.Capability.GROUP_METADATA,
                    w.sourceFile(),
                    "operation",
                    "a transactional STREAM (sendOffsetsToTransaction with the consumer's group metadata)",
                    "use a broker that serves it (Kafka 2.5 and later)"));
        }
        return needs;
    }

    /** The max-rate search's settings for a workload, bounded by its {@code latencyTarget} when it sets one. */
    private static MaxRateSearch.Settings searchSettings(Workload w, double initialRate) {
        MaxRateSearch.Settings settings =
                MaxRateSearch.Settings.forLoad(initialRate, w.producerCount(), w.messagesPerOperation());
        double latencyP99 = w.load().latencyTargetP99Millis();
        return latencyP99 > 0 ? settings.withLatencyTarget(latencyP99) : settings;
    }

    /** A workload's payloads, chosen as OMB chooses them. */
    private static Payloads.Spec payloads(Workload w) {
        boolean randomized = w.useRandomizedPayloads();
        return new Payloads.Spec(
                randomized ? null : w.payloadFile(),
                w.messageSize(),
                randomized ? w.randomizedPayloadPoolSize() : 1,
                randomized ? w.randomBytesRatio() : 1.0,
                w.sourceFile());
    }

    /**
     * The client release the run's local worker uses: {@code --client-version}, else the workload's
     * {@code clientVersion}, else null (the built-in client, in this JVM). A release other than the built-in one
     * runs the drivers in a worker JVM of their own, so it cannot apply to distributed workers (they run the client
     * they were installed with); the driver's client settings are checked against what that release knows.
     */
    private static String clientVersion(DriverFile driver, Workload w, PlanOptions options) {
        String chosen = options.clientVersion() != null ? options.clientVersion() : w.clientVersion();
        if (chosen == null) {
            return null;
        }
        String source = options.clientVersion() != null ? "--client-version" : w.sourceFile();
        String key = options.clientVersion() != null ? null : "clientVersion";
        ClusterSystem system = ClusterSystems.installed();
        String release;
        try {
            release = system.clientRelease(chosen);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(source, key, e.getMessage());
        }
        if (system.builtInClient(release)) {
            return null;
        }
        if (!options.workerUrls().isEmpty()) {
            throw new ConfigException(
                    source,
                    key,
                    "client release " + release + " applies to the local worker; distributed workers run the client"
                            + " they were installed with (drop -w, or install that client on the workers)");
        }
        system.clientSettingsProblem(release, driver).ifPresent(problem -> {
            // Blamed on where the setting was given: the workload (groupProtocol, driverOverrides) or the driver file.
            int dot = problem.key().indexOf('.');
            String block = dot < 0 ? "" : problem.key().substring(0, dot);
            String setting = problem.key().substring(dot + 1);
            if (w.groupProtocol() != null
                    && block.equals("consumerConfig")
                    && setting.equals(BrokerSetup.GROUP_PROTOCOL)) {
                throw new ConfigException(w.sourceFile(), "groupProtocol", problem.message());
            }
            if (w.driverOverrides().settings().getOrDefault(block, Map.of()).containsKey(setting)) {
                throw new ConfigException(w.sourceFile(), "driverOverrides." + problem.key(), problem.message());
            }
            throw new ConfigException(driver.file().toString(), problem.key(), problem.message());
        });
        return release;
    }

    /**
     * What the broker system judges of the driver's settings before anything starts: the client settings a
     * transactional operation cannot run with (acks, idempotence, a transaction time-out above the embedded brokers'
     * maximum), and on an embedded cluster the topic settings, by the release's own topic definitions. Each problem
     * is blamed on the workload's driverOverrides when the setting came from there, else on the driver file.
     */
    private static void checkClusterSettings(DriverFile driver, Workload w, BrokerPlan broker) {
        ClusterSystem system = ClusterSystems.installed();
        if (w.operation().transactional()) {
            system.transactionalClientProblem(driver, broker).ifPresent(problem -> {
                throw blame(driver, w, problem.key(), problem.message());
            });
        }
        Map<String, String> topicConfig = new LinkedHashMap<>();
        driver.properties("topicConfig").forEach((key, value) -> topicConfig.put((String) key, (String) value));
        messagesFit(driver, w, topicConfig);
        if (!broker.embedded() || topicConfig.isEmpty()) {
            return;
        }
        ClusterSystem.SettingsCheck check =
                system.topicSettingsCheck(broker.brokerVersion()).orElse(null);
        if (check == null) {
            return;
        }
        topicConfig.forEach((key, value) -> check.problem(key, value.trim()).ifPresent(problem -> {
            throw blame(driver, w, "topicConfig." + key, problem);
        }));
    }

    /** A record batch's header (v2): what a message takes beyond its own bytes, at least. */
    static final int RECORD_BATCH_OVERHEAD = 61;

    /**
     * A message that cannot fit the largest request the producer sends ({@code max.request.size}, kafka-clients'
     * default 1 MiB) or, uncompressed, the largest batch the topic takes ({@code max.message.bytes}) fails every send
     * with RecordTooLargeException: said before anything starts, as both numbers are known.
     */
    private static void messagesFit(DriverFile driver, Workload w, Map<String, String> topicConfig) {
        long smallestBatch = (long) w.messageSize() + RECORD_BATCH_OVERHEAD;
        java.util.Properties producer = driver.properties("producerConfig");
        long request = sizeSetting(producer.getProperty("max.request.size"), 1_048_576);
        if (smallestBatch > request) {
            throw blame(
                    driver,
                    w,
                    "producerConfig.max.request.size",
                    "a " + w.messageSize() + "-byte message (workload " + w.sourceFile()
                            + ", messageSize) takes at least "
                            + smallestBatch + " bytes in a request, more than max.request.size " + request
                            + ": the client would refuse every send as too large");
        }
        String compression = producer.getProperty("compression.type", "none").trim();
        long topicMax = sizeSetting(topicConfig.get("max.message.bytes"), Long.MAX_VALUE);
        if ((compression.isEmpty() || compression.equals("none")) && smallestBatch > topicMax) {
            throw blame(
                    driver,
                    w,
                    "topicConfig.max.message.bytes",
                    "a " + w.messageSize() + "-byte message (workload " + w.sourceFile()
                            + ", messageSize) takes at least "
                            + smallestBatch + " bytes in a record batch, more than the topic's max.message.bytes "
                            + topicMax + ": the broker would refuse every send as too large");
        }
    }

    private static long sizeSetting(String value, long fallback) {
        if (value == null || !value.trim().matches("\\d{1,18}")) {
            return fallback; // absent, or not a number: the client or broker says what is wrong with it
        }
        return Long.parseLong(value.trim());
    }

    /** {@code blockKey} ("producerConfig.acks") blamed on the workload's driverOverrides if it set it, else the driver. */
    private static ConfigException blame(DriverFile driver, Workload w, String blockKey, String problem) {
        int dot = blockKey.indexOf('.');
        String block = blockKey.substring(0, dot);
        String key = blockKey.substring(dot + 1);
        if (w.driverOverrides().settings().getOrDefault(block, Map.of()).containsKey(key)) {
            return new ConfigException(w.sourceFile(), "driverOverrides." + blockKey, problem);
        }
        return new ConfigException(driver.file().toString(), blockKey, problem);
    }

    /**
     * What the workload's faults need of the brokers: an index within the cluster, a broker left to carry on when
     * one is taken away for good, and on an external cluster a way to reach its brokers ({@code --fault-command}).
     */
    static void checkFaults(Workload w, BrokerPlan broker, PlanOptions options) {
        if (w.faults().stream().allMatch(f -> f.target().isClient())) {
            return; // client faults act through the workers' drivers, not on brokers
        }
        if (!broker.embedded() && options.faultCommand() == null) {
            throw new ConfigException(
                    w.sourceFile(),
                    "faults",
                    "the run uses the external cluster at "
                            + broker.bootstrapServers() + " (" + broker.serversSource()
                            + "), whose brokers omb-tx cannot"
                            + " kill by itself: give --fault-command, e.g. --fault-command 'ssh {host} sudo"
                            + " /usr/local/bin/omb-tx-fault {action}' (the deploy playbook installs omb-tx-fault)");
        }
        for (Fault fault : w.faults()) {
            if (fault.target().isClient()) {
                continue;
            }
            if (fault.target() == FaultTarget.BROKER && broker.embedded() && fault.brokerIndex() >= broker.brokers()) {
                throw new ConfigException(
                        w.sourceFile(),
                        fault.key() + ".target",
                        "broker index "
                                + fault.brokerIndex() + " but the run has " + broker.brokers()
                                + " broker(s), indexes 0 to "
                                + (broker.brokers() - 1));
            }
            if (!fault.recovers() && broker.embedded() && broker.brokers() < 2) {
                throw new ConfigException(
                        w.sourceFile(),
                        fault.key(),
                        fault.action().key() + " takes away the"
                                + " only broker of the run and never brings it back: add "
                                + fault.action().recoveryKey()
                                + ", or run on at least 2 brokers (brokers: 3)");
            }
        }
    }

    /**
     * OMB's split: one worker does everything; of several, the first half produce and the rest consume (with
     * {@code -x}, a third produce). Producers and subscriptions are dealt round-robin over their workers; only
     * workers given any take part, and rates and counts are split over those.
     */
    static List<WorkerAssignment> assign(Workload w, List<String> urls, boolean extraConsumers, double initialRate) {
        int n = urls.size();
        int producerWorkers = n == 1 ? 1 : extraConsumers ? (n + 2) / 3 : n / 2;
        List<Integer> producerRole = new ArrayList<>();
        List<Integer> consumerRole = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (n == 1 || i < producerWorkers) {
                producerRole.add(i);
            }
            if (n == 1 || i >= producerWorkers) {
                consumerRole.add(i);
            }
        }
        int producerItems = w.topics() * w.producersPerTopic();
        int consumerItems = w.topics() * w.subscriptionsPerTopic() * w.consumerPerSubscription();
        int[] producers = new int[n];
        int[] consumers = new int[n];
        for (int r = 0; r < producerRole.size(); r++) {
            producers[producerRole.get(r)] = WorkerAssignment.dealt(producerItems, producerRole.size(), r);
        }
        for (int r = 0; r < consumerRole.size(); r++) {
            consumers[consumerRole.get(r)] = WorkerAssignment.dealt(consumerItems, consumerRole.size(), r);
        }
        List<Integer> producing = new ArrayList<>();
        List<Integer> consuming = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (producers[i] > 0) {
                producing.add(i);
            }
            if (consumers[i] > 0) {
                consuming.add(i);
            }
        }
        // The workers that perform operations: producers, or for STREAM the consumers. The others split the warm-up
        // too, so their consumers know how many received messages belong to it.
        List<Integer> operating = w.streaming() ? consuming : producing;
        List<WorkerAssignment> assignments = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (producers[i] == 0 && consumers[i] == 0) {
                continue;
            }
            List<Integer> sharing = operating.contains(i) ? operating : consuming;
            int index = sharing.indexOf(i);
            long warmup = index < 0 ? 0 : WorkerAssignment.share(w.warmupOperations(), sharing.size(), index);
            long measure =
                    operating.contains(i) ? WorkerAssignment.share(w.measureOperations(), sharing.size(), index) : 0;
            int producerIndex = producing.indexOf(i);
            double rate = producerIndex < 0 ? 0 : initialRate / producing.size();
            long prefill = producerIndex < 0 || !w.streaming()
                    ? 0
                    : WorkerAssignment.share(w.prefillMessages(), producing.size(), producerIndex);
            assignments.add(
                    new WorkerAssignment(urls.get(i), producers[i], consumers[i], rate, warmup, measure, prefill));
        }
        return assignments;
    }

    /**
     * The driver's own parser checks the effective YAML, naming the user's file. A class that is not on this class
     * path is an error for a local run; remote workers may have it, so a distributed run goes on unchecked.
     */
    private static boolean checkDriver(DriverFile driver, Workload w, boolean distributed) {
        String file = driver.file().toString();
        Class<?> type;
        try {
            type = Class.forName(driver.driverClass(), false, Planner.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            if (distributed) {
                return false;
            }
            throw new ConfigException(
                    file,
                    "driverClass",
                    "class " + driver.driverClass() + " is not on the class"
                            + " path (is the driver's jar built, or named in OMBTX_CLASSPATH?)");
        }
        if (!BenchmarkDriver.class.isAssignableFrom(type)) {
            throw new ConfigException(
                    file,
                    "driverClass",
                    driver.driverClass() + " is not an OMB driver: it does not" + " implement "
                            + BenchmarkDriver.class.getName());
        }
        if (!CheckedConfiguration.class.isAssignableFrom(type)) {
            return false;
        }
        CheckedConfiguration check;
        try {
            check = (CheckedConfiguration) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new ConfigException(
                    file,
                    "driverClass",
                    "cannot create " + driver.driverClass() + ": it needs a" + " public no-argument constructor ("
                            + e.getClass().getSimpleName() + ")");
        }
        try {
            check.checkConfiguration(file, driver.toYaml());
        } catch (ConfigException e) {
            throw fromOverrides(w, e)
                    .orElseGet(() -> w.driverOverrides().isEmpty()
                            ? e
                            : e.withNote("with the driverOverrides of " + w.sourceFile()));
        } catch (RuntimeException e) {
            // A driver's check should say what is wrong as a ConfigException; anything else still stops the plan.
            throw new ConfigException(file, null, driver.driverClass() + " rejects this configuration: " + e);
        }
        return true;
    }

    /**
     * The driver's complaint about a block's setting, blamed on the workload when its driverOverrides set that key
     * (their value is the one in force): {@code driverOverrides.<block>.<key>} in the workload's file.
     */
    private static java.util.Optional<ConfigException> fromOverrides(Workload w, ConfigException e) {
        Map<String, String> block =
                e.key() == null ? Map.of() : w.driverOverrides().settings().getOrDefault(e.key(), Map.of());
        for (String key : block.keySet()) {
            if (e.problem().contains("'" + key + "'") || e.problem().contains(" " + key + ":")) {
                return java.util.Optional.of(
                        new ConfigException(w.sourceFile(), "driverOverrides." + e.key() + "." + key, e.problem()));
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * {@code plan} with the security its clients use ({@code --broker-security}, else the workload's
     * {@code brokerSecurity}) and the ACLs the benchmark's principal needs: granted on a secured embedded Kafka
     * (from Kafka 4.0; Tansu and older releases are refused), printed by the dry run for an external cluster whose
     * driver speaks SSL or SASL. {@code brokerSecurity} with an external cluster is refused: its security is the
     * driver's own settings.
     */
    private static BrokerPlan secured(BrokerPlan plan, DriverFile driver, Workload w, PlanOptions options) {
        boolean fromFlag = options.brokerSecurity() != null;
        BrokerSecurity security = fromFlag
                ? options.brokerSecurity()
                : w.brokerSecurity() != null ? w.brokerSecurity() : BrokerSecurity.NONE;
        ClusterSystem system = ClusterSystems.installed();
        String problem = null;
        if (security != BrokerSecurity.NONE) {
            if (plan.tansu()) {
                problem = "the embedded Tansu runs PLAINTEXT only (omb-tx secures the embedded Kafka)";
            } else if (!plan.embedded()) {
                problem = "secures the embedded cluster, and " + driver.file() + " names the cluster at "
                        + driver.bootstrapServers() + ": its security is the driver's own commonConfig"
                        + " (security.protocol, sasl.*, ssl.*)";
            } else {
                problem = system.securityProblem(plan.brokerVersion(), security);
            }
        }
        if (problem != null) {
            if (fromFlag) {
                throw new UsageException("--broker-security " + security.key() + ": " + problem);
            }
            throw new ConfigException(w.sourceFile(), "brokerSecurity", security.key() + ": " + problem);
        }
        String protocol = driver.properties("commonConfig").getProperty("security.protocol", "PLAINTEXT");
        boolean externalSecured = !plan.embedded() && !protocol.trim().equalsIgnoreCase("PLAINTEXT");
        if (security == BrokerSecurity.NONE && !externalSecured) {
            return plan.withSecurity(plan.embedded() ? BrokerSecurity.NONE : null, List.of());
        }
        AccessUse use = new AccessUse(
                w.operation().kind(),
                w.operation().transactional(),
                w.operation().sendOffsets() || w.operation().kind() == io.ombtx.driver.api.OperationKind.SEND_OFFSETS,
                w.producerCount() > 0,
                w.subscriptionsPerTopic() > 0,
                plan.brokerVersion());
        String principal = plan.embedded() ? system.benchmarkPrincipal() : "User:<the driver's principal>";
        return plan.withSecurity(plan.embedded() ? security : null, system.accessNeeds(driver, use, principal));
    }

    private static BrokerPlan brokers(DriverFile driver, Workload w, PlanOptions options) {
        if (driver.bootstrapServersEmpty()) {
            throw blame(
                    driver,
                    w,
                    "commonConfig.bootstrap.servers",
                    "empty: expected the cluster's HOST:PORT (e.g. broker1:9092); leave bootstrap.servers out, or"
                            + " write bootstrap.servers=embedded, for the embedded broker");
        }
        EmbeddedSystem system = options.brokerSystem() != null
                ? options.brokerSystem()
                : w.brokerSystem() != null ? w.brokerSystem() : EmbeddedSystem.KAFKA;
        List<String> source = options.brokerSystemSource();
        String chosenBy = options.brokerSystem() == null
                ? "brokerSystem " + system.key() + " in " + w.sourceFile()
                : source != null
                        ? source.get(1) + " " + system.key() + " in " + source.get(0)
                        : "--broker-system " + system.key();
        if (system == EmbeddedSystem.TANSU && !driver.wantsEmbeddedBroker()) {
            String problem = "names the embedded broker, and " + driver.file() + " names the cluster at "
                    + driver.bootstrapServers() + " (commonConfig.bootstrap.servers): drop one of the two";
            if (options.brokerSystem() == null) {
                throw new ConfigException(w.sourceFile(), "brokerSystem", "tansu " + problem);
            }
            if (source != null) {
                throw new ConfigException(source.get(0), source.get(1), "tansu " + problem);
            }
            throw new UsageException("--broker-system tansu " + problem);
        }
        if (system == EmbeddedSystem.TANSU) {
            TansuLimits.check(driver, w, options, chosenBy);
            return BrokerPlan.embedded(1, ClusterProfile.DEFAULT, Map.of(), null, null, EmbeddedSystem.TANSU);
        }
        int needed = brokersNeeded(driver, w, options.brokers());
        if (driver.wantsEmbeddedBroker()) {
            if (needed > ClusterSystem.MAX_EMBEDDED_BROKERS) {
                throw new ConfigException(
                        driver.file().toString(),
                        "replicationFactor",
                        "replication factor "
                                + driver.replicationFactor() + " needs " + needed
                                + " brokers; the embedded cluster starts at most "
                                + ClusterSystem.MAX_EMBEDDED_BROKERS
                                + " (name a cluster in commonConfig's bootstrap.servers instead)");
            }
            ClusterProfile profile = options.brokerProfile() != null ? options.brokerProfile() : w.brokerProfile();
            String version = options.brokerVersion() != null ? options.brokerVersion() : brokerRelease(w);
            checkBrokerSettings(w, options, version);
            checkGroupProtocol(driver, w, version);
            Map<String, String> settings = new LinkedHashMap<>(w.brokerSettings());
            settings.putAll(options.brokerSettings());
            Integer transactionVersion = transactionVersion(w, options, version);
            return BrokerPlan.embedded(needed, profile, settings, version, transactionVersion);
        }
        Integer overrideRf = w.driverOverrides().replicationFactor();
        List<BrokerPlan.Demand> demands = List.of(
                overrideRf != null
                        ? new BrokerPlan.Demand(overrideRf, w.sourceFile(), "driverOverrides.replicationFactor")
                        : new BrokerPlan.Demand(
                                driver.replicationFactor(), driver.file().toString(), "replicationFactor"),
                new BrokerPlan.Demand(w.brokers(), w.sourceFile(), "brokers"),
                new BrokerPlan.Demand(options.brokers() == null ? 0 : options.brokers(), null, "--brokers"));
        ClusterSystems.installed().serversProblem(driver.bootstrapServers()).ifPresent(problem -> {
            throw blame(driver, w, "commonConfig.bootstrap.servers", problem);
        });
        String overriddenCommon = w.driverOverrides().propertyBlocks().get("commonConfig");
        String serversSource = overriddenCommon != null && overriddenCommon.contains("bootstrap.servers")
                ? w.sourceFile() + "'s driverOverrides.commonConfig"
                : driver.file() + "'s commonConfig";
        return BrokerPlan.external(needed, driver.bootstrapServers(), serversSource, demands);
    }

    /** The workload's {@code brokerVersion} as a release the installed broker system knows; null when not given. */
    private static String brokerRelease(Workload w) {
        try {
            return w.brokerVersion() == null ? null : ClusterSystems.installed().release(w.brokerVersion());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(w.sourceFile(), "brokerVersion", e.getMessage());
        }
    }

    /**
     * The transaction.version to format the embedded storage with: --transaction-version, else the workload's; null
     * for the broker's default. Only Kafka 4.x has the feature: choosing it on an older release is an error, blamed
     * on where it was chosen.
     */
    private static Integer transactionVersion(Workload w, PlanOptions options, String version) {
        boolean fromFlag = options.transactionVersion() != null;
        Integer chosen = fromFlag ? options.transactionVersion() : w.transactionVersion();
        if (chosen == null) {
            return null;
        }
        String problem = ClusterSystems.installed().transactionVersionProblem(version, chosen);
        if (problem != null) {
            String versionSource = options.brokerVersion() != null
                    ? " (--broker-version)"
                    : w.brokerVersion() != null ? " (" + w.sourceFile() + "'s brokerVersion)" : " (the default broker)";
            if (fromFlag) {
                throw new UsageException("--transaction-version " + chosen + ": " + problem + versionSource);
            }
            throw new ConfigException(w.sourceFile(), "transactionVersion", problem + versionSource);
        }
        return chosen;
    }

    /**
     * The workload's brokerSettings and --broker-config, checked by the definitions of the release the run starts
     * (resolved from Maven Central first when it is not the built-in one and not cached). Without a broker class path
     * there is nothing to check against: the run reports the missing class path itself.
     */
    private static void checkBrokerSettings(Workload w, PlanOptions options, String version) {
        if (w.brokerSettings().isEmpty() && options.brokerSettings().isEmpty()) {
            return;
        }
        ClusterSystem.SettingsCheck check =
                ClusterSystems.installed().settingsCheck(version).orElse(null);
        if (check == null) {
            return;
        }
        w.brokerSettings().forEach((key, value) -> check.problem(key, value).ifPresent(problem -> {
            if (key.equals(BrokerSetup.PARTITION_VERIFICATION) && w.partitionVerification() != null) {
                throw new ConfigException(
                        w.sourceFile(),
                        "partitionVerification",
                        problem + "; partition verification (KIP-890 part 1) came with Kafka 3.6: leave"
                                + " partitionVerification unset on this release");
            }
            throw new ConfigException(w.sourceFile(), "brokerSettings." + key, problem);
        }));
        options.brokerSettings()
                .forEach((key, value) -> check.problem(key, value).ifPresent(problem -> {
                    throw new UsageException("--broker-config " + key + ": " + problem);
                }));
    }

    /**
     * The consumers' {@code group.protocol} (the workload's {@code groupProtocol}, its driver overrides' or the driver
     * file's) against the embedded broker release: blamed on where it was set.
     */
    private static void checkGroupProtocol(DriverFile driver, Workload w, String version) {
        for (String block : List.of("consumerConfig", "commonConfig")) {
            String protocol = driver.properties(block).getProperty(BrokerSetup.GROUP_PROTOCOL);
            if (protocol == null) {
                continue;
            }
            String problem = ClusterSystems.installed().groupProtocolProblem(version, protocol);
            if (problem == null) {
                return;
            }
            throw groupProtocolRefused(driver, w, block, problem);
        }
    }

    /**
     * A {@code group.protocol} in {@code block} refused for {@code problem}, blamed where the user set it: the
     * workload's {@code groupProtocol}, its {@code driverOverrides}, else the driver's file.
     */
    static ConfigException groupProtocolRefused(DriverFile driver, Workload w, String block, String problem) {
        String[] blamed = groupProtocolBlame(driver, w, block);
        return new ConfigException(blamed[0], blamed[1], problem);
    }

    /** The file and key that set the {@code group.protocol} in force in {@code block} (see above). */
    private static String[] groupProtocolBlame(DriverFile driver, Workload w, String block) {
        if (w.groupProtocol() != null) {
            return new String[] {w.sourceFile(), "groupProtocol"};
        }
        if (w.driverOverrides().settings().getOrDefault(block, Map.of()).containsKey(BrokerSetup.GROUP_PROTOCOL)) {
            return new String[] {w.sourceFile(), "driverOverrides." + block + "." + BrokerSetup.GROUP_PROTOCOL};
        }
        return new String[] {driver.file().toString(), block + "." + BrokerSetup.GROUP_PROTOCOL};
    }

    /**
     * How many brokers the run needs: the workload's count, raised to the (effective) replication factor. A
     * replication factor above an explicitly requested count is impossible, and an error: the count of
     * {@code --brokers}, else of the workload's {@code brokers} key ({@code --brokers} wins over the key, the larger
     * of the two running).
     */
    static int brokersNeeded(DriverFile effective, Workload workload, Integer brokersFlag) {
        Integer overrideRf = workload.driverOverrides().replicationFactor();
        int replication = effective.replicationFactor();
        if (overrideRf != null && overrideRf > workload.brokers()) {
            throw new ConfigException(
                    workload.sourceFile(),
                    "driverOverrides.replicationFactor",
                    "replication factor " + overrideRf + " is above the broker count " + workload.brokers()
                            + "; set brokers: " + overrideRf);
        }
        if (brokersFlag != null) {
            if (replication > brokersFlag) {
                throw new ConfigException(
                        effective.file().toString(),
                        "replicationFactor",
                        "replication factor " + replication + " is above the broker count " + brokersFlag
                                + " given by --brokers");
            }
            return Math.max(brokersFlag, workload.brokers());
        }
        if (workload.brokersGiven() && replication > workload.brokers()) {
            throw new ConfigException(
                    workload.sourceFile(),
                    "brokers",
                    workload.brokers() + " broker(s), below the replication factor " + replication + " of "
                            + effective.file() + " (replicationFactor): set brokers: " + replication
                            + " or more, or use a driver with a lower replication factor");
        }
        return Math.max(workload.brokers(), replication);
    }
}

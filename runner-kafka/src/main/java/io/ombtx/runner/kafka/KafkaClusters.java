package io.ombtx.runner.kafka;

import io.ombtx.broker.BrokerClassPath;
import io.ombtx.broker.BrokerConfigDefinitions;
import io.ombtx.broker.BrokerLibrary;
import io.ombtx.broker.BrokerProfile;
import io.ombtx.broker.BrokerStartException;
import io.ombtx.broker.ClientRelease;
import io.ombtx.broker.ClusterSecurity;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.KafkaVersion;
import io.ombtx.broker.TransactionProtocol;
import io.ombtx.driver.api.KeySuggestions;
import io.ombtx.runner.cluster.AccessNeed;
import io.ombtx.runner.cluster.AccessUse;
import io.ombtx.runner.cluster.BrokerPlan;
import io.ombtx.runner.cluster.ClusterSession;
import io.ombtx.runner.cluster.ClusterStartFailed;
import io.ombtx.runner.cluster.ClusterSystem;
import io.ombtx.runner.cluster.ClusterUnreachable;
import io.ombtx.runner.cluster.CoordinatorLog;
import io.ombtx.runner.config.BrokerSecurity;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.Guarantee;
import io.ombtx.runner.config.Secrets;
import io.ombtx.runner.fault.BrokerControl;
import io.ombtx.runner.fault.FaultCluster;
import io.ombtx.runner.result.HostFacts;
import io.ombtx.runner.result.RunResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.utils.Utils;

/**
 * Kafka-API clusters (Apache Kafka, Redpanda, Tansu) for the runner: the embedded cluster started from the plan
 * ({@link EmbeddedKafkaCluster}, faults through its own processes; or one Tansu broker, {@link TansuCluster}), or an
 * external one the driver's
 * {@code bootstrap.servers} names. Each is read through one Admin client: its size, its system (told from what it
 * answers, {@link BrokerIdentity}), the version running and the transaction protocol in force.
 */
public final class KafkaClusters implements ClusterSystem {

    /** Time-outs of the cluster's Admin client (a driver's lower values are kept). */
    private static final int REQUEST_TIMEOUT_MS = 10_000;

    private static final int API_TIMEOUT_MS = 15_000;

    @Override
    public ClusterSession open(BrokerPlan plan, DriverFile driver, Consumer<String> log) throws Exception {
        if (plan.noBroker()) {
            throw new IllegalArgumentException("a plan without a broker opens no cluster");
        }
        if (!plan.embedded()) {
            return External.reach(plan, driver, log);
        }
        try {
            return plan.tansu() ? TansuCluster.open(plan, driver, log) : embedded(plan, driver, log);
        } catch (BrokerStartException e) {
            throw new ClusterStartFailed(e.getMessage(), e);
        }
    }

    @Override
    public String securityProblem(String release, BrokerSecurity security) {
        return KafkaVersion.parse(release != null ? release : EmbeddedKafkaCluster.DEFAULT_VERSION)
                .securityProblem(mode(security));
    }

    @Override
    public List<AccessNeed> accessNeeds(DriverFile driver, AccessUse use, String principal) {
        return AccessList.needs(driver, use, principal);
    }

    @Override
    public String benchmarkPrincipal() {
        return ClusterSecurity.principal(ClusterSecurity.BENCH);
    }

    @Override
    public List<String> accessLines(List<AccessNeed> needs, String bootstrapServers) {
        return needs.stream()
                .map(need -> AccessList.line(need, bootstrapServers))
                .toList();
    }

    private static ClusterSecurity.Mode mode(BrokerSecurity security) {
        return security == null ? ClusterSecurity.Mode.NONE : ClusterSecurity.Mode.valueOf(security.name());
    }

    /**
     * A test's way to start a secured embedded cluster without one of the ACLs the plan says (its resource type, e.g.
     * TRANSACTIONAL_ID), to see the run refused: the system property {@value}.
     */
    static final String WITHHOLD_ACL_PROPERTY = "ombtx.test.withholdAcl";

    @Override
    public String release(String text) {
        return KafkaVersion.parse(text).toString();
    }

    @Override
    public String transactionVersionProblem(String release, int transactionVersion) {
        return KafkaVersion.parse(release != null ? release : EmbeddedKafkaCluster.DEFAULT_VERSION)
                .transactionVersionProblem(transactionVersion);
    }

    /**
     * KIP-848's protocol ({@code consumer}) is served by default from Kafka 4.0, where it became generally available;
     * 3.7 to 3.9 have it only as an early-access preview behind broker settings, which omb-tx does not measure.
     */
    @Override
    public String groupProtocolProblem(String release, String protocol) {
        KafkaVersion version = KafkaVersion.parse(release != null ? release : EmbeddedKafkaCluster.DEFAULT_VERSION);
        String chosen = protocol.trim().toLowerCase(java.util.Locale.ROOT);
        if (chosen.equals("consumer") && version.compareTo(KafkaVersion.FIRST_CONSUMER_GROUP_PROTOCOL) < 0) {
            return "the consumer group protocol (KIP-848) needs a Kafka " + KafkaVersion.FIRST_CONSUMER_GROUP_PROTOCOL
                    + " broker or later (generally available from then; an early-access preview before), and this"
                    + " run's broker is Kafka " + version + ": use group.protocol=classic, or a later broker release";
        }
        return null;
    }

    /** By the release's own broker definitions, loaded from its class path in a class loader of their own. */
    @Override
    public Optional<SettingsCheck> settingsCheck(String release) {
        BrokerConfigDefinitions definitions = definitions(release);
        if (definitions == null) {
            return Optional.empty();
        }
        return Optional.of(settingsCheck(
                definitions.kafkaVersion(), "broker", definitions::knows, definitions.names(), definitions::problem));
    }

    @Override
    public Optional<SettingsCheck> topicSettingsCheck(String release) {
        BrokerConfigDefinitions definitions = definitions(release);
        if (definitions == null || !definitions.hasTopicDefinitions()) {
            return Optional.empty();
        }
        return Optional.of(settingsCheck(
                definitions.kafkaVersion(),
                "topic",
                definitions::knowsTopic,
                definitions.topicNames(),
                definitions::topicProblem));
    }

    /** An unknown {@code kind} setting (with a did-you-mean), else what {@code problem} says of its value. */
    private static SettingsCheck settingsCheck(
            String kafkaVersion,
            String kind,
            Predicate<String> knows,
            Set<String> names,
            BiFunction<String, String, Optional<String>> problem) {
        return (key, value) -> {
            if (!knows.test(key)) {
                return Optional.of("Kafka " + kafkaVersion + " has no " + kind + " setting '" + key + "'"
                        + KeySuggestions.closest(key, names)
                                .map(s -> " (did you mean '" + s + "'?)")
                                .orElse(""));
            }
            return problem.apply(key, value);
        };
    }

    /**
     * The config definitions of the embedded {@code release} (null: the default), or null when they cannot be had
     * (starting the broker will say why).
     */
    private static BrokerConfigDefinitions definitions(String release) {
        try {
            return release == null
                    ? BrokerConfigDefinitions.find().orElse(null)
                    : BrokerConfigDefinitions.find(KafkaVersion.parse(release)).orElse(null);
        } catch (BrokerStartException e) {
            return null;
        }
    }

    /**
     * Each entry HOST:PORT as kafka-clients reads it ({@code Utils.getHost}/{@code getPort}), the port in range, and
     * no scheme: kafka-clients reads {@code http://h:9092} or {@code PLAINTEXT://h:9092} as {@code h:9092}, dropping
     * the scheme unseen, where omb-tx's own readers of the address (the result's host facts) would not; such an
     * entry is refused, saying what to write.
     */
    @Override
    public Optional<String> serversProblem(String servers) {
        boolean any = false;
        for (String entry : servers.split(",")) {
            String address = entry.trim();
            if (address.isEmpty()) {
                continue;
            }
            any = true;
            String host = Utils.getHost(address);
            Integer port;
            try {
                port = Utils.getPort(address);
            } catch (NumberFormatException e) {
                port = -1; // digits beyond an int
            }
            if (host == null || host.isEmpty() || port == null) {
                return Optional.of("'" + address + "' is not HOST:PORT (e.g. broker1:9092, or embedded for the"
                        + " embedded cluster)");
            }
            if (port < 1 || port > 65535) {
                return Optional.of("'" + address + "' has a port outside 1 to 65535");
            }
            int scheme = address.indexOf("://");
            if (scheme >= 0) {
                String plain = address.substring(scheme + 3);
                return Optional.of("'" + address + "' is not HOST:PORT: write " + plain + " (bootstrap.servers takes"
                        + " no scheme: the protocol is security.protocol); kafka-clients would read it as " + plain
                        + ", dropping the scheme unseen");
            }
        }
        return any ? Optional.empty() : Optional.of("names no address (e.g. broker1:9092)");
    }

    /** Kafka's default {@code transaction.max.timeout.ms} (15 minutes), when the plan does not set it. */
    static final long DEFAULT_TRANSACTION_MAX_TIMEOUT_MS = 900_000;

    @Override
    public Optional<SettingProblem> transactionalClientProblem(DriverFile driver, BrokerPlan plan) {
        Properties common = driver.properties("commonConfig");
        Properties producer = driver.properties("producerConfig");
        for (String key : List.of(ProducerConfig.ACKS_CONFIG, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)) {
            String block =
                    producer.containsKey(key) ? "producerConfig" : common.containsKey(key) ? "commonConfig" : null;
            if (block == null) {
                continue;
            }
            String value = (block.equals("producerConfig") ? producer : common)
                    .getProperty(key)
                    .trim()
                    .toLowerCase(Locale.ROOT);
            if (key.equals(ProducerConfig.ACKS_CONFIG) && !value.equals("all") && !value.equals("-1")) {
                return Optional.of(new SettingProblem(
                        block + "." + key,
                        "acks=" + value + " with transactions: a transactional producer needs acks=all (or -1)"));
            }
            if (key.equals(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG) && value.equals("false")) {
                return Optional.of(new SettingProblem(
                        block + "." + key,
                        "enable.idempotence=false with transactions: a transactional producer is idempotent"
                                + " (remove the line, or set it to true)"));
            }
        }
        String timeoutKey = ProducerConfig.TRANSACTION_TIMEOUT_CONFIG;
        String block = producer.containsKey(timeoutKey)
                ? "producerConfig"
                : common.containsKey(timeoutKey) ? "commonConfig" : null;
        if (block == null || !plan.embedded()) {
            return Optional.empty();
        }
        long timeout;
        try {
            timeout = Long.parseLong((block.equals("producerConfig") ? producer : common)
                    .getProperty(timeoutKey)
                    .trim());
        } catch (NumberFormatException e) {
            return Optional.empty(); // the driver's own check names the bad number
        }
        String maxKey = "transaction.max.timeout.ms";
        String setMax = plan.settings().get(maxKey);
        long max;
        try {
            max = setMax == null ? DEFAULT_TRANSACTION_MAX_TIMEOUT_MS : Long.parseLong(setMax.trim());
        } catch (NumberFormatException e) {
            return Optional.empty(); // the broker settings' check names it
        }
        if (timeout > max) {
            return Optional.of(new SettingProblem(
                    block + "." + timeoutKey,
                    timeoutKey + "=" + timeout + " is above the embedded brokers' " + maxKey + " (" + max
                            + (setMax == null ? ", Kafka's default" : ", as the broker settings set it")
                            + "): the broker would refuse every transactional producer; lower it, or raise " + maxKey
                            + " with brokerSettings or --broker-config"));
        }
        return Optional.empty();
    }

    /** "4.1.1 (KRaft, default)", "2.8.2 (ZooKeeper)", "4.1.1 (KRaft, transaction.version 1)". */
    @Override
    public String clientRelease(String text) {
        KafkaVersion version = KafkaVersion.parse(text);
        if (version.compareTo(KafkaVersion.OLDEST) < 0) {
            throw new IllegalArgumentException("kafka-clients " + version + " is older than the oldest supported, "
                    + KafkaVersion.OLDEST + " (the drivers need its transactional and admin API)");
        }
        return version.toString();
    }

    @Override
    public boolean builtInClient(String release) {
        return ClientRelease.builtIn(KafkaVersion.parse(release));
    }

    @Override
    public List<Path> clientClassPath(String release, String classPath) throws Exception {
        return ClientRelease.of(KafkaVersion.parse(release)).classPath(classPath);
    }

    @Override
    public Optional<SettingProblem> clientSettingsProblem(String release, DriverFile driver) {
        ClientRelease client;
        try {
            client = ClientRelease.of(KafkaVersion.parse(release));
        } catch (BrokerStartException e) {
            return Optional.empty();
        }
        try {
            Set<String> producer = client.configKeys(ClientRelease.Kind.PRODUCER);
            Set<String> consumer = client.configKeys(ClientRelease.Kind.CONSUMER);
            Set<String> admin = client.configKeys(ClientRelease.Kind.ADMIN);
            Set<String> any = new java.util.HashSet<>(producer);
            any.addAll(consumer);
            any.addAll(admin);
            Map<String, Set<String>> blocks = new LinkedHashMap<>();
            blocks.put("commonConfig", any);
            blocks.put("producerConfig", producer);
            blocks.put("consumerConfig", consumer);
            Set<String> builtIn =
                    new java.util.HashSet<>(org.apache.kafka.clients.producer.ProducerConfig.configNames());
            builtIn.addAll(org.apache.kafka.clients.consumer.ConsumerConfig.configNames());
            builtIn.addAll(org.apache.kafka.clients.admin.AdminClientConfig.configNames());
            for (Map.Entry<String, Set<String>> block : blocks.entrySet()) {
                for (String key : driver.properties(block.getKey()).stringPropertyNames()) {
                    // Keys the built-in client does not know either are the driver's own check's business.
                    if (!block.getValue().contains(key) && builtIn.contains(key) && !key.equals("bootstrap.servers")) {
                        return Optional.of(new SettingProblem(
                                block.getKey() + "." + key,
                                "is not a setting of kafka-clients " + release + " (the client this run uses: it came"
                                        + " with a later release); remove it, or choose a later client release"));
                    }
                }
            }
            return Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public String describeRelease(BrokerPlan b) {
        if (b.tansu()) {
            return TansuCluster.describeRelease();
        }
        String version = b.brokerVersion() != null ? b.brokerVersion() : EmbeddedKafkaCluster.DEFAULT_VERSION;
        KafkaVersion kafka = KafkaVersion.parse(version);
        return version + " (" + (kafka.zooKeeper() ? "ZooKeeper" : "KRaft")
                + (b.brokerVersion() == null ? ", default" : "")
                + (b.transactionVersion() != null
                        ? ", transaction.version " + b.transactionVersion()
                        : kafka.hasTransactionVersion()
                                ? ", the broker's default transaction.version"
                                : ", no transaction.version: pre-KIP-890 transactions")
                + ")"
                + (BrokerLibrary.available(kafka)
                        ? ""
                        : "; not cached yet: fetched from Maven Central into " + BrokerLibrary.cacheRoot()
                                + " when the run starts");
    }

    private static ClusterSession embedded(BrokerPlan plan, DriverFile driver, Consumer<String> log)
            throws BrokerStartException {
        // Finding the broker's class path first: when it is missing, the error says so before anything else.
        String version = plan.brokerVersion() != null
                ? plan.brokerVersion()
                : BrokerClassPath.locate().kafkaVersion();
        if (plan.brokerVersion() != null && !BrokerLibrary.available(KafkaVersion.parse(version))) {
            log.accept(String.format(
                    "Kafka %s is not cached yet: fetching it from Maven Central into %s (once)",
                    version, BrokerLibrary.cacheRoot()));
        }
        log.accept(String.format(
                "Starting embedded Kafka %s: %d broker(s), profile %s%s%s",
                version,
                plan.brokers(),
                plan.profile().displayName(),
                plan.transactionVersion() == null ? "" : ", transaction.version " + plan.transactionVersion(),
                plan.settings().isEmpty() ? "" : ", overrides " + Secrets.redacted(plan.settings())));
        EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                .brokers(plan.brokers())
                .profile(BrokerProfile.valueOf(plan.profile().name()))
                .overrides(plan.settings())
                .version(plan.brokerVersion())
                .transactionVersion(plan.transactionVersion())
                .security(mode(plan.security()))
                .start();
        try {
            if (plan.secured()) {
                grant(cluster, plan.access(), log);
            }
            return new Embedded(cluster, benchmarkDriver(driver, cluster), facts(plan, cluster, log));
        } catch (BrokerStartException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * {@code driver} pointed at {@code cluster}, with the benchmark principal's client settings when it is secured
     * (references to its secrets, never the secrets).
     */
    private static DriverFile benchmarkDriver(DriverFile driver, EmbeddedKafkaCluster cluster) {
        Map<String, String> security = cluster.security()
                .map(s -> s.clientSettings(ClusterSecurity.BENCH))
                .orElse(Map.of());
        return driver.effective(
                new DriverOverrides(null, security.isEmpty() ? Map.of() : Map.of("commonConfig", security)),
                cluster.bootstrapServers());
    }

    /** Grants the benchmark's principal the plan's ACLs, as the runner's super user. */
    private static void grant(EmbeddedKafkaCluster cluster, List<AccessNeed> needs, Consumer<String> log)
            throws BrokerStartException {
        String withheld = System.getProperty(WITHHOLD_ACL_PROPERTY);
        List<AccessNeed> granted = needs.stream()
                .filter(need -> !need.resourceType().equals(withheld))
                .toList();
        try (Admin admin = Admin.create(adminProperties(cluster))) {
            admin.createAcls(AccessList.bindings(granted)).all().get(API_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while granting the benchmark's ACLs");
        } catch (ExecutionException | TimeoutException e) {
            throw new BrokerStartException("the embedded cluster did not take the benchmark's ACLs: " + describe(e));
        }
        log.accept(String.format(
                "Secured with %s (%s): %s may %s%s",
                cluster.securityMode().key(),
                cluster.securityMode().protocol(),
                ClusterSecurity.principal(ClusterSecurity.BENCH),
                String.join("; ", granted.stream().map(AccessNeed::describe).toList()),
                granted.size() < needs.size() ? " (" + withheld + " withheld for a test)" : ""));
    }

    /** The runner's own admin client settings for {@code cluster}: its super user's when secured. */
    private static Properties adminProperties(EmbeddedKafkaCluster cluster) {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS));
        props.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(API_TIMEOUT_MS));
        props.putAll(cluster.adminClientSettings());
        return props;
    }

    /**
     * The embedded brokers as the result records them, read back from them: the version the broker reports, the
     * transaction protocol in force, ZooKeeper or KRaft.
     */
    private static RunResult.Broker facts(BrokerPlan plan, EmbeddedKafkaCluster cluster, Consumer<String> log)
            throws BrokerStartException {
        String running = cluster.runningVersion();
        TransactionProtocol protocol;
        try {
            protocol = cluster.transactionProtocol();
        } catch (Exception e) {
            throw new BrokerStartException("embedded Kafka " + running + " started but its transaction.version could"
                    + " not be read back: " + describe(e));
        }
        String metadata = cluster.zooKeeper() ? "ZooKeeper" : "KRaft";
        log.accept(String.format(
                "Kafka %s running (%s); transaction protocol: %s", running, metadata, protocol.description()));
        RunResult.Broker broker = RunResult.Broker.embedded(
                        plan.brokers(), running, plan.profile().displayName(), Secrets.redacted(cluster.settings()))
                .withReadBack(
                        cluster.zooKeeper()
                                ? RunResult.Broker.Coordination.ZOOKEEPER
                                : RunResult.Broker.Coordination.KRAFT,
                        protocol.transactionVersion(),
                        protocol.description(),
                        cluster.requestedTransactionVersion())
                .withDataDisk(HostFacts.disk(cluster.workDir()))
                .withSecurityProtocol(cluster.securityMode().protocol());
        return identified(broker, adminProperties(cluster), log);
    }

    /**
     * {@code broker} with its system told from the wire ({@link BrokerIdentity}), said on the console; as it was when
     * the cluster does not answer the probes.
     */
    static RunResult.Broker identified(RunResult.Broker broker, String bootstrapServers, Consumer<String> log)
            throws BrokerStartException {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS));
        props.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(API_TIMEOUT_MS));
        return identified(broker, props, log);
    }

    /** As above, with the client settings {@code props} (bootstrap servers, time-outs, security). */
    static RunResult.Broker identified(RunResult.Broker broker, Properties props, Consumer<String> log)
            throws BrokerStartException {
        try (Admin admin = Admin.create(props)) {
            return identified(broker, admin, props, log);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while asking the embedded broker what it is");
        }
    }

    private static RunResult.Broker identified(
            RunResult.Broker broker, Admin admin, Properties props, Consumer<String> log) throws InterruptedException {
        BrokerIdentity.Answers answers = BrokerIdentity.answers(admin, props, API_TIMEOUT_MS / 1000 + 5);
        RunResult.Identity identity = BrokerIdentity.identify(answers);
        if (answers.clusterProblem() != null) {
            log.accept(String.format(
                    "Could not read back which broker system runs at %s: %s",
                    broker.bootstrapServers() != null ? broker.bootstrapServers() : "the embedded cluster",
                    answers.clusterProblem()));
            return broker;
        }
        log.accept(String.format(
                "The cluster at %s is %s",
                broker.bootstrapServers() != null
                        ? broker.bootstrapServers()
                        : props.getProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG),
                BrokerIdentity.describe(identity, answers.clusterId())));
        RunResult.Capabilities capabilities = capabilities(answers);
        log.accept(BrokerCapabilities.line(capabilities));
        return broker.withIdentity(identity, answers.clusterId(), capabilities);
    }

    /**
     * What the cluster serves of the transactional protocol: the identity's ApiVersions answer (not asked again) and
     * InitProducerId asked of the same broker ({@link ProducerProbe}); not probed, saying why, when ApiVersions was
     * not answered (TLS or SASL, which the probes do not speak, or no answer).
     */
    static RunResult.Capabilities capabilities(BrokerIdentity.Answers answers) throws InterruptedException {
        if (answers.apiVersions() == null) {
            return RunResult.Capabilities.notProbed("ApiVersions: " + answers.apiVersionsProblem());
        }
        return BrokerCapabilities.of(
                answers.apiVersions(), ProducerProbe.ask(answers.host(), answers.port(), answers.apiVersions()));
    }

    /** The embedded cluster of one run: started from the plan, stopped when the session closes. */
    private record Embedded(EmbeddedKafkaCluster cluster, DriverFile driver, RunResult.Broker facts)
            implements ClusterSession {

        @Override
        public int brokers() {
            return facts.brokers();
        }

        @Override
        public BrokerControl processControl() {
            return new EmbeddedBrokerControl(cluster);
        }

        @Override
        public String lost() {
            return cluster.unexpectedExit()
                    .map(exit -> exit.describe() + ", not a fault the workload declared")
                    .orElse(null);
        }

        @Override
        public FaultCluster faultCluster(FaultCluster.RunNames names) {
            return faultTargets(adminProperties(cluster), names);
        }

        @Override
        public RunResult.Conformance probeConformance(Guarantee guarantee, Consumer<String> log) throws Exception {
            return ConformanceProbes.probe(guarantee, driver(), log);
        }

        @Override
        public DriverFile driverFor(DriverFile planned) {
            return benchmarkDriver(planned, cluster);
        }

        @Override
        public Optional<String> accessRefusal(List<AccessNeed> needs) throws InterruptedException {
            if (cluster.security().isEmpty() || needs.isEmpty()) {
                return Optional.empty();
            }
            return AccessList.probe(needs, driver.properties("commonConfig"), API_TIMEOUT_MS / 1000);
        }

        @Override
        public Optional<String> refusalOf(Throwable failure, List<AccessNeed> needs) {
            return AccessList.refusal(failure, needs);
        }

        @Override
        public java.util.List<java.nio.file.Path> keepBrokerLogs(java.nio.file.Path dir) throws java.io.IOException {
            return cluster.copyLogs(dir);
        }

        @Override
        public CoordinatorLog coordinatorLog() {
            return new TransactionCoordinators(adminProperties(cluster));
        }

        @Override
        public void close() {
            cluster.close();
        }
    }

    /** An external cluster, reached through one Admin client with the driver's settings. */
    private static final class External implements ClusterSession {
        private final BrokerPlan plan;
        private final DriverFile driver;
        private final Consumer<String> log;
        private final Admin admin;
        private final int brokers;
        private RunResult.Broker facts;
        private boolean closed;

        private External(BrokerPlan plan, DriverFile driver, Consumer<String> log, Admin admin, int brokers) {
            this.plan = plan;
            this.driver = driver;
            this.log = log;
            this.admin = admin;
            this.brokers = brokers;
        }

        /** Connects and counts the brokers; a cluster that does not answer is {@link ClusterUnreachable}. */
        static External reach(BrokerPlan plan, DriverFile driver, Consumer<String> log) throws InterruptedException {
            Properties props = driver.properties("commonConfig");
            props.setProperty(
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                    Integer.toString(lowest(props, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS)));
            int apiTimeout = lowest(props, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, API_TIMEOUT_MS);
            props.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(apiTimeout));
            String cause;
            Admin admin = null;
            try {
                admin = Admin.create(props);
                int brokers = admin.describeCluster()
                        .nodes()
                        .get(apiTimeout + 5_000L, TimeUnit.MILLISECONDS)
                        .size();
                return new External(plan, driver, log, admin, brokers);
            } catch (ExecutionException e) {
                cause = describe(e.getCause());
            } catch (TimeoutException e) {
                cause = "no answer within " + (apiTimeout + 5_000) / 1000 + " s";
            } catch (KafkaException e) {
                cause = describe(e);
            }
            if (admin != null) {
                admin.close(Duration.ofSeconds(5));
            }
            throw new ClusterUnreachable("cannot reach the cluster at " + plan.bootstrapServers() + " named in "
                    + plan.serversSource() + ": " + cause);
        }

        @Override
        public DriverFile driver() {
            return driver;
        }

        @Override
        public int brokers() {
            return brokers;
        }

        /** The system (kafka or redpanda) and transaction protocol, when the cluster answers (not its version). */
        @Override
        public RunResult.Broker facts() throws InterruptedException {
            if (facts != null) {
                return facts;
            }
            RunResult.Broker broker = RunResult.Broker.external(brokers, plan.bootstrapServers())
                    .withSecurityProtocol(driver.properties("commonConfig")
                            .getProperty("security.protocol", "PLAINTEXT")
                            .trim()
                            .toUpperCase(Locale.ROOT));
            try {
                broker = identified(broker, admin, driver.properties("commonConfig"), log);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                log.accept(String.format(
                        "Could not read back which broker system runs at %s: %s",
                        broker.bootstrapServers(), describe(e)));
            }
            try {
                TransactionProtocol protocol = TransactionProtocol.read(admin, API_TIMEOUT_MS / 1000 + 5);
                facts = broker.withReadBack(null, protocol.transactionVersion(), protocol.description(), null);
            } catch (Exception e) {
                facts = broker.withReadBack(null, null, "not read back: " + describe(e), null);
            }
            close(); // read once: no client of the runner's stays connected during the measurement
            return facts;
        }

        @Override
        public BrokerControl processControl() {
            return null;
        }

        @Override
        public Optional<String> accessRefusal(List<AccessNeed> needs) throws InterruptedException {
            return needs.isEmpty()
                    ? Optional.empty()
                    : AccessList.probe(needs, driver.properties("commonConfig"), API_TIMEOUT_MS / 1000);
        }

        @Override
        public Optional<String> refusalOf(Throwable failure, List<AccessNeed> needs) {
            return AccessList.refusal(failure, needs);
        }

        @Override
        public FaultCluster faultCluster(FaultCluster.RunNames names) {
            return faultTargets(driver, names);
        }

        @Override
        public CoordinatorLog coordinatorLog() {
            return new TransactionCoordinators(driver.properties("commonConfig"));
        }

        @Override
        public RunResult.Conformance probeConformance(Guarantee guarantee, Consumer<String> log) throws Exception {
            return ConformanceProbes.probe(guarantee, driver(), log);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                admin.close(Duration.ofSeconds(5));
            }
        }
    }

    /** The fault injector's own client: short request time-outs, as it may ask a dying broker. */
    private static FaultCluster faultTargets(DriverFile driver, FaultCluster.RunNames names) {
        return faultTargets(driver.properties("commonConfig"), names);
    }

    private static FaultCluster faultTargets(Properties props, FaultCluster.RunNames names) {
        props.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        return new FaultTargets(Admin.create(props), props, names);
    }

    private static int lowest(Properties props, String key, int limit) {
        try {
            return Math.min(limit, Integer.parseInt(props.getProperty(key, "").trim()));
        } catch (NumberFormatException e) {
            return limit;
        }
    }

    /** The innermost message, without exception class names. */
    static String describe(Throwable e) {
        String message = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                message = t.getMessage();
            }
        }
        return message != null ? message : "no answer";
    }
}

package io.ombtx.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Real Apache Kafka brokers running as child processes on loopback, on free ports, with a temporary data folder:
 * KRaft (combined broker and controller) from Kafka 3.3 on, and for older releases (the seeds' 2.7 and 2.8) brokers
 * with a ZooKeeper of their own, itself a child process. Each child watches its standard input and exits when this
 * process goes away, and {@link #close()} (also run by a shutdown hook) stops them and deletes the data.
 * The brokers run with their own class path, not this process's: the built-in release ({@link BrokerClassPath}) or
 * another one resolved from Maven Central on first use ({@link BrokerLibrary}).
 */
public final class EmbeddedKafkaCluster implements AutoCloseable {

    /**
     * The Kafka release omb-tx is built with: its kafka-clients and the built-in broker ({@code broker-lib}), both
     * pinned by one version in the parent pom. The broker a run gets when it names no version.
     */
    public static final String DEFAULT_VERSION = org.apache.kafka.common.utils.AppInfoParser.getVersion();

    /** The most brokers one machine's embedded cluster starts. */
    public static final int MAX_BROKERS = 9;

    private static final String LOOPBACK = LoopbackPorts.LOOPBACK;

    private final int brokerCount;
    private final BrokerProfile profile;
    private final BrokerClassPath classPath;
    private final KafkaVersion version;
    private final Integer transactionVersion;
    private final Map<String, String> settings;
    private final ClusterSecurity.Mode securityMode;
    /** The client listener's security (certificates, principals), null for a PLAINTEXT cluster. */
    private ClusterSecurity security;

    private final List<Path> appInfoFiles = new ArrayList<>();
    private Process zooKeeper;
    private final Path workDir;
    private final boolean keepWorkDir;
    private final List<Process> processes = new ArrayList<>();
    /** How each broker was started, in the order of {@link #processes}: a restart runs the same command again. */
    private final List<BrokerLaunch> launches = new ArrayList<>();

    private final BrokerFaults faults = new BrokerFaults(this);
    private final List<Path> logFiles = new ArrayList<>();
    private final List<Path> configFiles = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::stopQuietly, "embedded-kafka-shutdown");
    private String bootstrapServers;
    private volatile boolean closed;
    /** While the release has no class-data archive: the first broker's class list, made into one at stop. */
    private BrokerClassArchive.Recording recording;
    /** Whether every broker was ready once (only then is the recorded class list worth an archive). */
    private volatile boolean wasReady;
    /** The first child that exited on its own (see {@link #unexpectedExit()}), or null. */
    private volatile UnexpectedExit unexpectedExit;

    /**
     * A child process that exited without being told to: not stopped by {@link #close()}, not killed or stopped
     * through {@link #faults()}. The cluster is then no longer the one the run was planned on.
     *
     * @param process "broker 1", "ZooKeeper"
     * @param at when its exit was noticed (the moment the operating system reported it)
     */
    public record UnexpectedExit(String process, long pid, int exitCode, java.time.Instant at) {

        /** "embedded broker 1 (pid 4242) exited with code 137 at 2026-11-24T13:02:03.123Z". */
        public String describe() {
            return "embedded " + process + " (pid " + pid + ") exited with code " + exitCode
                    + (exitCode == 137 ? " (SIGKILL)" : "") + " at " + at;
        }
    }

    private EmbeddedKafkaCluster(Builder builder, BrokerClassPath classPath) throws IOException {
        this.brokerCount = builder.brokers;
        this.classPath = classPath;
        this.profile = builder.profile;
        this.version = KafkaVersion.parse(classPath.kafkaVersion());
        this.transactionVersion = builder.transactionVersion;
        this.settings = new LinkedHashMap<>(profileSettings(profile, brokerCount, classPath));
        this.settings.putAll(builder.overrides);
        this.workDir = builder.workDir != null ? builder.workDir : Files.createTempDirectory("omb-tx-kafka-");
        this.keepWorkDir = builder.workDir != null;
        this.securityMode = builder.security;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The folder holding every node's configuration, logs and data directory ({@code broker-<id>/data}). */
    public Path workDir() {
        return workDir;
    }

    /** {@code host:port,...} of the brokers' client listeners. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** How clients reach the brokers: PLAINTEXT, SASL_SSL or mutual TLS. */
    public ClusterSecurity.Mode securityMode() {
        return securityMode;
    }

    /** The secured cluster's principals and their client settings; empty for a PLAINTEXT cluster. */
    public java.util.Optional<ClusterSecurity> security() {
        return java.util.Optional.ofNullable(security);
    }

    /**
     * The settings a client of the runner's needs besides {@code bootstrap.servers}: none for a PLAINTEXT cluster,
     * else the super user {@link ClusterSecurity#ADMIN}'s.
     */
    public Map<String, String> adminClientSettings() {
        return security == null ? Map.of() : security.clientSettings(ClusterSecurity.ADMIN);
    }

    /** Every broker setting omb-tx chose (profile and overrides), as recorded in results. */
    public Map<String, String> settings() {
        return Map.copyOf(settings);
    }

    public int brokerCount() {
        return brokerCount;
    }

    public BrokerProfile profile() {
        return profile;
    }

    /**
     * The Kafka version of the broker jars, read from {@code kafka_2.13-<version>.jar}; "unknown" when the broker's
     * class path cannot be found (starting a cluster then says why).
     */
    public static String brokerVersion() {
        try {
            return BrokerClassPath.locate().kafkaVersion();
        } catch (BrokerStartException e) {
            return "unknown";
        }
    }

    /** The class path the brokers run with. */
    public BrokerClassPath classPath() {
        return classPath;
    }

    /** The release started (of its jars; {@link #runningVersion()} is what the brokers report). */
    public KafkaVersion version() {
        return version;
    }

    /** Whether the brokers run with a ZooKeeper (Kafka before 3.3) rather than KRaft. */
    public boolean zooKeeper() {
        return version.zooKeeper();
    }

    /** The transaction.version the storage was formatted with, null when the broker's default was left. */
    public Integer requestedTransactionVersion() {
        return transactionVersion;
    }

    /**
     * The version the first broker reports about itself (its {@code kafka.server:type=app-info} MBean's
     * {@code Version}, written by {@link ChildKafkaMain} once the broker registered it).
     */
    public String runningVersion() throws BrokerStartException {
        Path file = appInfoFiles.get(0);
        Properties info = new Properties();
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            info.load(in);
        } catch (IOException e) {
            throw new BrokerStartException("broker 1 has not reported its version (" + file + "): " + e.getMessage());
        }
        return info.getProperty("version");
    }

    /** The transaction protocol in force, read back from the brokers (Admin describeFeatures). */
    public TransactionProtocol transactionProtocol() throws Exception {
        try (Admin admin = Admin.create(adminProperties())) {
            return TransactionProtocol.read(admin, 30);
        }
    }

    /**
     * The profile's settings that this release defines: {@code group.coordinator.append.linger.ms}, say, does not
     * exist before Kafka 4, and a setting a broker does not know would be recorded but have no effect. When the
     * release's definitions cannot be read, every setting is kept (the broker ignores unknown ones).
     */
    static Map<String, String> profileSettings(BrokerProfile profile, int brokers, BrokerClassPath classPath) {
        Map<String, String> settings = new LinkedHashMap<>(profile.settings(brokers));
        BrokerConfigDefinitions.of(classPath)
                .ifPresent(definitions -> settings.keySet().removeIf(key -> !definitions.knows(key)));
        return settings;
    }

    /** What a broker's log says when a port it was given is bound by someone else. */
    static final String PORT_TAKEN = "java.net.BindException: Address already in use";

    /** Starts on fresh ports after a port was taken ({@link #PORT_TAKEN}), this many times in all. */
    static final int PORT_ATTEMPTS = 3;

    private EmbeddedKafkaCluster start(Duration timeout) throws BrokerStartException {
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            if (version.zooKeeper()) {
                startWithZooKeeper();
            } else {
                startKRaft();
            }
            awaitReady(timeout);
            wasReady = true;
            return this;
        } catch (IOException e) {
            stopQuietly();
            throw new BrokerStartException(
                    "could not start the embedded Kafka " + version + " broker: " + e.getMessage(), e);
        } catch (BrokerStartException e) {
            stopQuietly();
            throw e;
        }
    }

    private void startKRaft() throws IOException, BrokerStartException {
        // All 2 × N ports are taken while the others are still held, so no two are the same: the kernel may hand
        // a port just released straight back to the next bind (seen in CI: listener and controller on one port).
        int[] taken = LoopbackPorts.freePorts(2 * brokerCount);
        List<int[]> ports = new ArrayList<>();
        for (int i = 0; i < brokerCount; i++) {
            ports.add(new int[] {taken[2 * i], taken[2 * i + 1]});
        }
        String voters = "";
        List<String> clientListeners = new ArrayList<>();
        for (int i = 0; i < brokerCount; i++) {
            voters += (i == 0 ? "" : ",") + (i + 1) + "@" + LOOPBACK + ":" + ports.get(i)[1];
            clientListeners.add(LOOPBACK + ":" + ports.get(i)[0]);
        }
        bootstrapServers = String.join(",", clientListeners);
        String clusterId = BrokerStorage.randomClusterId();
        if (securityMode != ClusterSecurity.Mode.NONE) {
            security = ClusterSecurity.create(securityMode, workDir.resolve("security"));
        }
        String listener = clientListener();
        List<Path> configs = new ArrayList<>();
        for (int i = 0; i < brokerCount; i++) {
            Properties props = new Properties();
            props.setProperty("process.roles", "broker,controller");
            props.setProperty("node.id", Integer.toString(i + 1));
            props.setProperty("controller.quorum.voters", voters);
            props.setProperty(
                    "listeners",
                    listener + "://" + LOOPBACK + ":" + ports.get(i)[0] + ",CONTROLLER://" + LOOPBACK + ":"
                            + ports.get(i)[1]);
            props.setProperty("controller.listener.names", "CONTROLLER");
            props.setProperty(
                    "listener.security.protocol.map",
                    listener + ":" + securityMode.protocol() + ",CONTROLLER:PLAINTEXT");
            props.setProperty("inter.broker.listener.name", listener);
            if (security != null) {
                security.brokerSettings().forEach(props::setProperty);
            }
            configs.add(writeBrokerConfig(i + 1, ports.get(i)[0], props));
        }
        List<String> credentials = security == null ? List.of() : security.scramFormatArguments();
        for (Path config : configs) {
            BrokerStorage.format(classPath, config, clusterId, transactionVersion, credentials);
        }
        for (int i = 0; i < brokerCount; i++) {
            launch(i + 1, configs.get(i));
        }
    }

    /** Kafka before 3.3: a ZooKeeper child first (ZooKeeper comes with the release's jars), then the brokers. */
    private void startWithZooKeeper() throws IOException, BrokerStartException {
        Path zkDir = Files.createDirectories(workDir.resolve("zookeeper"));
        int zkPort = LoopbackPorts.freePorts(1)[0];
        ChildFiles.writeLogConfig(zkDir, zkDir.resolve("zookeeper.log"));
        // ZooKeeperServerMain PORT DATADIR; its admin HTTP server (port 8080 by default) is switched off.
        zooKeeper = new ProcessBuilder(ChildJvm.command(
                        classPath,
                        zkDir,
                        List.of("-Dzookeeper.admin.enableServer=false"),
                        List.of(
                                ChildKafkaMain.class.getName(),
                                "--main",
                                "org.apache.zookeeper.server.ZooKeeperServerMain",
                                Integer.toString(zkPort),
                                zkDir.resolve("data").toString())))
                .redirectErrorStream(true)
                .redirectOutput(zkDir.resolve("stdout.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        watch("ZooKeeper", zooKeeper);
        awaitPort(zkPort, Duration.ofSeconds(60), zkDir.resolve("zookeeper.log"));
        List<String> clientListeners = new ArrayList<>();
        List<Path> configs = new ArrayList<>();
        int[] brokerPorts = LoopbackPorts.freePorts(brokerCount, zkPort);
        for (int i = 0; i < brokerCount; i++) {
            int port = brokerPorts[i];
            clientListeners.add(LOOPBACK + ":" + port);
            Properties props = new Properties();
            props.setProperty("broker.id", Integer.toString(i + 1));
            props.setProperty("zookeeper.connect", LOOPBACK + ":" + zkPort);
            props.setProperty("listeners", "PLAINTEXT://" + LOOPBACK + ":" + port);
            configs.add(writeBrokerConfig(i + 1, port, props));
        }
        bootstrapServers = String.join(",", clientListeners);
        for (int i = 0; i < brokerCount; i++) {
            launch(i + 1, configs.get(i));
        }
    }

    private void awaitPort(int port, Duration timeout, Path log) throws BrokerStartException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (LoopbackPorts.listening(port)) {
                return;
            }
            if (!zooKeeper.isAlive() || System.nanoTime() > deadline) {
                throw new BrokerStartException("the embedded ZooKeeper for Kafka " + version + " did not start"
                        + (zooKeeper.isAlive()
                                ? " within " + timeout.toSeconds() + " s"
                                : " (exit code " + zooKeeper.exitValue() + ")")
                        + "; its log ends with:\n" + ChildFiles.tail(log, 30)
                        + ChildFiles.tail(log.resolveSibling("stdout.log"), 30));
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BrokerStartException("interrupted while waiting for the embedded ZooKeeper");
            }
        }
    }

    /** The client listener's name: PLAINTEXT, or {@link ClusterSecurity#LISTENER} when secured. */
    private String clientListener() {
        return security == null ? "PLAINTEXT" : ClusterSecurity.LISTENER;
    }

    /** Writes a broker's server.properties: {@code props} (listeners, roles), log folder, then every setting. */
    private Path writeBrokerConfig(int nodeId, int clientPort, Properties props) throws IOException {
        Path nodeDir = Files.createDirectories(workDir.resolve("broker-" + nodeId));
        props.setProperty("advertised.listeners", clientListener() + "://" + LOOPBACK + ":" + clientPort);
        props.setProperty("log.dirs", nodeDir.resolve("data").toString());
        settings.forEach(props::setProperty);
        Path config = ChildFiles.ownerOnly(nodeDir.resolve("server.properties"));
        configFiles.add(config);
        try (var out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            props.store(
                    out, "omb-tx embedded Kafka " + version + " broker " + nodeId + " (" + profile.displayName() + ")");
        }
        ChildFiles.writeLogConfig(nodeDir, nodeDir.resolve("server.log"));
        logFiles.add(nodeDir.resolve("server.log"));
        return config;
    }

    /**
     * Copies the brokers' logs ({@code server.log}, and {@code stdout.log} when not empty) into {@code dir} as
     * {@code broker-<node>.log} and {@code broker-<node>.stdout.log}, for a run to keep them past the cluster's
     * close (which deletes its work folder). Returns the files written.
     */
    public List<Path> copyLogs(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> copied = new ArrayList<>();
        for (int i = 0; i < logFiles.size(); i++) {
            Path log = logFiles.get(i);
            String node = log.getParent().getFileName().toString(); // broker-<node id>
            if (Files.exists(log)) {
                copied.add(Files.copy(log, dir.resolve(node + ".log"), StandardCopyOption.REPLACE_EXISTING));
            }
            Path stdout = log.resolveSibling("stdout.log");
            if (Files.exists(stdout) && Files.size(stdout) > 0) {
                copied.add(Files.copy(stdout, dir.resolve(node + ".stdout.log"), StandardCopyOption.REPLACE_EXISTING));
            }
        }
        return copied;
    }

    /**
     * The first child (broker or ZooKeeper) that exited on its own since it was started, noticed as it happened
     * ({@link Process#onExit()}), or empty while every child runs or was stopped on purpose.
     */
    public java.util.Optional<UnexpectedExit> unexpectedExit() {
        return java.util.Optional.ofNullable(unexpectedExit);
    }

    /** Notes {@code process}'s exit when nobody asked for it: not closing, not a fault through {@link #faults()}. */
    private void watch(String name, Process process) {
        process.onExit().thenAccept(exited -> {
            if (closed || faults.exitExpected(exited)) {
                return;
            }
            synchronized (this) {
                if (unexpectedExit == null && !closed) {
                    unexpectedExit = new UnexpectedExit(
                            name,
                            exited.pid(),
                            exited.exitValue(),
                            java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
                }
            }
        });
    }

    private void launch(int nodeId, Path config) throws IOException {
        Path nodeDir = config.getParent();
        Path appInfo = nodeDir.resolve("app-info.properties");
        appInfoFiles.add(appInfo);
        List<String> recordFlags = List.of();
        if (launches.isEmpty()) {
            recording = BrokerClassArchive.of(classPath)
                    .flatMap(BrokerClassArchive::record)
                    .orElse(null);
            if (recording != null) {
                recordFlags = recording.flags();
            }
        }
        List<String> command = ChildJvm.command(
                classPath,
                nodeDir,
                recordFlags,
                List.of(ChildKafkaMain.class.getName(), "--app-info", appInfo.toString(), config.toString()));
        BrokerLaunch launch = new BrokerLaunch(nodeId, command, nodeDir.resolve("stdout.log"));
        launches.add(launch);
        Process process = launch.start(false);
        processes.add(process);
        watch("broker " + nodeId, process);
    }

    private void awaitReady(Duration timeout) throws BrokerStartException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(adminProperties())) {
            while (true) {
                for (int i = 0; i < processes.size(); i++) {
                    if (!processes.get(i).isAlive()) {
                        throw new BrokerStartException(
                                "embedded broker " + (i + 1) + " exited with code "
                                        + processes.get(i).exitValue() + " while starting; its log ends with:\n"
                                        + ChildFiles.tail(logFiles.get(i), 30)
                                        + ChildFiles.tail(logFiles.get(i).resolveSibling("stdout.log"), 30),
                                ChildFiles.contains(logFiles.get(i), PORT_TAKEN));
                    }
                }
                try {
                    int live = admin.describeCluster()
                            .nodes()
                            .get(3, TimeUnit.SECONDS)
                            .size();
                    if (live == brokerCount && appInfoFiles.stream().allMatch(Files::exists)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    admin.close(Duration.ZERO); // not waiting out the pending request
                    throw e;
                } catch (Exception notYet) {
                    // Not listening yet, or not all brokers registered: try again until the deadline.
                }
                if (System.nanoTime() > deadline) {
                    List<Path> silent =
                            appInfoFiles.stream().filter(f -> !Files.exists(f)).toList();
                    throw new BrokerStartException("embedded Kafka " + version + " was not ready within "
                            + timeout.toSeconds()
                            + " s (" + brokerCount + " broker(s) at " + bootstrapServers + ")"
                            + (silent.isEmpty()
                                    ? ""
                                    : "; no app-info (version) report in " + silent + ", see stdout.log beside it")
                            + "; first broker log ends with:\n"
                            + ChildFiles.tail(logFiles.get(0), 30));
                }
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while waiting for the embedded broker");
        }
    }

    private Properties adminProperties() {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        props.putAll(adminClientSettings());
        return props;
    }

    /** The process id of the ZooKeeper the brokers use (Kafka before 3.3), empty in KRaft mode. */
    public java.util.Optional<Long> zooKeeperPid() {
        return java.util.Optional.ofNullable(zooKeeper).map(Process::pid);
    }

    /** Process ids of the broker processes (for status displays). */
    public synchronized List<Long> pids() {
        return processes.stream().map(Process::pid).toList();
    }

    // Faults (kill, pause, stop, restart of one broker) are BrokerFaults'; these are the only ways it reaches in.

    /** Kills, pauses, stops and restarts single brokers of this cluster (fault injection). */
    public BrokerFaults faults() {
        return faults;
    }

    /** The broker process at {@code index} (0-based, in start order) as it runs now. */
    synchronized Process process(int index) {
        checkIndex(index);
        return processes.get(index);
    }

    /** How the broker at {@code index} was started. */
    synchronized BrokerLaunch launch(int index) {
        checkIndex(index);
        return launches.get(index);
    }

    /** Starts the broker at {@code index} again with its original command (same ports, same data); false once closed. */
    synchronized boolean relaunch(int index) throws IOException {
        checkIndex(index);
        if (closed) {
            return false;
        }
        Process process = launches.get(index).start(true);
        processes.set(index, process);
        watch("broker " + launches.get(index).nodeId(), process);
        return true;
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= processes.size()) {
            throw new IllegalArgumentException("broker index " + index + " is not in 0.." + (processes.size() - 1));
        }
    }

    @Override
    public void close() {
        stopQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // Already running the hook.
        }
    }

    private synchronized void stopQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        faults.resumePaused(); // a stopped (SIGSTOP) broker would not read the end of its input
        if (!keepWorkDir) {
            // Their data is deleted next, so a clean shutdown would buy nothing, and it is slow: brokers of a KRaft
            // cluster stopping together each wait for a controller quorum that is going too, until they halt
            // (ChildKafkaMain, 5 s; a quick 3-broker run spent 5.5 of its 38 s there), and one whose peer is gone
            // waits for it as well. They are killed at once, ZooKeeper with them.
            List<Process> all = new ArrayList<>(processes);
            if (zooKeeper != null) {
                all.add(zooKeeper);
            }
            ChildJvm.kill(all);
        } else {
            ChildJvm.stop(processes);
            // ZooKeeper last: a broker's clean shutdown still talks to it.
            if (zooKeeper != null) {
                ChildJvm.stop(List.of(zooKeeper));
            }
        }
        if (recording != null) {
            if (wasReady) {
                recording.dump();
            } else {
                recording.release();
            }
            recording = null;
        }
        if (!keepWorkDir) {
            ChildFiles.deleteRecursively(workDir);
        }
        // Even in a kept folder: the settings may hold secrets, and the result records them (redacted).
        for (Path config : configFiles) {
            try {
                Files.deleteIfExists(config);
            } catch (IOException ignored) {
                // Owner-only, and in the broker's own temporary folder.
            }
        }
    }

    /** Configures and starts a cluster. */
    public static final class Builder {
        private int brokers = 1;
        private BrokerProfile profile = BrokerProfile.DEFAULT;
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private Path workDir;
        private Duration startTimeout = Duration.ofSeconds(90);
        private String version;
        private Integer transactionVersion;
        private ClusterSecurity.Mode security = ClusterSecurity.Mode.NONE;

        /**
         * How clients reach the brokers (default {@link ClusterSecurity.Mode#NONE}, PLAINTEXT): a secured cluster
         * ({@link ClusterSecurity}) needs a KRaft release from {@link KafkaVersion#FIRST_SECURED} on.
         */
        public Builder security(ClusterSecurity.Mode mode) {
            this.security = mode == null ? ClusterSecurity.Mode.NONE : mode;
            return this;
        }

        /**
         * The Kafka release to run (null: the built-in {@link EmbeddedKafkaCluster#DEFAULT_VERSION}); one other than
         * the built-in is resolved from Maven Central on first use ({@link BrokerLibrary}).
         *
         * @throws IllegalArgumentException for text that is not a supported release
         */
        public Builder version(String version) {
            this.version = version == null ? null : KafkaVersion.parse(version).toString();
            return this;
        }

        /**
         * KIP-890's transaction.version to format the storage with (null: the broker's default). Kafka 4.x only.
         *
         * @throws IllegalArgumentException when {@link #version} is set to a release without the feature, or the
         *         level is out of range
         */
        public Builder transactionVersion(Integer level) {
            this.transactionVersion = level;
            return this;
        }

        public Builder brokers(int count) {
            if (count < 1 || count > MAX_BROKERS) {
                throw new IllegalArgumentException(
                        "embedded broker count must be 1.." + MAX_BROKERS + ", got " + count);
            }
            this.brokers = count;
            return this;
        }

        public Builder profile(BrokerProfile profile) {
            this.profile = profile;
            return this;
        }

        public Builder override(String key, String value) {
            overrides.put(key, value);
            return this;
        }

        public Builder overrides(Map<String, String> settings) {
            overrides.putAll(settings);
            return this;
        }

        /** Keep data and logs in this folder (not deleted on close; the brokers' server.properties are). */
        public Builder workDir(Path dir) {
            this.workDir = dir;
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /** Starts the brokers and waits until all are serving, or throws saying why not. */
        public EmbeddedKafkaCluster start() throws BrokerStartException {
            BrokerClassPath classPath =
                    version == null ? BrokerClassPath.locate() : BrokerLibrary.classPath(KafkaVersion.parse(version));
            if (transactionVersion != null) {
                String problem =
                        KafkaVersion.parse(classPath.kafkaVersion()).transactionVersionProblem(transactionVersion);
                if (problem != null) {
                    throw new IllegalArgumentException(problem);
                }
            }
            String securityProblem =
                    KafkaVersion.parse(classPath.kafkaVersion()).securityProblem(security);
            if (securityProblem != null) {
                throw new IllegalArgumentException(securityProblem);
            }
            for (int attempt = 1; ; attempt++) {
                try {
                    return new EmbeddedKafkaCluster(this, classPath).start(startTimeout);
                } catch (IOException e) {
                    throw new BrokerStartException(
                            "could not prepare the embedded broker folder: " + e.getMessage(), e);
                } catch (BrokerStartException e) {
                    // The ports are chosen free, then released for the brokers to bind: another process (a client's
                    // connection, another cluster starting) may take one in between. Seen with four test JVMs
                    // starting brokers side by side. New ports, a new cluster.
                    if (!e.portTaken() || attempt == PORT_ATTEMPTS) {
                        throw e;
                    }
                }
            }
        }
    }
}

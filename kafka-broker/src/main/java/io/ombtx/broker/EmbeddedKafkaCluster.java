package io.ombtx.broker;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Real Apache Kafka brokers (KRaft, combined broker and controller) running as child processes on loopback,
 * on free ports, with a temporary data folder. Each broker watches its standard input and exits when this
 * process goes away, and {@link #close()} (also run by a shutdown hook) stops them and deletes the data.
 * The brokers run with their own class path, found by {@link BrokerClassPath}, not this process's.
 */
public final class EmbeddedKafkaCluster implements AutoCloseable {

    /** The most brokers one machine's embedded cluster starts. */
    public static final int MAX_BROKERS = 9;
    private static final String LOOPBACK = "127.0.0.1";

    private final int brokerCount;
    private final BrokerProfile profile;
    private final BrokerClassPath classPath;
    private final Map<String, String> settings;
    private final Path workDir;
    private final boolean keepWorkDir;
    private final List<Process> processes = new ArrayList<>();
    /** How each broker was started, in the order of {@link #processes}: a restart runs the same command again. */
    private final List<BrokerLaunch> launches = new ArrayList<>();
    private final BrokerFaults faults = new BrokerFaults(this);
    private final List<Path> logFiles = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::stopQuietly, "embedded-kafka-shutdown");
    private String bootstrapServers;
    private volatile boolean closed;

    private EmbeddedKafkaCluster(Builder builder, BrokerClassPath classPath) throws IOException {
        this.brokerCount = builder.brokers;
        this.classPath = classPath;
        this.profile = builder.profile;
        this.settings = new LinkedHashMap<>(profile.settings(brokerCount));
        this.settings.putAll(builder.overrides);
        this.workDir = builder.workDir != null ? builder.workDir : Files.createTempDirectory("omb-tx-kafka-");
        this.keepWorkDir = builder.workDir != null;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** {@code host:port,...} of the brokers' client listeners. */
    public String bootstrapServers() {
        return bootstrapServers;
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

    private EmbeddedKafkaCluster start(Duration timeout) throws BrokerStartException {
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            List<int[]> ports = new ArrayList<>();
            for (int i = 0; i < brokerCount; i++) {
                ports.add(new int[] {freePort(), freePort()});
            }
            String voters = "";
            List<String> clientListeners = new ArrayList<>();
            for (int i = 0; i < brokerCount; i++) {
                voters += (i == 0 ? "" : ",") + (i + 1) + "@" + LOOPBACK + ":" + ports.get(i)[1];
                clientListeners.add(LOOPBACK + ":" + ports.get(i)[0]);
            }
            bootstrapServers = String.join(",", clientListeners);
            String clusterId = randomClusterId();
            List<Path> configs = new ArrayList<>();
            for (int i = 0; i < brokerCount; i++) {
                configs.add(writeBrokerConfig(i + 1, ports.get(i)[0], ports.get(i)[1], voters));
            }
            for (Path config : configs) {
                format(config, clusterId);
            }
            for (int i = 0; i < brokerCount; i++) {
                launch(i + 1, configs.get(i));
            }
            awaitReady(timeout);
            return this;
        } catch (IOException e) {
            stopQuietly();
            throw new BrokerStartException("could not start the embedded Kafka broker: " + e.getMessage(), e);
        } catch (BrokerStartException e) {
            stopQuietly();
            throw e;
        }
    }

    private Path writeBrokerConfig(int nodeId, int clientPort, int controllerPort, String voters) throws IOException {
        Path nodeDir = Files.createDirectories(workDir.resolve("broker-" + nodeId));
        Properties props = new Properties();
        props.setProperty("process.roles", "broker,controller");
        props.setProperty("node.id", Integer.toString(nodeId));
        props.setProperty("controller.quorum.voters", voters);
        props.setProperty("listeners", "PLAINTEXT://" + LOOPBACK + ":" + clientPort + ",CONTROLLER://" + LOOPBACK + ":" + controllerPort);
        props.setProperty("advertised.listeners", "PLAINTEXT://" + LOOPBACK + ":" + clientPort);
        props.setProperty("controller.listener.names", "CONTROLLER");
        props.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.setProperty("inter.broker.listener.name", "PLAINTEXT");
        props.setProperty("log.dirs", nodeDir.resolve("data").toString());
        settings.forEach(props::setProperty);
        Path config = nodeDir.resolve("server.properties");
        try (var out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            props.store(out, "omb-tx embedded broker " + nodeId + " (" + profile.displayName() + ")");
        }
        Path log4j = nodeDir.resolve("log4j2.properties");
        Files.writeString(log4j, String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.file.ref = FILE",
                "appender.file.type = File",
                "appender.file.name = FILE",
                "appender.file.fileName = " + nodeDir.resolve("server.log"),
                "appender.file.layout.type = PatternLayout",
                "appender.file.layout.pattern = [%d] %p %m (%c)%n",
                "logger.kafkaRequest.name = kafka.request.logger",
                "logger.kafkaRequest.level = WARN",
                ""));
        logFiles.add(nodeDir.resolve("server.log"));
        return config;
    }

    private void format(Path config, String clusterId) throws IOException, BrokerStartException {
        Path out = config.resolveSibling("format.log");
        Process format = new ProcessBuilder(javaCommand(config.getParent(), List.of(
                "kafka.tools.StorageTool", "format", "-t", clusterId, "-c", config.toString())))
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new BrokerStartException("formatting the broker storage failed:\n" + tail(out, 20));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while formatting broker storage");
        }
    }

    private void launch(int nodeId, Path config) throws IOException {
        Path nodeDir = config.getParent();
        List<String> command = javaCommand(nodeDir, List.of("io.ombtx.broker.ChildKafkaMain", config.toString()));
        BrokerLaunch launch = new BrokerLaunch(nodeId, command, nodeDir.resolve("stdout.log"));
        launches.add(launch);
        processes.add(launch.start(false));
    }

    private List<String> javaCommand(Path nodeDir, List<String> mainAndArgs) {
        List<String> command = new ArrayList<>();
        // In a session of its own, a broker does not get the terminal's Ctrl-C: the runner handles that and
        // stops the brokers itself after writing its partial result. (They still stop when the runner dies.)
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            command.add("/usr/bin/setsid");
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms256m");
        command.add("-Xmx1g");
        command.add("-XX:+UseG1GC");
        command.add("-XX:MaxGCPauseMillis=20");
        command.add("-Djava.awt.headless=true");
        command.add("-Dlog4j2.configurationFile=" + nodeDir.resolve("log4j2.properties"));
        command.add("-cp");
        command.add(classPath.classPath());
        command.addAll(mainAndArgs);
        return command;
    }

    private void awaitReady(Duration timeout) throws BrokerStartException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        try (Admin admin = Admin.create(props)) {
            while (true) {
                for (int i = 0; i < processes.size(); i++) {
                    if (!processes.get(i).isAlive()) {
                        throw new BrokerStartException("embedded broker " + (i + 1) + " exited with code "
                                + processes.get(i).exitValue() + " while starting; its log ends with:\n"
                                + tail(logFiles.get(i), 30) + tail(logFiles.get(i).resolveSibling("stdout.log"), 30));
                    }
                }
                try {
                    int live = admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).size();
                    if (live == brokerCount) {
                        return;
                    }
                } catch (Exception notYet) {
                    // Not listening yet, or not all brokers registered: try again until the deadline.
                }
                if (System.nanoTime() > deadline) {
                    throw new BrokerStartException("embedded Kafka was not ready within " + timeout.toSeconds()
                            + " s (" + brokerCount + " broker(s) at " + bootstrapServers + "); first broker log ends with:\n"
                            + tail(logFiles.get(0), 30));
                }
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while waiting for the embedded broker");
        }
    }

    /**
     * Kafka's cluster id is a URL-safe base64 of 16 random bytes, without padding. One starting with '-' would be
     * read as an option by the storage tool's command line (Kafka's own generator avoids them too).
     */
    static String randomClusterId() {
        while (true) {
            UUID uuid = UUID.randomUUID();
            java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(16);
            bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
            String id = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
            if (!id.startsWith("-")) {
                return id;
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    private static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return all.subList(Math.max(0, all.size() - lines), all.size()).stream()
                    .collect(Collectors.joining("\n", "", "\n"));
        } catch (IOException e) {
            return "";
        }
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
        processes.set(index, launches.get(index).start(true));
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
        for (Process process : processes) {
            try {
                process.getOutputStream().close(); // ChildKafkaMain exits on end of input
            } catch (IOException ignored) {
                // Broken pipe: it is already going.
            }
        }
        for (Process process : processes) {
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (!keepWorkDir) {
            deleteRecursively(workDir);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // Best effort: a temp folder left behind is harmless.
        }
    }

    /** Configures and starts a cluster. */
    public static final class Builder {
        private int brokers = 1;
        private BrokerProfile profile = BrokerProfile.DEFAULT;
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private Path workDir;
        private Duration startTimeout = Duration.ofSeconds(90);

        public Builder brokers(int count) {
            if (count < 1 || count > MAX_BROKERS) {
                throw new IllegalArgumentException("embedded broker count must be 1.." + MAX_BROKERS + ", got " + count);
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

        /** Keep data and logs in this folder (not deleted on close). */
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
            BrokerClassPath classPath = BrokerClassPath.locate();
            try {
                return new EmbeddedKafkaCluster(this, classPath).start(startTimeout);
            } catch (IOException e) {
                throw new BrokerStartException("could not prepare the embedded broker folder: " + e.getMessage(), e);
            }
        }
    }
}

package io.ombtx.runner.kafka;

import io.ombtx.broker.BrokerProfile;
import io.ombtx.broker.BrokerStartException;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.KafkaVersion;
import io.ombtx.broker.TransactionProtocol;
import io.ombtx.broker.tansu.EmbeddedTansu;
import io.ombtx.broker.tansu.TansuBinary;
import io.ombtx.runner.Main;
import io.ombtx.runner.cli.BrokerOptions;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.config.EmbeddedSystem;
import io.ombtx.runner.config.Secrets;
import io.ombtx.runner.result.ResultWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The foreground half of {@code bin/kafka-local}: starts the embedded Kafka cluster, writes its state file
 * (bootstrap servers, settings, pid) and keeps it running until this process is told to stop.
 */
public final class KafkaLocalMain {

    /** The options of {@code bin/kafka-local start}, which passes --state itself. */
    @Command(
            name = "bin/kafka-local start",
            description =
                    "Starts real Apache Kafka (from Maven Central: KRaft, or ZooKeeper for releases before 3.3) on"
                            + " loopback on free ports, writes the"
                            + " state file (bootstrap servers, settings, pids) and keeps the brokers running until stopped"
                            + " (bin/kafka-local stop).",
            footer = {
                "Exit codes: 1 the brokers did not start; 2 bad input; otherwise it runs until stopped.",
                "",
                "Example:",
                "  bin/kafka-local start --brokers 3 --broker-config group.coordinator.append.linger.ms=0",
                "  bin/kafka-local start --broker-version 2.8.2",
                "  bin/kafka-local start --transaction-version 1",
                "  bin/kafka-local start --broker-system tansu"
            })
    static final class Options {
        // Hidden: the script always passes it ($OMBTX_STATE_DIR/kafka-local.json) and waits for that file.
        @Option(names = "--state", paramLabel = "FILE", hidden = true, description = "where to write the state")
        @Cli.Required("--state FILE is required")
        Path state;

        @Mixin
        BrokerOptions broker = new BrokerOptions();
    }

    private KafkaLocalMain() {}

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, KafkaLocalMain::start);
    }

    /** Runs until the JVM is told to stop; returns 1 when the brokers do not start. */
    private static int start(Options options) throws Exception {
        if (options.broker.system() == EmbeddedSystem.TANSU) {
            return startTansu(options);
        }
        EmbeddedKafkaCluster.Builder builder = EmbeddedKafkaCluster.builder();
        if (options.broker.brokers() != null) {
            builder.brokers(options.broker.brokers());
        }
        if (options.broker.profile() != null) {
            builder.profile(BrokerProfile.valueOf(options.broker.profile().name()));
        }
        options.broker.settings().forEach(builder::override);
        builder.version(options.broker.brokerVersion());
        if (options.broker.transactionVersion() != null) {
            KafkaVersion version = KafkaVersion.parse(
                    options.broker.brokerVersion() != null
                            ? options.broker.brokerVersion()
                            : EmbeddedKafkaCluster.DEFAULT_VERSION);
            String problem = version.transactionVersionProblem(options.broker.transactionVersion());
            if (problem != null) {
                System.err.println(
                        "error: --transaction-version " + options.broker.transactionVersion() + ": " + problem);
                return Main.BAD_INPUT;
            }
            builder.transactionVersion(options.broker.transactionVersion());
        }
        Path stateFile = options.state;
        EmbeddedKafkaCluster cluster;
        try {
            cluster = builder.start();
        } catch (BrokerStartException e) {
            System.err.println("error: " + e.getMessage());
            return Main.FAILED;
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("pid", ProcessHandle.current().pid());
        state.put("system", EmbeddedSystem.KAFKA.key());
        state.put("bootstrapServers", cluster.bootstrapServers());
        state.put("brokers", cluster.brokerCount());
        TransactionProtocol protocol;
        String version;
        try {
            version = cluster.runningVersion();
            protocol = cluster.transactionProtocol();
        } catch (Exception e) {
            cluster.close();
            System.err.println("error: the brokers started but did not answer what they run: " + e.getMessage());
            return Main.FAILED;
        }
        state.put("version", version);
        state.put("coordination", cluster.zooKeeper() ? "zookeeper" : "kraft");
        state.put("transactionVersion", protocol.transactionVersion());
        state.put("transactionProtocol", protocol.description());
        state.put("profile", cluster.profile().displayName());
        state.put("settings", Secrets.redacted(cluster.settings()));
        state.put("brokerPids", cluster.pids());
        cluster.zooKeeperPid().ifPresent(pid -> state.put("zooKeeperPid", pid));
        writeState(stateFile, state);
        System.out.println("embedded Kafka " + version + " ready at " + cluster.bootstrapServers());
        return runUntilStopped(stateFile, cluster::close);
    }

    /** What --broker-system tansu cannot be given with, or null. */
    static String tansuProblem(BrokerOptions b) {
        String problem = null;
        if (b.brokers() != null && b.brokers() > 1) {
            problem = "--brokers " + b.brokers() + ": the embedded Tansu runs as one broker";
        } else if (b.profile() != null && b.profile() != io.ombtx.runner.config.ClusterProfile.DEFAULT) {
            problem = "--broker-profile " + b.profile().displayName() + ": the embedded Tansu has no settings profiles";
        } else if (!b.settings().isEmpty()) {
            problem = "--broker-config " + b.settings().keySet().iterator().next()
                    + ": the embedded Tansu takes no Kafka broker settings";
        } else if (b.brokerVersion() != null) {
            problem = "--broker-version " + b.brokerVersion() + ": the embedded Tansu is release " + TansuBinary.VERSION
                    + " only; --broker-version chooses a Kafka release";
        } else if (b.transactionVersion() != null) {
            problem = "--transaction-version " + b.transactionVersion()
                    + ": the embedded Tansu has no transaction.version feature";
        }
        return problem;
    }

    /**
     * One Tansu broker instead ({@code --broker-system tansu}): it has none of the Kafka options but none of them is
     * asked for (exit 2, naming the option, otherwise).
     */
    private static int startTansu(Options options) throws Exception {
        String problem = tansuProblem(options.broker);
        if (problem != null) {
            System.err.println("error: " + problem);
            return Main.BAD_INPUT;
        }
        EmbeddedTansu tansu;
        try {
            tansu = EmbeddedTansu.start(System.out::println);
        } catch (BrokerStartException e) {
            System.err.println("error: " + e.getMessage());
            return Main.FAILED;
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("pid", ProcessHandle.current().pid());
        state.put("system", EmbeddedSystem.TANSU.key());
        state.put("bootstrapServers", tansu.bootstrapServers());
        state.put("brokers", 1);
        state.put("version", tansu.version());
        state.put("settings", tansu.settings());
        state.put("brokerPids", java.util.List.of(tansu.pid()));
        writeState(options.state, state);
        System.out.println("embedded Tansu " + tansu.version() + " ready at " + tansu.bootstrapServers());
        return runUntilStopped(options.state, tansu::close);
    }

    private static void writeState(Path stateFile, Map<String, Object> state) throws java.io.IOException {
        Path temp = stateFile.resolveSibling(stateFile.getFileName() + ".tmp");
        Files.createDirectories(stateFile.toAbsolutePath().getParent());
        Files.write(temp, ResultWriter.json().writeValueAsBytes(state));
        Files.move(temp, stateFile, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Waits until this JVM is told to stop, then stops the brokers and deletes the state file. */
    private static int runUntilStopped(Path stateFile, Runnable stopBrokers) throws InterruptedException {
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopBrokers.run();
            stateFile.toFile().delete();
            stop.countDown();
        }));
        stop.await();
        return Main.OK;
    }
}

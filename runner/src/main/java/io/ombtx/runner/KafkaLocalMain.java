package io.ombtx.runner;

import io.ombtx.broker.BrokerProfile;
import io.ombtx.broker.BrokerStartException;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.result.ResultWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The foreground half of {@code bin/kafka-local}: starts the embedded Kafka cluster, writes its state file
 * (bootstrap servers, settings, pid) and keeps it running until this process is told to stop.
 */
public final class KafkaLocalMain {

    private KafkaLocalMain() {
    }

    public static void main(String[] args) throws Exception {
        EmbeddedKafkaCluster.Builder builder = EmbeddedKafkaCluster.builder();
        Path stateFile = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--state" -> stateFile = Path.of(args[++i]);
                    case "--brokers" -> builder.brokers(Integer.parseInt(args[++i]));
                    case "--broker-profile" -> builder.profile(BrokerProfile.parse(args[++i]));
                    case "--broker-config" -> {
                        String setting = args[++i];
                        int eq = setting.indexOf('=');
                        if (eq <= 0) {
                            throw new IllegalArgumentException("--broker-config expects KEY=VALUE, got '" + setting + "'");
                        }
                        builder.override(setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i] + " (see bin/kafka-local --help)");
                }
            }
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            System.err.println("error: " + (e instanceof ArrayIndexOutOfBoundsException ? "an option needs a value" : e.getMessage()));
            System.exit(Main.BAD_INPUT);
        }
        if (stateFile == null) {
            System.err.println("error: --state FILE is required");
            System.exit(Main.BAD_INPUT);
        }
        EmbeddedKafkaCluster cluster;
        try {
            cluster = builder.start();
        } catch (BrokerStartException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(Main.FAILED);
            return;
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("pid", ProcessHandle.current().pid());
        state.put("bootstrapServers", cluster.bootstrapServers());
        state.put("brokers", cluster.brokerCount());
        state.put("version", EmbeddedKafkaCluster.brokerVersion());
        state.put("profile", cluster.profile().displayName());
        state.put("settings", cluster.settings());
        state.put("brokerPids", cluster.pids());
        Path temp = stateFile.resolveSibling(stateFile.getFileName() + ".tmp");
        Files.createDirectories(stateFile.toAbsolutePath().getParent());
        Files.write(temp, ResultWriter.json().writeValueAsBytes(state));
        Files.move(temp, stateFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        System.out.println("embedded Kafka ready at " + cluster.bootstrapServers());
        Path written = stateFile;
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            cluster.close();
            written.toFile().delete();
            stop.countDown();
        }));
        stop.await();
    }
}

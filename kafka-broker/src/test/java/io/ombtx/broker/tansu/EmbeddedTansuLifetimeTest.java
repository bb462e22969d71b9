package io.ombtx.broker.tansu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Tansu, installed by {@link TansuBinary} on first use and started by {@link EmbeddedTansu} in a parent JVM of
 * its own: it answers a Kafka client on loopback as one broker with Tansu's cluster id, and when that parent is killed
 * with SIGKILL (no shutdown hook runs) the broker and its wrapper exit and its temporary folder is removed.
 */
@Tag("integration")
class EmbeddedTansuLifetimeTest {

    @TempDir
    Path dir;

    @Test
    void answersOnLoopbackAndGoesWithItsParent() throws Exception {
        Path log = dir.resolve("parent.log");
        Process parent = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx128m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        OrphanedTansuParent.class.getName())
                .redirectError(log.toFile())
                .start();
        List<ProcessHandle> processes = new ArrayList<>();
        try {
            String line;
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
                do {
                    line = out.readLine();
                } while (line != null && !line.startsWith("tansu "));
            }
            String started = line;
            assertNotNull(started, () -> "the parent started no Tansu; its log:\n" + read(log));
            String[] words = started.split(" ");
            String bootstrap = words[1];
            Path workDir = Path.of(words[2]);
            for (int i = 3; i < words.length; i++) {
                ProcessHandle.of(Long.parseLong(words[i])).ifPresent(processes::add);
            }
            assertTrue(bootstrap.startsWith("127.0.0.1:"), bootstrap);
            assertTrue(Files.isDirectory(workDir), workDir + " exists while Tansu runs");
            assertTrue(
                    processes.stream()
                            .anyMatch(p -> p.info().command().orElse("").endsWith("/tansu")),
                    "a tansu process among " + started);

            Properties props = new Properties();
            props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            try (Admin admin = Admin.create(props)) {
                DescribeClusterResult cluster = admin.describeCluster();
                assertEquals(
                        EmbeddedTansu.DEFAULT_CLUSTER_ID, cluster.clusterId().get(30, TimeUnit.SECONDS));
                List<Node> nodes = new ArrayList<>(cluster.nodes().get(30, TimeUnit.SECONDS));
                assertEquals(1, nodes.size());
                assertEquals(bootstrap, nodes.get(0).host() + ":" + nodes.get(0).port());
            }

            parent.destroyForcibly(); // SIGKILL
            assertTrue(parent.waitFor(30, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EmbeddedTansu.GRACE_MILLIS / 1000 + 10);
            for (ProcessHandle process : processes) {
                while (process.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertFalse(
                        process.isAlive(),
                        () -> process.pid() + " " + process.info().commandLine().orElse("")
                                + " still runs after its parent was killed");
            }
            assertFalse(Files.exists(workDir), workDir + " left behind");
        } finally {
            parent.destroyForcibly();
            processes.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "(no log)";
        }
    }
}

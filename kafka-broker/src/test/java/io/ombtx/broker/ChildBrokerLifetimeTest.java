package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A broker does not outlive the process that started it, even one killed with SIGKILL (no shutdown hook runs). */
@Tag("integration")
class ChildBrokerLifetimeTest {

    @TempDir
    Path dir;

    /**
     * The default release (KRaft), and a ZooKeeper-mode one: when its parent dies, the broker's shutdown hook waits on
     * the ZooKeeper that died with it (retrying every 2 s, for ever) until the broker halts itself after its grace.
     */
    @ParameterizedTest
    @ValueSource(strings = {"default", "2.8.2"})
    void brokersExitWhenTheirParentIsKilled(String release) throws Exception {
        Path log = dir.resolve("parent.log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                OrphanedParent.class.getName(),
                dir.resolve("kafka").toString()));
        if (!release.equals("default")) {
            command.add(release);
        }
        Process parent = new ProcessBuilder(command).redirectError(log.toFile()).start();
        List<ProcessHandle> brokers = new ArrayList<>();
        try {
            String line;
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
                do {
                    line = out.readLine(); // ends (null) if the parent exits without starting a broker
                } while (line != null && !line.startsWith("brokers "));
                assertNotNull(line, () -> "the parent started no broker; its log:\n" + read(log));
                for (String pid : line.substring("brokers ".length()).trim().split(" ")) {
                    Optional<ProcessHandle> broker = ProcessHandle.of(Long.parseLong(pid));
                    assertFalse(broker.isEmpty(), "broker " + pid + " runs");
                    brokers.add(broker.get());
                }
                assertEquals(1, brokers.size());
                parent.destroyForcibly(); // SIGKILL
                parent.waitFor(30, TimeUnit.SECONDS);
            }
            // Its grace and the JVM's exit; more on a busy machine, but never the for ever it was for ZooKeeper mode.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (ProcessHandle broker : brokers) {
                while (broker.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                assertFalse(broker.isAlive(), "broker " + broker.pid() + " still runs after its parent was killed");
            }
        } finally {
            parent.destroyForcibly();
            brokers.forEach(ProcessHandle::destroyForcibly);
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

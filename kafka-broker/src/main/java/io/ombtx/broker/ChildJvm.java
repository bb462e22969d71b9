package io.ombtx.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** How an embedded broker's child JVMs (broker, ZooKeeper, storage tool) are started and stopped. */
final class ChildJvm {

    private ChildJvm() {}

    /**
     * The command running {@code mainAndArgs} in a JVM on the release's {@code classPath}, logging as the files in
     * {@code nodeDir} say ({@link ChildFiles#writeLogConfig}).
     */
    static List<String> command(
            BrokerClassPath classPath, Path nodeDir, List<String> jvmOptions, List<String> mainAndArgs) {
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
        command.add(
                "-Dlog4j.configuration=" + nodeDir.resolve("log4j.properties").toUri());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath.classPath());
        command.addAll(mainAndArgs);
        return command;
    }

    /** Kills the children (SIGKILL) and waits for them, a few seconds at most: no clean shutdown is wanted. */
    static void kill(List<Process> children) {
        children.forEach(Process::destroyForcibly);
        for (Process process : children) {
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * How long the children get, together, to exit once told: a child halts itself {@link
     * ChildKafkaMain#SHUTDOWN_GRACE_MILLIS} after its input closes, so this is that and the JVM's own exit.
     */
    static final long STOP_DEADLINE_MILLIS = ChildKafkaMain.SHUTDOWN_GRACE_MILLIS + 3_000;

    /**
     * Closes each child's standard input ({@link ChildKafkaMain} exits on end of input) at once, then waits for all of
     * them together within {@link #STOP_DEADLINE_MILLIS}; one still alive then is killed. Brokers of a cluster that
     * lost a member each wait for their quorum while shutting down: one after the other, that took 5 s a broker.
     */
    static void stop(List<Process> children) {
        for (Process process : children) {
            try {
                process.getOutputStream().close();
            } catch (IOException ignored) {
                // Broken pipe: it is already going.
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_DEADLINE_MILLIS);
        for (Process process : children) {
            try {
                long left = deadline - System.nanoTime();
                if (!process.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}

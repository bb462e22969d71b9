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
     * Environment variable: the heap, collector and compiler flags of every broker JVM in place of {@link #DEFAULTS}
     * (split on white space). bin/test adds C1 only: its brokers live for seconds and spent half their CPU
     * compiling with C2.
     */
    static final String JAVA_OPTS_ENV = "OMBTX_BROKER_JAVA_OPTS";

    /** The broker JVMs' flags when {@link #JAVA_OPTS_ENV} is not set. */
    static final List<String> DEFAULTS = List.of("-Xms256m", "-Xmx1g", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20");

    /** {@code given} split on white space, or {@link #DEFAULTS} when it is null or blank. */
    static List<String> heapAndCompiler(String given) {
        return given == null || given.isBlank()
                ? DEFAULTS
                : List.of(given.trim().split("\\s+"));
    }

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
        command.addAll(heapAndCompiler(System.getenv(JAVA_OPTS_ENV)));
        command.add("-Djava.awt.headless=true");
        command.add("-Dlog4j2.configurationFile=" + nodeDir.resolve("log4j2.properties"));
        command.add(
                "-Dlog4j.configuration=" + nodeDir.resolve("log4j.properties").toUri());
        BrokerClassArchive.of(classPath).ifPresent(archive -> command.addAll(archive.mapFlags()));
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

package io.ombtx.broker;

import java.io.IOException;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Faults on single brokers of an {@link EmbeddedKafkaCluster}, as a benchmark injects them: kill (SIGKILL, a crash),
 * pause (SIGSTOP, a hung process or a long GC pause) and resume (SIGCONT), stop (SIGTERM, a controlled shutdown),
 * and restart of a killed or stopped broker with the command it was first started with (same ports, same data). A
 * broker is named by its index in the cluster, 0 to {@code brokerCount() - 1}; {@link #nodeId} gives its Kafka node
 * id. Paused brokers are resumed before the cluster closes, so closing never waits on a frozen process.
 */
public final class BrokerFaults {

    private static final Duration KILL_WAIT = Duration.ofSeconds(30);

    private final EmbeddedKafkaCluster cluster;
    private final Set<Process> paused = ConcurrentHashMap.newKeySet();
    /** Processes killed or stopped here on purpose: their exit is a fault injected, not a broker lost. */
    private final Set<Process> stoppedOnPurpose = ConcurrentHashMap.newKeySet();

    BrokerFaults(EmbeddedKafkaCluster cluster) {
        this.cluster = cluster;
    }

    /** The Kafka node id of the broker at {@code index}. */
    public int nodeId(int index) {
        return cluster.launch(index).nodeId();
    }

    /** The index of the broker with node id {@code nodeId}. */
    public int index(int nodeId) {
        for (int i = 0; i < cluster.brokerCount(); i++) {
            if (cluster.launch(i).nodeId() == nodeId) {
                return i;
            }
        }
        throw new IllegalArgumentException("no embedded broker has node id " + nodeId);
    }

    /** Whether the broker's process is alive and not paused. */
    public boolean running(int index) {
        Process process = cluster.process(index);
        return process.isAlive() && !paused.contains(process);
    }

    /** Whether the broker is paused (SIGSTOP and not yet resumed). */
    public boolean paused(int index) {
        return paused.contains(cluster.process(index));
    }

    /** SIGKILL: the broker dies at once, as in a crash, with no controlled shutdown. Returns once it is gone. */
    public void kill(int index) throws InterruptedException {
        Process process = alive(index, "kill");
        stoppedOnPurpose.add(process);
        process.destroyForcibly();
        paused.remove(process);
        if (!process.waitFor(KILL_WAIT.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException(
                    "broker " + nodeId(index) + " was still running " + KILL_WAIT.toSeconds() + " s after SIGKILL");
        }
    }

    /**
     * SIGSTOP: the broker freezes with its connections open, as in a hung process; clients see it only through
     * their time-outs, and the controller fences it once its session times out. {@link #resume} undoes it.
     */
    public void pause(int index) throws IOException, InterruptedException {
        Process process = alive(index, "pause");
        if (paused.contains(process)) {
            throw new IllegalStateException("broker " + nodeId(index) + " is already paused");
        }
        signal(process, "STOP");
        paused.add(process);
    }

    /** SIGCONT to a paused broker: it carries on where it stopped. */
    public void resume(int index) throws IOException, InterruptedException {
        Process process = cluster.process(index);
        if (!paused.remove(process)) {
            throw new IllegalStateException("broker " + nodeId(index) + " is not paused");
        }
        signal(process, "CONT");
    }

    /**
     * SIGTERM: a controlled shutdown (leadership handed over first); killed when not done within {@code timeout}.
     * Returns once the process has exited.
     */
    public void stop(int index, Duration timeout) throws IOException, InterruptedException {
        Process process = alive(index, "stop");
        stoppedOnPurpose.add(process);
        if (paused.remove(process)) {
            signal(process, "CONT"); // a frozen process cannot shut down
        }
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            if (!process.waitFor(KILL_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("broker " + nodeId(index) + " did not exit after SIGTERM and SIGKILL");
            }
        }
    }

    /**
     * Starts a killed or stopped broker again with its original command, on the same ports and data folder, and
     * waits until it serves requests again (a KRaft broker does so once the controller has unfenced it).
     */
    public void restart(int index, Duration timeout) throws IOException, InterruptedException, BrokerStartException {
        Process process = cluster.process(index);
        if (process.isAlive()) {
            throw new IllegalStateException(
                    "broker " + nodeId(index) + " is running: a restart follows a kill or a stop");
        }
        if (!cluster.relaunch(index)) {
            throw new IllegalStateException("the embedded cluster is closed");
        }
        awaitServing(index, timeout);
    }

    /** Waits until the broker at {@code index} answers a request addressed to it. */
    private void awaitServing(int index, Duration timeout) throws InterruptedException, BrokerStartException {
        int nodeId = nodeId(index);
        long deadline = System.nanoTime() + timeout.toNanos();
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(nodeId));
        try (Admin admin = Admin.create(props)) {
            while (true) {
                Process process = cluster.process(index);
                if (!process.isAlive()) {
                    throw new BrokerStartException("restarted broker " + nodeId + " exited with code "
                            + process.exitValue() + "; its output is in "
                            + cluster.launch(index).output());
                }
                try {
                    admin.describeConfigs(Set.of(broker)).all().get(3, TimeUnit.SECONDS);
                    return;
                } catch (Exception notYet) {
                    // Not listening, or not unfenced yet.
                }
                if (System.nanoTime() > deadline) {
                    throw new BrokerStartException("restarted broker " + nodeId + " did not serve requests within "
                            + timeout.toSeconds() + " s; its output is in "
                            + cluster.launch(index).output());
                }
                Thread.sleep(100);
            }
        }
    }

    /** Whether {@code process} exited because it was killed or stopped here (a fault), not on its own. */
    boolean exitExpected(Process process) {
        return stoppedOnPurpose.contains(process);
    }

    /** Resumes every paused broker, best effort (before the cluster closes). */
    void resumePaused() {
        for (Process process : paused) {
            try {
                signal(process, "CONT");
            } catch (IOException | RuntimeException e) {
                // It is killed next if it does not exit.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        paused.clear();
    }

    private Process alive(int index, String action) {
        Process process = cluster.process(index);
        if (!process.isAlive()) {
            throw new IllegalStateException("cannot " + action + " broker " + nodeId(index) + ": it is not running"
                    + " (exit code " + process.exitValue() + ")");
        }
        return process;
    }

    /** Sends {@code signal} (STOP, CONT) with kill(1); Java has no API for signals other than TERM and KILL. */
    private static void signal(Process process, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .redirectErrorStream(true)
                .start();
        String output = new String(kill.getInputStream().readAllBytes()).trim();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            kill.destroyForcibly();
            throw new IOException(
                    "kill -" + signal + " " + process.pid() + " failed" + (output.isEmpty() ? "" : ": " + output));
        }
    }
}

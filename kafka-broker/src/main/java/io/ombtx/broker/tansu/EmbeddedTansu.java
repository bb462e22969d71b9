package io.ombtx.broker.tansu;

import io.ombtx.broker.BrokerStartException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * One Tansu broker ({@link TansuBinary}) in a child process on loopback, on a free port, with its in-memory storage
 * and its log in a temporary folder ({@code omb-tx-tansu-*}) removed when it stops.
 *
 * <p>Tansu is not a JVM, so it cannot watch its parent as the Kafka brokers' launcher does; a small {@code sh}
 * wrapper does it for it: it leaves a watcher in the background holding this process's pipe on its standard input,
 * then becomes the broker. When that pipe closes — {@link #close()}, or this JVM ending in any way, {@code kill -9} included — it interrupts the
 * broker (Tansu 0.6.0 stops on SIGINT; it ignores SIGTERM), the watcher kills it if it has not gone within
 * {@value #GRACE_MILLIS} ms, and removes the temporary folder.
 *
 * <p>Ready means answering: a kafka-clients Admin's DescribeCluster round trip (after its ApiVersions exchange)
 * returns the broker, within {@value #READY_SECONDS} s.
 */
public final class EmbeddedTansu implements AutoCloseable {

    static final long GRACE_MILLIS = 5_000;
    static final int READY_SECONDS = 30;

    /** The storage engine: Tansu's in-memory one; the wheel's build has no durable engine (no libsql, no S3 here). */
    public static final String STORAGE_ENGINE = "memory://tansu/";

    /** The cluster id Tansu reports unless told otherwise (its own default; omb-tx does not set one). */
    public static final String DEFAULT_CLUSTER_ID = "tansu_cluster";

    private static final String LOOPBACK = "127.0.0.1";

    /**
     * The wrapper: $1 the folder to remove, the rest the broker's command, which it becomes ({@code exec}: the
     * broker keeps the wrapper's process id). Its background watcher reads standard input, kept open on fd 3 (an
     * asynchronous list's own standard input is /dev/null), and stops the broker when it closes.
     */
    private static final String WRAPPER = String.join(
            "\n",
            "dir=$1; shift",
            "exec 3<&0",
            "{",
            "  cat <&3 >/dev/null",
            "  kill -INT $$ 2>/dev/null",
            "  i=0",
            "  while kill -0 $$ 2>/dev/null && [ $i -lt " + GRACE_MILLIS / 100 + " ]; do",
            "    sleep 0.1; i=$((i + 1))",
            "  done",
            "  kill -KILL $$ 2>/dev/null",
            "  rm -rf \"$dir\"",
            "} &",
            "exec \"$@\" </dev/null 3<&-",
            "");

    private final Path workDir;
    private final Path log;
    private final Process wrapper;
    private final List<ProcessHandle> children;
    private final int port;
    private final Instant started;
    private volatile boolean closing;

    private EmbeddedTansu(
            Path workDir, Path log, Process wrapper, List<ProcessHandle> children, int port, Instant started) {
        this.workDir = workDir;
        this.log = log;
        this.wrapper = wrapper;
        this.children = children;
        this.port = port;
        this.started = started;
    }

    /** Installs Tansu when it is not yet (saying so through {@code log}), starts it and waits until it answers. */
    public static EmbeddedTansu start(Consumer<String> log) throws BrokerStartException {
        Path binary = TansuBinary.installed(log);
        Path dir;
        try {
            dir = Files.createTempDirectory("omb-tx-tansu-");
        } catch (IOException e) {
            throw new BrokerStartException("cannot create Tansu's temporary folder: " + e.getMessage(), e);
        }
        Path logFile = dir.resolve("tansu.log");
        int port;
        Process wrapper;
        try {
            port = freePort();
            String url = "tcp://" + LOOPBACK + ":" + port;
            List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", WRAPPER, "omb-tx-tansu", dir.toString()));
            command.addAll(List.of(
                    binary.toString(),
                    "broker",
                    "--listener-url",
                    url,
                    "--advertised-listener-url",
                    url,
                    "--storage-engine",
                    STORAGE_ENGINE));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            // No OpenTelemetry export, and no colour codes in the log.
            builder.environment().remove("OTEL_EXPORTER_OTLP_ENDPOINT");
            builder.environment().put("NO_COLOR", "1");
            wrapper = builder.start();
        } catch (IOException e) {
            TansuBinary.deleteTree(dir);
            throw new BrokerStartException("cannot start Tansu (" + binary + "): " + e.getMessage(), e);
        }
        EmbeddedTansu tansu = new EmbeddedTansu(dir, logFile, wrapper, new ArrayList<>(), port, Instant.now());
        try {
            tansu.awaitReady();
        } catch (BrokerStartException | RuntimeException e) {
            tansu.close();
            throw e;
        }
        return tansu;
    }

    private void awaitReady() throws BrokerStartException {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(READY_SECONDS * 1000));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
        try (Admin admin = Admin.create(props)) {
            var nodes = admin.describeCluster().nodes();
            while (true) {
                if (!wrapper.isAlive()) {
                    throw new BrokerStartException("Tansu exited with status " + wrapper.exitValue()
                            + " before it answered; its log:\n" + tail(20));
                }
                try {
                    if (!nodes.get(200, TimeUnit.MILLISECONDS).isEmpty()) {
                        break;
                    }
                    throw new BrokerStartException(
                            "Tansu answered DescribeCluster with no broker; its log:\n" + tail(20));
                } catch (TimeoutException notYet) {
                    if (System.nanoTime() > deadline) {
                        throw new BrokerStartException("Tansu did not answer at " + bootstrapServers() + " within "
                                + READY_SECONDS + " s; its log:\n" + tail(20));
                    }
                } catch (ExecutionException e) {
                    throw new BrokerStartException("Tansu did not answer at " + bootstrapServers() + ": "
                            + e.getCause().getMessage() + "; its log:\n" + tail(20));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while Tansu started");
        }
        wrapper.descendants().forEach(children::add);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        }
    }

    public String bootstrapServers() {
        return LOOPBACK + ":" + port;
    }

    /** The release running (the binary was checked to report it before it started). */
    public String version() {
        return TansuBinary.VERSION;
    }

    /** What omb-tx chose of Tansu's settings: its command-line options, as given. */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("storage-engine", STORAGE_ENGINE);
        settings.put("listener-url", "tcp://" + bootstrapServers());
        return settings;
    }

    /** The temporary folder (the broker's working directory, with its log). */
    public Path workDir() {
        return workDir;
    }

    /** The broker's process id (the wrapper became the broker). */
    public long pid() {
        return wrapper.pid();
    }

    /** The processes of this broker still alive: the broker and its watcher. */
    public List<ProcessHandle> processes() {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(wrapper.toHandle());
        all.addAll(children);
        return all.stream().filter(ProcessHandle::isAlive).toList();
    }

    /** Why the broker is gone when it went by itself (not through {@link #close()}), else empty. */
    public Optional<String> unexpectedExit() {
        if (closing || wrapper.isAlive()) {
            return Optional.empty();
        }
        return Optional.of("Tansu (pid " + pid() + ") exited with status " + wrapper.exitValue() + " "
                + Duration.between(started, Instant.now()).toSeconds() + " s after it started");
    }

    /** Copies the broker's log into {@code dir}; returns the file written. */
    public List<Path> copyLogs(Path dir) throws IOException {
        if (!Files.exists(log)) {
            return List.of();
        }
        Files.createDirectories(dir);
        Path target = dir.resolve("tansu.log");
        Files.copy(log, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return List.of(target);
    }

    private String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Stops the broker (its watcher interrupts it, then kills it after the grace) and removes its folder. */
    @Override
    public void close() {
        if (closing && !wrapper.isAlive()) {
            TansuBinary.deleteTree(workDir);
            return;
        }
        closing = true;
        List<ProcessHandle> all = new ArrayList<>(children);
        wrapper.descendants().forEach(all::add);
        try (OutputStream in = wrapper.getOutputStream()) {
            in.flush();
        } catch (IOException ignored) {
            // already closed: the watcher has begun
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS + 3_000);
        try {
            wrapper.waitFor(GRACE_MILLIS + 3_000, TimeUnit.MILLISECONDS);
            for (ProcessHandle child : all) {
                long left = Math.max(0, deadline - System.nanoTime());
                child.onExit().get(left, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // killed below
        }
        for (ProcessHandle child : all) {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
        if (wrapper.isAlive()) {
            wrapper.destroyForcibly();
        }
        TansuBinary.deleteTree(workDir);
    }
}

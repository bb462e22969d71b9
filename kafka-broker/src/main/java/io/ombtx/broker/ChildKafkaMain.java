package io.ombtx.broker;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Runs a real Kafka broker (or the ZooKeeper a Kafka 2.x broker needs) as a child of the omb-tx runner:
 * {@code ChildKafkaMain [--main CLASS] [--app-info FILE] ARGS...} calls {@code CLASS.main(ARGS)} ({@code kafka.Kafka}
 * by default) by reflection, so this launcher is compiled against no Kafka release and runs any of them. The parent
 * holds this process's standard input open; when the parent exits for any reason (Ctrl-C, kill -9, a crash) the pipe
 * closes and the process shuts down cleanly, so no broker outlives the run that started it.
 *
 * <p>With {@code --app-info FILE}, once the broker has registered its {@code kafka.server:type=app-info} MBean, its
 * {@code Version} and {@code CommitId} are written to {@code FILE} (Java properties): the version the running broker
 * reports about itself, which results record.
 */
public final class ChildKafkaMain {

    /** The broker main run when no {@code --main} is given. */
    public static final String KAFKA_MAIN = "kafka.Kafka";

    private ChildKafkaMain() {}

    public static void main(String[] args) throws Throwable {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        String mainClass = KAFKA_MAIN;
        String appInfo = null;
        while (rest.size() >= 2 && (rest.get(0).equals("--main") || rest.get(0).equals("--app-info"))) {
            String name = rest.remove(0);
            String value = rest.remove(0);
            if (name.equals("--main")) {
                mainClass = value;
            } else {
                appInfo = value;
            }
        }
        Thread watcher = new Thread(ChildKafkaMain::exitWhenParentGoes, "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
        if (appInfo != null) {
            Path file = Path.of(appInfo);
            Thread reporter = new Thread(() -> reportAppInfo(file), "app-info-reporter");
            reporter.setDaemon(true);
            reporter.start();
        }
        try {
            Class.forName(mainClass).getMethod("main", String[].class).invoke(null, (Object)
                    rest.toArray(String[]::new));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    static void reportAppInfo(Path file) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            ObjectName pattern = new ObjectName("kafka.server:type=app-info,*");
            while (true) {
                Set<ObjectName> names = server.queryNames(pattern, null);
                for (ObjectName name : names) {
                    // "Version"/"CommitId" up to Kafka 3, "version"/"commit-id" (metrics-style) in Kafka 4.
                    Object version = null;
                    Object commit = null;
                    try {
                        for (MBeanAttributeInfo attribute :
                                server.getMBeanInfo(name).getAttributes()) {
                            String key = attribute.getName().replace("-", "").toLowerCase(Locale.ROOT);
                            if (key.equals("version")) {
                                version = server.getAttribute(name, attribute.getName());
                            } else if (key.equals("commitid")) {
                                commit = server.getAttribute(name, attribute.getName());
                            }
                        }
                    } catch (JMException | RuntimeException gone) {
                        // Unregistered between the query and the look (or not readable yet): the next pass looks
                        // again. Giving up here left the broker without a report and its start timed out at 90 s.
                        continue;
                    }
                    if (version == null) {
                        continue;
                    }
                    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
                    Files.writeString(
                            temp,
                            "version=" + version + "\ncommitId=" + commit + "\nmbean=" + name + "\n",
                            StandardCharsets.UTF_8);
                    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    return;
                }
                Thread.sleep(100);
            }
        } catch (Exception e) {
            System.err.println("omb-tx: could not report the broker's app-info: " + e);
        }
    }

    /**
     * How long a clean shutdown may take once the parent has gone, before the process halts: Kafka's shutdown hook
     * can wait without end (a ZooKeeper-mode broker whose ZooKeeper went with the parent retries it every 2 s; a KRaft
     * broker whose controller quorum is gone waits for it), and a broker must never outlive its run.
     */
    static final long SHUTDOWN_GRACE_MILLIS = 5_000;

    private static void exitWhenParentGoes() {
        InputStream in = System.in;
        byte[] buffer = new byte[64];
        try {
            while (in.read(buffer) >= 0) {
                // The parent never writes; any bytes are ignored.
            }
        } catch (IOException ignored) {
            // A broken pipe means the same as end of stream.
        }
        Thread halt = new Thread(
                () -> {
                    try {
                        Thread.sleep(SHUTDOWN_GRACE_MILLIS);
                    } catch (InterruptedException e) {
                        // halt now
                    }
                    System.err.println("omb-tx: the broker did not shut down within " + SHUTDOWN_GRACE_MILLIS
                            + " ms of its parent's end; halting");
                    Runtime.getRuntime().halt(0);
                },
                "halt-after-grace");
        halt.setDaemon(true);
        halt.start();
        System.exit(0);
    }
}

package io.ombtx.runner;

import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.Converters;
import io.ombtx.runner.worker.WorkerServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/benchmark-worker}: an HTTP worker for distributed runs, speaking OMB's worker protocol. */
public final class WorkerMain {

    /** bin/benchmark-worker's command line (OMB's worker flags). */
    @Command(
            name = "bin/benchmark-worker",
            description = "Serves OMB's worker protocol over HTTP so that a coordinator (bin/benchmark -w URL,... or"
                    + " stock OMB's) can run producers and consumers here. Drivers are loaded from this installation.",
            optionListHeading = "%nOptions (-p and -sp as in OMB's worker):%n",
            footer = {
                "Exit codes: 2 bad input or the address cannot be listened on; otherwise it serves until stopped.",
                "",
                "Examples:",
                "  bin/benchmark-worker --port 8080 --stats-port 8081",
                "  bin/benchmark-worker --extra-classpath '/opt/omb/driver-kafka/target/driver-kafka-0.0.1-SNAPSHOT.jar'",
                "      (stock OMB's Kafka driver, for a stock OMB coordinator whose driver YAML names it)"
            })
    static final class Options {
        @Option(
                names = {"-p", "--port"},
                paramLabel = "PORT",
                converter = Converters.WholeNumber.class,
                description = "HTTP port (default ${DEFAULT-VALUE}; 0 picks a free one)")
        @Converters.Bounds(min = 0, max = 65_535)
        int port = 8080;

        @Option(
                names = {"-b", "--bind-address"},
                paramLabel = "ADDRESS",
                description = "address to listen on (default ${DEFAULT-VALUE}: every interface)")
        String bind = "0.0.0.0";

        @Option(
                names = {"-sp", "--stats-port"},
                paramLabel = "PORT",
                converter = Converters.WholeNumber.class,
                description = "accepted for OMB compatibility (OMB serves Prometheus metrics there); omb-tx reports"
                        + " everything through the HTTP protocol instead")
        @Converters.Bounds(min = 0, max = 65_535)
        Integer statsPort;

        @Option(
                names = "--extra-classpath",
                paramLabel = "PATHS",
                description = "more jars for drivers that omb-tx does not ship, e.g. stock OMB's Kafka driver:"
                        + " JAR, DIR/* (every jar in DIR) or DIR (classes), several joined by ':' or the option"
                        + " repeated; appended to this worker's class path by bin/benchmark-worker, as the"
                        + " OMBTX_CLASSPATH environment variable is")
        List<String> extraClasspath = new ArrayList<>();
    }

    private WorkerMain() {}

    /**
     * What is wrong with the {@code --extra-classpath} entries, or null: each must exist, and be on this JVM's class
     * path already (bin/benchmark-worker puts it there; Java cannot add to its own class path for every library a
     * driver brings).
     */
    static String extraClasspathProblem(List<String> values) {
        List<String> onClassPath =
                List.of(System.getProperty("java.class.path", "").split(File.pathSeparator));
        for (String value : values) {
            for (String entry : value.split(File.pathSeparator)) {
                if (entry.isEmpty()) {
                    continue;
                }
                Path path = Path.of(entry.endsWith("/*") ? entry.substring(0, entry.length() - 2) : entry);
                if (!Files.exists(path)) {
                    return entry + ": no such " + (entry.endsWith("/*") ? "folder" : "file or folder");
                }
                if (entry.endsWith("/*") && !Files.isDirectory(path)) {
                    return entry + ": " + path + " is not a folder";
                }
                if (!onClassPath.contains(entry)) {
                    return entry + ": not on the class path; start the worker with bin/benchmark-worker, which"
                            + " adds it (or, running java yourself, add it to -cp)";
                }
            }
        }
        return null;
    }

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, WorkerMain::serve);
    }

    /** Serves until the JVM is told to stop; returns 2 when the address cannot be listened on. */
    private static int serve(Options options) throws InterruptedException {
        try {
            io.ombtx.runner.worker.SenderThreads.fromSystemProperty();
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage() + " (set in OMBTX_JAVA_OPTS)");
            return Main.BAD_INPUT;
        }
        String classPathProblem = extraClasspathProblem(options.extraClasspath);
        if (classPathProblem != null) {
            System.err.println("error: --extra-classpath " + classPathProblem);
            return Main.BAD_INPUT;
        }
        WorkerServer server;
        try {
            server = new WorkerServer(options.bind, options.port).start();
        } catch (java.io.IOException | RuntimeException e) {
            System.err.println("error: cannot listen on " + options.bind + ":" + options.port + ": "
                    + (e.getMessage() != null ? e.getMessage() : e));
            return Main.BAD_INPUT;
        }
        System.out.printf("omb-tx worker listening on http://%s:%d%n", options.bind, server.port());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        stopped.await();
        return Main.OK;
    }
}

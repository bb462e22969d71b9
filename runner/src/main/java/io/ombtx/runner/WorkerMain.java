package io.ombtx.runner;

import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.Converters;
import io.ombtx.runner.metrics.LiveMetrics;
import io.ombtx.runner.metrics.MetricsServer;
import io.ombtx.runner.worker.WorkerServer;
import io.ombtx.runner.worker.WorkerToken;
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
                "Without a token the worker listens on 127.0.0.1 only (--bind-address to say otherwise): anyone who can"
                        + " reach its port could make it load a driver and send load anywhere.",
                "Exit codes: 2 bad input or the address cannot be listened on; otherwise it serves until stopped.",
                "",
                "Examples:",
                "  openssl rand -hex 32 > worker.token    # the same file (or OMBTX_WORKER_TOKEN) for bin/benchmark",
                "  bin/benchmark-worker --port 8080 --token-file worker.token",
                "  bin/benchmark-worker --port 8080 --metrics-port 8081 --bind-address 0.0.0.0   # no token: stock"
                        + " OMB's coordinator; Prometheus scrapes :8081/metrics",
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
                description = "address to listen on (default: every interface, 0.0.0.0, with a token; 127.0.0.1"
                        + " without one)")
        String bind;

        @Option(
                names = "--token-file",
                paramLabel = "FILE",
                description = "a file holding the token (at least " + WorkerToken.MIN_LENGTH + " characters) every"
                        + " request must carry, as bin/benchmark --token-file sends it; others are answered 401."
                        + " Default: the environment variable " + WorkerToken.ENV + ", if set")
        Path tokenFile;

        @Option(
                names = {"--metrics-port", "-sp", "--stats-port"},
                paramLabel = "PORT",
                converter = Converters.WholeNumber.class,
                description = "serve live Prometheus metrics on http://ADDRESS:PORT/metrics, ADDRESS the worker's"
                        + " own (with a token, scrapes must carry it too); -sp/--stats-port is OMB's name for it"
                        + " (0 picks a free port; default: none)")
        @Converters.Bounds(min = 0, max = 65_535)
        Integer metricsPort;

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

    /** The address to listen on: the one given, else every interface with a token and loopback only without. */
    static String bindAddress(String given, boolean token) {
        return given != null ? given : token ? "0.0.0.0" : "127.0.0.1";
    }

    /** Who may use this worker, said when it starts. */
    static String access(String givenBind, boolean token, Path tokenFile) {
        if (token) {
            return "requests must carry the worker token (from "
                    + (tokenFile != null ? tokenFile.toString() : "the environment variable " + WorkerToken.ENV)
                    + "); others are answered 401";
        }
        if (givenBind == null) {
            return "no worker token: listening on 127.0.0.1 only, for coordinators on this machine; give"
                    + " --token-file (or " + WorkerToken.ENV + ") to serve other hosts, or --bind-address to serve"
                    + " them without one";
        }
        return "no worker token: anyone who can reach this port may use this worker (give --token-file, or "
                + WorkerToken.ENV + ", to require one)";
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
        WorkerToken token;
        try {
            token = WorkerToken.resolve(options.tokenFile, System.getenv()).orElse(null);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + (options.tokenFile != null ? "--token-file " : "") + e.getMessage());
            return Main.BAD_INPUT;
        }
        String bind = bindAddress(options.bind, token != null);
        LiveMetrics metrics = options.metricsPort == null ? null : new LiveMetrics();
        MetricsServer metricsServer = null;
        if (metrics != null) {
            try {
                metricsServer =
                        MetricsServer.start(bind, options.metricsPort, metrics, token == null ? null : token::admits);
            } catch (java.io.IOException | RuntimeException e) {
                System.err.println("error: --metrics-port " + options.metricsPort + ": cannot listen on " + bind + ":"
                        + options.metricsPort + ": " + (e.getMessage() != null ? e.getMessage() : e));
                return Main.BAD_INPUT;
            }
        }
        WorkerServer server;
        try {
            server = new WorkerServer(bind, options.port, token, metrics).start();
        } catch (java.io.IOException | RuntimeException e) {
            System.err.println("error: cannot listen on " + bind + ":" + options.port + ": "
                    + (e.getMessage() != null ? e.getMessage() : e));
            if (metricsServer != null) {
                metricsServer.close();
            }
            return Main.BAD_INPUT;
        }
        System.out.printf("omb-tx worker listening on http://%s:%d%n", bind, server.port());
        if (metricsServer != null) {
            System.out.printf("Metrics: http://%s:%d%s%n", bind, metricsServer.port(), MetricsServer.PATH);
        }
        System.out.println(access(options.bind, token != null, options.tokenFile));
        CountDownLatch stopped = new CountDownLatch(1);
        MetricsServer servingMetrics = metricsServer;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            if (servingMetrics != null) {
                servingMetrics.close();
            }
            stopped.countDown();
        }));
        stopped.await();
        return Main.OK;
    }
}

package io.ombtx.runner;

import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.Converters;
import io.ombtx.runner.worker.WorkerServer;
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
            optionListHeading = "%nOptions (OMB's):%n",
            footer = {
                "Exit codes: 2 bad input or the address cannot be listened on; otherwise it serves until stopped.",
                "",
                "Example:",
                "  bin/benchmark-worker --port 8080 --stats-port 8081"
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
    }

    private WorkerMain() {}

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

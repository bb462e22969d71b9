package io.ombtx.runner;

import io.ombtx.runner.worker.WorkerServer;
import java.util.concurrent.CountDownLatch;

/** {@code bin/benchmark-worker}: an HTTP worker for distributed runs, speaking OMB's worker protocol. */
public final class WorkerMain {

    static final String USAGE = """
            Usage: bin/benchmark-worker [--port PORT] [--bind-address ADDRESS] [--stats-port PORT]

            Serves OMB's worker protocol over HTTP so that a coordinator (bin/benchmark -w URL,... or stock
            OMB's) can run producers and consumers here. Drivers are loaded from this installation.

              -p, --port PORT            HTTP port (default 8080)
              -b, --bind-address ADDR    address to listen on (default 0.0.0.0: every interface)
              -sp, --stats-port PORT     accepted for OMB compatibility (OMB serves Prometheus metrics there);
                                         omb-tx reports everything through the HTTP protocol instead
              -h, --help                 this text
            """;

    private WorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = 8080;
        String bind = "0.0.0.0";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-p", "--port" -> port = number(args, ++i);
                case "-b", "--bind-address" -> bind = value(args, ++i);
                case "-sp", "--stats-port" -> number(args, ++i);
                case "-h", "--help" -> {
                    System.out.print(USAGE);
                    return;
                }
                default -> fail("unknown option " + args[i] + " (see --help)");
            }
        }
        WorkerServer server;
        try {
            server = new WorkerServer(bind, port).start();
        } catch (java.io.IOException | RuntimeException e) {
            fail("cannot listen on " + bind + ":" + port + ": " + (e.getMessage() != null ? e.getMessage() : e));
            return;
        }
        System.out.printf("omb-tx worker listening on http://%s:%d%n", bind, server.port());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        stopped.await();
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            fail(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static int number(String[] args, int i) {
        String text = value(args, i);
        try {
            int port = Integer.parseInt(text);
            if (port < 0 || port > 65535) {
                fail(args[i - 1] + " expects a port from 0 to 65535, got " + text);
            }
            return port;
        } catch (NumberFormatException e) {
            fail(args[i - 1] + " expects a port number, got '" + text + "'");
            return -1;
        }
    }

    private static void fail(String message) {
        System.err.println("error: " + message);
        System.exit(Main.BAD_INPUT);
    }
}

package io.ombtx.runner.metrics;

import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

/**
 * Serves {@link LiveMetrics} on {@code /metrics} in Prometheus' text format (the client library's handler, on the
 * JDK's HTTP server). It counts the scrapes it has answered, so that a runner about to exit can wait for one that
 * read its final values ({@link #awaitScrapeAfter}).
 */
public final class MetricsServer implements AutoCloseable {

    /** The path Prometheus scrapes by default. */
    public static final String PATH = "/metrics";

    private final HttpServer server;
    private final Object scrapes = new Object();
    /** Scrapes begun, and the highest of their numbers answered. */
    private long begun;

    private long answered;

    /**
     * Starts serving.
     *
     * @param admits whether a request's {@code Authorization} header (or null) may read the metrics; null: anyone
     * @throws IOException when the address cannot be listened on
     */
    public static MetricsServer start(String bindAddress, int port, LiveMetrics metrics, Predicate<String> admits)
            throws IOException {
        return new MetricsServer(bindAddress, port, metrics, admits);
    }

    private MetricsServer(String bindAddress, int port, LiveMetrics metrics, Predicate<String> admits)
            throws IOException {
        server = HttpServer.create(new InetSocketAddress(bindAddress, port), 0);
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "metrics-http");
            t.setDaemon(true);
            return t;
        }));
        MetricsHandler handler = new MetricsHandler(metrics.registry());
        server.createContext(PATH, exchange -> {
            if (admits != null && !admits.test(exchange.getRequestHeaders().getFirst("Authorization"))) {
                exchange.sendResponseHeaders(401, -1);
                exchange.close();
                return;
            }
            long number;
            synchronized (scrapes) {
                number = ++begun;
            }
            handler.handle(exchange); // writes the whole answer and closes the exchange
            synchronized (scrapes) {
                answered = Math.max(answered, number);
                scrapes.notifyAll();
            }
        });
        server.start();
    }

    /** The port listened on (the one asked for, or the one picked for 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The number of the last scrape begun: one begun after the values set since reads them ({@link #awaitScrapeAfter}). */
    public long mark() {
        synchronized (scrapes) {
            return begun;
        }
    }

    /**
     * Waits until a scrape begun after {@code mark} has been answered, or {@code timeout} has passed: the caller sets
     * its last values, takes the {@link #mark()} and waits here, so a scrape under way then (which may have read the
     * values before) does not count. Returns whether one was answered.
     */
    public boolean awaitScrapeAfter(long mark, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (scrapes) {
            while (answered <= mark) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(scrapes, left);
            }
            return true;
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

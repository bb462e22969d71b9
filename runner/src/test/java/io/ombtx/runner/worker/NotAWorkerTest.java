package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the coordinator says of a URL that is not an omb-tx worker, over real HTTP: a stock OMB worker is told from a
 * web server that is no worker by OMB's own {@code GET /counters-stats}, and a reply that is not JSON names the
 * worker and the endpoint.
 */
class NotAWorkerTest {

    /** A server answering {@code replies} (path to status and body) and 404 to every other path. */
    private static HttpServer serving(Map<String, Map.Entry<Integer, String>> replies) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            Map.Entry<Integer, String> reply = replies.getOrDefault(
                    exchange.getRequestURI().getPath(), replies.getOrDefault("*", Map.entry(404, "")));
            byte[] body = reply.getValue().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(reply.getKey(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
            exchange.close();
        });
        server.start();
        return server;
    }

    private static HttpWorkerClient client(HttpServer server) {
        return new HttpWorkerClient("http://127.0.0.1:" + server.getAddress().getPort(), Duration.ofSeconds(30));
    }

    private static final OperationSpec TX_WRITE = new OperationSpec(OperationKind.WRITE, true, 1, 1, false, false);

    @Test
    void aServerThatAnswers404EverywhereIsNoWorkerNotAStockOmbOne() throws Exception {
        HttpServer server = serving(Map.of());
        try {
            WorkerException e =
                    assertThrows(WorkerException.class, () -> client(server).initializeDriver("name: d\n", TX_WRITE));
            assertEquals(
                    "worker http://127.0.0.1:" + server.getAddress().getPort() + " does not speak OMB's worker"
                            + " protocol (/omb-tx/configure-operation answered HTTP 404, /counters-stats HTTP 404):"
                            + " is the URL a worker's?",
                    e.getMessage());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aServerWithOmbsCountersIsAStockOmbWorker() throws Exception {
        // OMB's WorkerHandler serves GET /counters-stats at any time: its CountersStats as JSON.
        HttpServer server = serving(Map.of(
                "/counters-stats",
                Map.entry(200, "{\"messagesSent\":0,\"messagesReceived\":0,\"messageSendErrors\":0}")));
        try {
            WorkerException e =
                    assertThrows(WorkerException.class, () -> client(server).initializeDriver("name: d\n", TX_WRITE));
            assertEquals(
                    "worker http://127.0.0.1:" + server.getAddress().getPort() + " is a stock OMB worker: it can run"
                            + " plain publish workloads only, not WRITE (transactional)",
                    e.getMessage());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aReplyThatIsNotJsonNamesTheWorkerAndTheEndpoint() throws Exception {
        HttpServer server = serving(Map.of(
                "*",
                Map.entry(
                        200,
                        "<!DOCTYPE html>\n<html><head><title>Welcome to nginx!" + "</title></head><body>"
                                + "x".repeat(200) + "</body></html>")));
        try {
            HttpWorkerClient client = client(server);
            client.initializeDriver("name: d\n", OperationSpec.publish());
            WorkerException e = assertThrows(WorkerException.class, () -> client.createTopics(1, 1));
            assertEquals(
                    "worker http://127.0.0.1:" + server.getAddress().getPort() + " answered /create-topics with HTTP"
                            + " 200 but not the JSON the worker protocol has there (it begins '<!DOCTYPE html> <html>"
                            + "<head><title>Welcome to nginx!</title>…'): is the URL a worker's?",
                    e.getMessage());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aUrlWithCredentialsIsRefusedWithoutShowingThem() {
        String url = "http://admin:hunter2@w1:8080";
        String problem = WorkerUrls.problem(url).orElseThrow();
        assertFalse(problem.contains("hunter2"), problem);
        assertFalse(problem.contains("admin"), problem);
        assertTrue(problem.startsWith("'http://***@w1:8080' holds credentials (user:password@)"), problem);
        assertEquals("http://***@w1:8080", WorkerUrls.shown(url));
        assertEquals("http://w1:8080", WorkerUrls.shown("http://w1:8080"));
        assertFalse(WorkerUrls.problem("http://a:b@c d:80").orElseThrow().contains("a:b"));
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.Main;
import io.ombtx.runner.OmbTxHome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/benchmark --metrics-port} scraped by a real Prometheus (Debian's {@code /usr/bin/prometheus}, started
 * here on loopback with a 1 s scrape interval): the shipped tx-writes (quick) on the embedded Kafka broker, its
 * committed transactions read back through Prometheus' HTTP API equal to the result file's; and the shipped Grafana
 * dashboard names only metrics Prometheus got from that scrape. One run and one Prometheus for the class.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrometheusScrapeTest {

    static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final Pattern METRIC = Pattern.compile("\\bombtx_[a-z0-9_]+");

    private Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private Process prometheus;
    private String prometheusUrl;
    private String console;
    private JsonNode result;

    @BeforeAll
    void runScrapedBenchmark(@TempDir Path tempDir) throws Exception {
        dir = tempDir;
        if (!Files.isExecutable(PROMETHEUS)) {
            fail(PROMETHEUS
                    + " is missing: install Debian's prometheus package (bin/test names it, .ci/run installs it)");
        }
        int metricsPort = freePort();
        int prometheusPort = freePort();
        Path config = Files.writeString(
                dir.resolve("prometheus.yml"),
                """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                  - job_name: omb-tx
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """
                        .formatted(metricsPort));
        prometheus = new ProcessBuilder(
                        PROMETHEUS.toString(),
                        "--config.file=" + config,
                        "--storage.tsdb.path=" + dir.resolve("tsdb"),
                        "--web.listen-address=127.0.0.1:" + prometheusPort)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        prometheusUrl = "http://127.0.0.1:" + prometheusPort;
        awaitReady();

        Path home = OmbTxHome.locate();
        Path resultFile = dir.resolve("tx-writes.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(
                new String[] {
                    "-d",
                    home.resolve("driver-kafka-tx/kafka-tx.yaml").toString(),
                    "--profile",
                    "quick",
                    "--report-interval",
                    "1",
                    "--metrics-port",
                    Integer.toString(metricsPort),
                    "--metrics-linger",
                    "60",
                    "-o",
                    resultFile.toString(),
                    home.resolve("workloads/tx-writes.yaml").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        console = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, console);
        result = json.readTree(resultFile.toFile());
    }

    @AfterAll
    void stopPrometheus() throws InterruptedException {
        if (prometheus != null) {
            prometheus.destroy();
            if (!prometheus.waitFor(30, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void theCommittedTransactionsPrometheusScrapedAreTheResultFilesCount() throws Exception {
        assertTrue(console.contains("Metrics: http://127.0.0.1:"), "the runner says where it serves: " + console);
        long committed = result.get("counts").get("committed").asLong();
        assertEquals(300, committed, result.get("counts").toString());
        // The run's last scrape, once it was done: the runner lingers until a scrape has read its final values.
        // last_over_time, because the series went stale when the runner stopped serving.
        String query = "last_over_time(ombtx_transactions_committed_total{run=\"tx-writes\",driver=\"kafka-tx\","
                + "state=\"measure\"}[10m]) and on(run, driver)"
                + " last_over_time(ombtx_run_state{run=\"tx-writes\",state=\"done\"}[10m]) == 1";
        JsonNode series = query(query);
        assertEquals(1, series.size(), series.toString());
        assertEquals(
                committed,
                Double.valueOf(series.get(0).get("value").get(1).asText()).longValue(),
                query);
        // A count-based run's workers record only measured operations: its warm-up counted nothing.
        JsonNode warmup = query(
                "last_over_time(ombtx_transactions_committed_total{run=\"tx-writes\"," + "state=\"warm-up\"}[10m])");
        assertEquals(1, warmup.size(), warmup.toString());
        assertEquals("0", warmup.get(0).get("value").get(1).asText(), warmup.toString());
    }

    @Test
    void theShippedDashboardNamesOnlyMetricsTheRunnerExports() throws Exception {
        Set<String> exported = new TreeSet<>();
        json.readTree(get("/api/v1/label/__name__/values")).get("data").forEach(name -> exported.add(name.asText()));
        exported.removeIf(name -> !name.startsWith("ombtx_"));
        assertTrue(exported.contains("ombtx_transactions_committed_total"), exported.toString());

        JsonNode dashboard = json.readTree(
                OmbTxHome.locate().resolve("deploy/grafana/omb-tx.json").toFile());
        List<String> expressions =
                dashboard.findValues("expr").stream().map(JsonNode::asText).collect(Collectors.toList());
        dashboard.findValues("definition").forEach(d -> expressions.add(d.asText()));
        assertTrue(expressions.size() >= 10, expressions.toString());
        Set<String> named = new TreeSet<>();
        for (String expression : expressions) {
            Matcher m = METRIC.matcher(expression);
            boolean any = false;
            while (m.find()) {
                named.add(m.group());
                any = true;
            }
            assertTrue(any, "names no omb-tx metric: " + expression);
        }
        Set<String> unknown = new TreeSet<>(named);
        unknown.removeAll(exported);
        assertTrue(unknown.isEmpty(), "the dashboard names " + unknown + ", not exported; exported: " + exported);
        assertFalse(named.isEmpty());
    }

    /** The result of an instant PromQL query: its vector's series. */
    private JsonNode query(String promql) throws Exception {
        JsonNode answer =
                json.readTree(get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)));
        assertEquals("success", answer.get("status").asText(), answer.toString());
        return answer.get("data").get("result");
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(prometheusUrl + path))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!prometheus.isAlive()) {
                fail("prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
            }
            try {
                HttpResponse<String> ready = http.send(
                        HttpRequest.newBuilder(URI.create(prometheusUrl + "/-/ready"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        fail("prometheus not ready in 60 s: " + Files.readString(dir.resolve("prometheus.log")));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

package io.ombtx.runner.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.Phase;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Histograms;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The live metrics as Prometheus reads them: a period's figures over real HTTP, in the text format. */
class MetricsServerTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> scrape(MetricsServer server, String authorization) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + MetricsServer.PATH));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static StatsSnapshot period() {
        Histogram commit = Histograms.create();
        for (int micros = 1; micros <= 1000; micros++) {
            commit.recordValue(micros);
        }
        return new StatsSnapshot()
                .put(Counter.COMMITTED, 40)
                .put(Counter.OPERATIONS, 40)
                .put(Counter.MESSAGES_SENT, 80)
                .put(Phase.COMMIT, commit)
                .put(Latency.OPERATION_LATENCY, commit.copy());
    }

    @Test
    void aPeriodIsServedAsCountersRatesAndQuantilesLabelledByRunDriverAndState() throws Exception {
        LiveMetrics metrics = new LiveMetrics();
        try (MetricsServer server = MetricsServer.start("127.0.0.1", 0, metrics, null)) {
            LiveMetrics.Run run = metrics.run("tx-writes", "kafka-tx");
            run.period(LiveMetrics.State.WARM_UP, 2.0, period(), 7);
            run.state(LiveMetrics.State.MEASURE);
            run.period(LiveMetrics.State.MEASURE, 2.0, period(), 0);
            run.count(LiveMetrics.State.MEASURE, new StatsSnapshot().put(Counter.COMMITTED, 2));
            String text = scrape(server, null).body();
            String labels = "{driver=\"kafka-tx\",run=\"tx-writes\",state=\"measure\"}";
            assertTrue(text.contains("ombtx_transactions_committed_total" + labels + " 42.0"), text);
            assertTrue(
                    text.contains("ombtx_transactions_committed_total{driver=\"kafka-tx\",run=\"tx-writes\","
                            + "state=\"warm-up\"} 40.0"),
                    text);
            assertTrue(text.contains("ombtx_transactions_aborted_total" + labels + " 0.0"), text);
            assertTrue(text.contains("ombtx_publish_rate" + labels + " 40.0"), text);
            assertTrue(
                    text.contains(
                            "ombtx_backlog_messages{driver=\"kafka-tx\",run=\"tx-writes\"," + "state=\"warm-up\"} 7.0"),
                    text);
            assertTrue(
                    text.contains("ombtx_phase_latency_seconds{driver=\"kafka-tx\",phase=\"commit\","
                            + "quantile=\"1\",run=\"tx-writes\",state=\"measure\"} 0.001"),
                    text);
            assertTrue(
                    text.contains("ombtx_latency_seconds{driver=\"kafka-tx\",latency=\"operation\","
                            + "quantile=\"0.5\",run=\"tx-writes\",state=\"measure\"} 5.0E-4"),
                    text);
            assertTrue(text.contains("ombtx_run_state" + labels + " 1.0"), text);
            assertTrue(text.contains("ombtx_run_state{driver=\"kafka-tx\",run=\"tx-writes\",state=\"warm-up\"} 0.0"));
        }
    }

    @Test
    void theLingerEndsWithTheFirstScrapeBegunAfterTheMark() throws Exception {
        LiveMetrics metrics = new LiveMetrics();
        try (MetricsServer server = MetricsServer.start("127.0.0.1", 0, metrics, null)) {
            scrape(server, null);
            long mark = server.mark();
            assertFalse(server.awaitScrapeAfter(mark, Duration.ofMillis(50)), "no scrape since the mark");
            scrape(server, null);
            assertTrue(server.awaitScrapeAfter(mark, Duration.ofSeconds(30)));
        }
    }

    @Test
    void aServerWithATokenAnswers401ToAScrapeWithoutIt() throws Exception {
        LiveMetrics metrics = new LiveMetrics();
        try (MetricsServer server =
                MetricsServer.start("127.0.0.1", 0, metrics, header -> "Bearer secret".equals(header))) {
            metrics.run("tx-writes", "kafka-tx");
            assertEquals(401, scrape(server, null).statusCode());
            assertEquals(401, scrape(server, "Bearer wrong").statusCode());
            HttpResponse<String> admitted = scrape(server, "Bearer secret");
            assertEquals(200, admitted.statusCode());
            assertTrue(admitted.body().contains("ombtx_transactions_committed_total{"), admitted.body());
        }
    }
}

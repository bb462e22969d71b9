package io.ombtx.driver.redpanda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.ombtx.broker.junit.BootstrapServers;
import io.ombtx.broker.junit.EmbeddedKafka;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationProducer;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.bookkeeper.stats.NullStatsLogger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Redpanda flavour against the embedded Kafka broker: as it is (Kafka, so its Redpanda-only steps skipped), and
 * taken for Redpanda with a stand-in for Redpanda's Admin API on loopback (the Redpanda path).
 */
@EmbeddedKafka
class RedpandaDriverTest {

    private final String bootstrap;

    @TempDir
    Path dir;

    RedpandaDriverTest(@BootstrapServers String bootstrap) {
        this.bootstrap = bootstrap;
    }

    private Path yaml(String adminApiUrl) throws IOException {
        Path file = dir.resolve("redpanda-tx-" + UUID.randomUUID() + ".yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: redpanda-tx-test",
                        "driverClass: " + RedpandaTxBenchmarkDriver.class.getName(),
                        adminApiUrl == null ? "" : "adminApiUrl: " + adminApiUrl,
                        "replicationFactor: 1",
                        "topicConfig: |",
                        "  min.insync.replicas=1",
                        "  flush.messages=1",
                        "  retention.ms=3600000",
                        "commonConfig: |",
                        "  bootstrap.servers=" + bootstrap,
                        "producerConfig: |",
                        "  acks=all",
                        "  linger.ms=0",
                        "  retry.backoff.ms=0",
                        ""));
        return file;
    }

    /** A stand-in for Redpanda's Admin API answering GET /v1/cluster_config with {@code json}. */
    private static HttpServer fakeAdminApi(String json) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/cluster_config", exchange -> {
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    private static String url(HttpServer server) {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The configs of a topic {@code driver} creates, as the broker describes them. */
    private Config createdTopicConfig(RedpandaTxBenchmarkDriver driver, String topic, int partitions) throws Exception {
        driver.createTopic(topic, partitions).get(60, TimeUnit.SECONDS);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            return admin.describeConfigs(Set.of(resource))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(resource);
        }
    }

    @Test
    void onApacheKafkaItSkipsTheRedpandaOnlyStepsAndSaysWhichInOneLine() throws Exception {
        // An Admin API that would fail the run if read: on Kafka it is not read at all.
        HttpServer api = fakeAdminApi("{\"enable_transactions\": false}");
        Path file = yaml(url(api));
        try (RedpandaTxBenchmarkDriver driver = new RedpandaTxBenchmarkDriver()) {
            driver.initialize(file.toFile(), NullStatsLogger.INSTANCE);
            Map<String, Object> environment = driver.environment();
            @SuppressWarnings("unchecked")
            Map<String, Object> preflight = (Map<String, Object>) environment.get("preflight");
            assertEquals("apache-kafka", preflight.get("brokerFlavour"));
            assertEquals(true, preflight.get("transactionsAvailable"));
            assertEquals(
                    java.util.List.of("driver redpanda-tx-test: the cluster at " + bootstrap
                            + " is Apache Kafka, not Redpanda (it "
                            + "reports process.roles): skipped the Redpanda-only steps: the Admin API read of "
                            + url(api) + ", the enable_transactions/enable_idempotence check, and the topicConfig "
                            + "filter (every key applied as given: flush.messages, min.insync.replicas, retention.ms)"),
                    preflight.get("notes"));
            assertEquals(null, environment.get("droppedTopicConfigs"));
            assertEquals("4.1.1", environment.get("kafkaClientsVersion"));
            // Kafka's own topic configs reach Kafka: flush.messages is not dropped as it would be for Redpanda.
            Config config = createdTopicConfig(
                    driver, "rp-" + UUID.randomUUID().toString().substring(0, 8), 1);
            assertEquals("1", config.get("flush.messages").value());
            assertEquals(false, config.get("min.insync.replicas").isDefault(), "set on the topic");
        } finally {
            api.stop(0);
        }
    }

    @Test
    void preflightFailsClearlyWhenTheAdminApiSaysTransactionsAreOff() throws Exception {
        HttpServer api = fakeAdminApi("{\"enable_transactions\": false, \"enable_idempotence\": true}");
        try {
            Path file = yaml(url(api));
            IOException e = assertThrows(IOException.class, () -> new RedpandaTxBenchmarkDriver(true)
                    .initialize(file.toFile(), NullStatsLogger.INSTANCE));
            assertTrue(
                    e.getMessage()
                            .startsWith(file + ": the cluster at " + bootstrap
                                    + " cannot run transactional benchmarks: enable_transactions=false (read from "
                                    + url(api)
                                    + "/v1/cluster_config)"),
                    e.getMessage());
        } finally {
            api.stop(0);
        }
    }

    @Test
    void anUnreachableAdminApiIsAnErrorNamingTheKey() throws Exception {
        HttpServer api = fakeAdminApi("{}");
        String deadUrl = url(api);
        api.stop(0);
        IOException e = assertThrows(IOException.class, () -> new RedpandaTxBenchmarkDriver(true)
                .initialize(yaml(deadUrl).toFile(), NullStatsLogger.INSTANCE));
        assertTrue(
                e.getMessage().contains("'adminApiUrl' " + deadUrl + ": cannot read the cluster configuration"),
                e.getMessage());
    }

    @Test
    void withTransactionsOnItRunsTransactionsAndAppliesOnlyRedpandaTopicConfigs() throws Exception {
        HttpServer api = fakeAdminApi("{\"enable_transactions\": true, \"enable_idempotence\": true, "
                + "\"transaction_coordinator_replication\": 3, \"cluster_id\": \"x\", \"nested\": {\"a\": 1}}");
        try (RedpandaTxBenchmarkDriver driver = new RedpandaTxBenchmarkDriver(true)) {
            driver.initialize(yaml(url(api)).toFile(), NullStatsLogger.INSTANCE);
            driver.configureOperation(new OperationSpec(OperationKind.WRITE, true, 2, 2, false, true));
            String topic = "rp-" + UUID.randomUUID().toString().substring(0, 8);
            Config config = createdTopicConfig(driver, topic, 2);
            assertEquals("3600000", config.get("retention.ms").value(), "supported key applied");
            assertTrue(config.get("flush.messages").isDefault(), "unsupported key dropped");
            BenchmarkProducer producer = driver.createProducer(topic).get(60, TimeUnit.SECONDS);
            OperationTimings timings = ((OperationProducer) producer)
                    .runOperation(Optional.empty(), new byte[8])
                    .get(60, TimeUnit.SECONDS);
            assertEquals(OperationTimings.Outcome.COMMITTED, timings.outcome());
            producer.close();
            @SuppressWarnings("unchecked")
            Map<String, Object> preflight =
                    (Map<String, Object>) driver.environment().get("preflight");
            assertEquals("redpanda", preflight.get("brokerFlavour"));
            assertEquals(
                    Map.of(
                            "enable_transactions",
                            "true",
                            "enable_idempotence",
                            "true",
                            "transaction_coordinator_replication",
                            "3"),
                    preflight.get("settings"));
        } finally {
            api.stop(0);
        }
    }
}

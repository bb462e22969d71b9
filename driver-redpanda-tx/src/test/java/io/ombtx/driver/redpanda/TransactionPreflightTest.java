package io.ombtx.driver.redpanda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.kafka.DriverConfig;
import io.ombtx.driver.kafka.DriverConfigParser;
import java.io.File;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TransactionPreflightTest {

    private static final String API = "http://rp:9644/v1/cluster_config";

    @Test
    void kafkaPassesOnItsOwnSettingsAndSaysSo() throws IOException {
        TransactionPreflight.Result result = TransactionPreflight.check(
                "f.yaml", "b:9092", Map.of("transaction.state.log.replication.factor", "3"), null, null);
        assertEquals(TransactionPreflight.Flavour.APACHE_KAFKA, result.flavour());
        assertTrue(
                result.notes().get(0).contains("Apache Kafka"), result.notes().toString());
    }

    @Test
    void theBrokerIsToldBeforeAnythingRedpandaOnlyIsAsked() {
        // Redpanda 22.1 on: cluster id redpanda.<uuid> when cluster_id is unset; its DescribeConfigs of a broker
        // answers Kafka-named keys only (listeners, log.segment.bytes, ...), none of Kafka's own.
        Map<String, String> redpandaBroker =
                Map.of("listeners", "plain://0.0.0.0:9092", "log.segment.bytes", "134217728", "num.partitions", "1");
        assertEquals(
                TransactionPreflight.Flavour.REDPANDA,
                TransactionPreflight.seen("redpanda.0d1f6f2b-5a4a-4c84-8f6e-2b8f3a3c9e10", redpandaBroker));
        assertEquals(TransactionPreflight.Flavour.UNKNOWN, TransactionPreflight.seen("my-cluster", redpandaBroker));
        assertEquals(
                TransactionPreflight.Flavour.APACHE_KAFKA,
                TransactionPreflight.seen("x", Map.of("process.roles", "broker,controller")));
        assertEquals(
                TransactionPreflight.Flavour.APACHE_KAFKA,
                TransactionPreflight.seen(null, Map.of("zookeeper.connect", "127.0.0.1:2181")));
        assertEquals(TransactionPreflight.Flavour.TANSU, TransactionPreflight.seen("tansu_cluster", Map.of()));
    }

    @Test
    void onTansuOneLineNamesEveryStepSkipped() {
        TransactionPreflight.Result result = TransactionPreflight.notRedpanda(
                "driver rp", "b:9092", TransactionPreflight.Flavour.TANSU, "tansu_cluster", Map.of(), null, Map.of());
        assertEquals(TransactionPreflight.Flavour.TANSU, result.flavour());
        assertEquals(
                java.util.List.of("driver rp: the cluster at b:9092 is Tansu, not Redpanda (its cluster id is "
                        + "tansu_cluster): skipped the Redpanda-only steps: no Admin API read (adminApiUrl not set), "
                        + "the enable_transactions/enable_idempotence check, and the topicConfig filter (no topicConfig "
                        + "keys)"),
                result.notes());
        assertEquals("tansu", result.asMap().get("brokerFlavour"));
    }

    @Test
    void transactionsSwitchedOffInTheAdminApiFailWithTheKeyAndSource() {
        IOException e = assertThrows(
                IOException.class,
                () -> TransactionPreflight.check(
                        "redpanda-tx.yaml",
                        "b:9092",
                        Map.of(),
                        Map.of("enable_transactions", "false", "enable_idempotence", "true"),
                        API));
        assertEquals(
                "redpanda-tx.yaml: the cluster at b:9092 cannot run transactional benchmarks: "
                        + "enable_transactions=false (read from " + API + "). Turn it on (e.g. `rpk cluster config set "
                        + "enable_transactions true`) and run again.",
                e.getMessage());
    }

    @Test
    void idempotenceSwitchedOffInTheBrokerConfigFails() {
        IOException e = assertThrows(
                IOException.class,
                () -> TransactionPreflight.check(
                        "r.yaml", "b:9092", Map.of("enable_idempotence", "false"), null, null));
        assertTrue(
                e.getMessage().contains("enable_idempotence=false (read from DescribeConfigs of the broker)"),
                e.getMessage());
    }

    @Test
    void redpandaWithoutReportedSwitchesPassesAssumingDefaultsAndChecksSeedRecommendations() throws IOException {
        TransactionPreflight.Result result = TransactionPreflight.check(
                "r.yaml",
                "b:9092",
                Map.of(),
                Map.of(
                        "transaction_coordinator_delete_retention_ms",
                        "1000",
                        "transactional_id_expiration_ms",
                        "2000",
                        "id_allocator_replication",
                        "3"),
                API);
        assertEquals(TransactionPreflight.Flavour.REDPANDA, result.flavour());
        assertEquals("3", result.settings().get("id_allocator_replication"));
        assertTrue(result.notes().stream().anyMatch(n -> n.startsWith("enable_transactions is not reported")));
        assertTrue(result.notes().stream().anyMatch(n -> n.contains("seed 003 recommends")));
    }

    @Test
    void unsupportedTopicConfigsAreDroppedAndSupportedOnesKept() {
        RedpandaTopicConfigs.Filtered filtered = RedpandaTopicConfigs.filter(Map.of(
                "min.insync.replicas", "2", "flush.messages", "1", "retention.ms", "60000", "write.caching", "false"));
        assertEquals(Map.of("retention.ms", "60000", "write.caching", "false"), filtered.kept());
        assertEquals(
                Set.of("min.insync.replicas", "flush.messages"),
                filtered.dropped().keySet());
    }

    @Test
    void theShippedYamlsParse() throws IOException {
        DriverConfigParser parser = new DriverConfigParser(Set.of(RedpandaTxBenchmarkDriver.ADMIN_API_URL));
        DriverConfig local = parser.parse(new File("redpanda-tx.yaml"));
        assertEquals(RedpandaTxBenchmarkDriver.class.getName(), local.driverClass());
        assertEquals("all", local.producerProperties().getProperty("acks"));
        assertEquals(1, local.replicationFactor(), "runs on one node or the embedded broker as shipped");
        assertEquals(null, local.extras().get("adminApiUrl"), "no Admin API to ask until one is named");
        DriverConfig cluster = parser.parse(new File("redpanda-tx-rf3.yaml"));
        assertEquals(3, cluster.replicationFactor(), "the seeds' 3-node cluster");
        assertEquals(local.producerProperties(), cluster.producerProperties());
    }
}

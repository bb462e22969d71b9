package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.tansu.EmbeddedTansu;
import io.ombtx.runner.result.RunResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What real brokers the project starts answer to the capability probe, on the wire: the transactional APIs' versions
 * of Kafka 4.1.1 (at transaction.version 2, its default, and 1), 3.9.1, 2.8.2 and Tansu 0.6.0, and whether each lets
 * an idempotent and a transactional producer start.
 */
@Tag("integration")
class BrokerCapabilitiesIntegrationTest {

    private static RunResult.Capabilities probe(String bootstrap) throws Exception {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            return KafkaClusters.capabilities(BrokerIdentity.answers(admin, props, 30));
        }
    }

    /** The APIs in {@link BrokerCapabilities#APIS}' order, from "MIN-MAX" ranges ("none": not served). */
    private static Map<String, String> apis(String... ranges) {
        Map<String, String> apis = new LinkedHashMap<>();
        int i = 0;
        for (String name : BrokerCapabilities.APIS.keySet()) {
            apis.put(name, ranges[i++]);
        }
        return apis;
    }

    private static void assertBoth(RunResult.Capabilities c, boolean groupMetadata, boolean v2, boolean kip848) {
        assertEquals(groupMetadata, c.groupMetadata(), c.toString());
        assertEquals(v2, c.transactionV2(), c.toString());
        assertEquals(kip848, c.consumerGroupProtocol(), c.toString());
        assertEquals("allowed", c.idempotentProducer(), c.toString());
        assertEquals("allowed", c.transactionalProducer(), c.toString());
        assertNull(c.problem(), c.toString());
    }

    @Test
    void kafka411ServesEveryCapability() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().start()) {
            RunResult.Capabilities c = probe(kafka.bootstrapServers());
            assertEquals(apis("0-5", "0-5", "0-4", "0-5", "0-5", "0-0", "0-2", "0-1"), c.apis(), c.toString());
            assertBoth(c, true, true, true);
        }
    }

    /** EndTxn v5 is advertised whatever the finalized transaction.version: the level in force is read apart. */
    @Test
    void kafka411AtTransactionVersion1StillAdvertisesEndTxnV5() throws Exception {
        try (EmbeddedKafkaCluster kafka =
                EmbeddedKafkaCluster.builder().transactionVersion(1).start()) {
            RunResult.Capabilities c = probe(kafka.bootstrapServers());
            assertEquals(apis("0-5", "0-5", "0-4", "0-5", "0-5", "0-0", "0-2", "0-1"), c.apis(), c.toString());
            assertBoth(c, true, true, true);
        }
    }

    /** 3.9.1 serves KIP-848's ConsumerGroupHeartbeat v0 (its early-access preview), EndTxn up to v4 only. */
    @Test
    void kafka391HasNoEndTxnV5() throws Exception {
        try (EmbeddedKafkaCluster kafka =
                EmbeddedKafkaCluster.builder().version("3.9.1").start()) {
            RunResult.Capabilities c = probe(kafka.bootstrapServers());
            assertEquals(apis("0-5", "0-5", "0-4", "0-4", "0-4", "0-0", "0-1", "0-0"), c.apis(), c.toString());
            assertBoth(c, true, false, true);
        }
    }

    /** The seeds' 2.8.2: KIP-447's TxnOffsetCommit v3, but no KIP-890, no KIP-848, no transaction admin APIs. */
    @Test
    void kafka282HasNeitherKip890NorKip848() throws Exception {
        try (EmbeddedKafkaCluster kafka =
                EmbeddedKafkaCluster.builder().version("2.8.2").start()) {
            RunResult.Capabilities c = probe(kafka.bootstrapServers());
            assertEquals(apis("0-4", "0-3", "0-3", "0-3", "0-3", "none", "none", "none"), c.apis(), c.toString());
            assertBoth(c, true, false, false);
        }
    }

    @Test
    void tansu060HasNeitherKip890NorKip848() throws Exception {
        try (EmbeddedTansu tansu = EmbeddedTansu.start(line -> {})) {
            RunResult.Capabilities c = probe(tansu.bootstrapServers());
            assertEquals(apis("0-5", "0-5", "0-4", "0-4", "0-4", "none", "none", "none"), c.apis(), c.toString());
            assertBoth(c, true, false, false);
        }
    }
}

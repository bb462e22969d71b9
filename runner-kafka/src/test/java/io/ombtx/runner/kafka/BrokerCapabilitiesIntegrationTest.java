package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.tansu.EmbeddedTansu;
import io.ombtx.runner.result.RunResult;
import java.util.LinkedHashMap;
import java.util.Map;
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
        return KafkaClusters.capabilities(BrokerIdentityIntegrationTest.answers(bootstrap));
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

    /**
     * Kafka {@code version} (null: 4.1.1) at {@code transactionVersion} (null: its default) answers {@code ranges}, has
     * KIP-447's group metadata, has KIP-890 part 2 or not and KIP-848 or not, and lets both producers start.
     */
    private static void assertKafka(
            String version, Integer transactionVersion, String ranges, boolean v2, boolean kip848) throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder()
                .version(version)
                .transactionVersion(transactionVersion)
                .start()) {
            assertCapabilities(probe(kafka.bootstrapServers()), ranges, v2, kip848);
        }
    }

    private static void assertCapabilities(RunResult.Capabilities c, String ranges, boolean v2, boolean kip848) {
        assertEquals(apis(ranges.split(" ")), c.apis(), c.toString());
        assertEquals(true, c.groupMetadata(), c.toString());
        assertEquals(v2, c.transactionV2(), c.toString());
        assertEquals(kip848, c.consumerGroupProtocol(), c.toString());
        assertEquals("allowed", c.idempotentProducer(), c.toString());
        assertEquals("allowed", c.transactionalProducer(), c.toString());
        assertNull(c.problem(), c.toString());
    }

    @Test
    void kafka411ServesEveryCapability() throws Exception {
        assertKafka(null, null, "0-5 0-5 0-4 0-5 0-5 0-0 0-2 0-1", true, true);
    }

    /**
     * EndTxn v5 is advertised whatever the finalized transaction.version: the level in force is read apart. Tagged
     * slow (bin/test slow), as 3.9.1's: 4.1.1 at its default, 2.8.2 and Tansu always run.
     */
    @Tag("slow")
    @Test
    void kafka411AtTransactionVersion1StillAdvertisesEndTxnV5() throws Exception {
        assertKafka(null, 1, "0-5 0-5 0-4 0-5 0-5 0-0 0-2 0-1", true, true);
    }

    /** 3.9.1 serves KIP-848's ConsumerGroupHeartbeat v0 (its early-access preview), EndTxn up to v4 only. */
    @Tag("slow")
    @Test
    void kafka391HasNoEndTxnV5() throws Exception {
        assertKafka("3.9.1", null, "0-5 0-5 0-4 0-4 0-4 0-0 0-1 0-0", false, true);
    }

    /** The seeds' 2.8.2: KIP-447's TxnOffsetCommit v3, but no KIP-890, no KIP-848, no transaction admin APIs. */
    @Test
    void kafka282HasNeitherKip890NorKip848() throws Exception {
        assertKafka("2.8.2", null, "0-4 0-3 0-3 0-3 0-3 none none none", false, false);
    }

    /** Tansu 0.6.0 lets both producers start at InitProducerId v5 (it answers v0 to v2 with UNKNOWN_SERVER_ERROR). */
    @Test
    void tansu060HasNeitherKip890NorKip848() throws Exception {
        try (EmbeddedTansu tansu = EmbeddedTansu.start(line -> {})) {
            assertCapabilities(probe(tansu.bootstrapServers()), "0-5 0-5 0-4 0-4 0-4 none none none", false, false);
        }
    }
}

package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.cluster.BrokerNeeds.Capability;
import io.ombtx.runner.result.RunResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The capabilities read from an ApiVersions answer and the console's line. The answers are the real brokers' (read
 * by BrokerCapabilitiesIntegrationTest): Kafka 4.1.1's and 2.8.2's transactional APIs.
 */
class BrokerCapabilitiesTest {

    private static final Map<Integer, String> KAFKA_411 =
            Map.of(18, "0-4", 22, "0-5", 24, "0-5", 25, "0-4", 26, "0-5", 28, "0-5", 65, "0-0", 66, "0-2", 68, "0-1");
    private static final Map<Integer, String> KAFKA_282 =
            Map.of(18, "0-3", 22, "0-4", 24, "0-3", 25, "0-3", 26, "0-3", 28, "0-3");
    private static final ProducerProbe.Answers ALLOWED = new ProducerProbe.Answers("allowed", "allowed");

    /** KIP-447's group metadata (both brokers have it), KIP-890 part 2's EndTxn v5, KIP-848's heartbeat. */
    private static void assertKips(RunResult.Capabilities c, boolean v2, boolean kip848) {
        assertEquals(
                List.of(true, v2, kip848), List.of(c.groupMetadata(), c.transactionV2(), c.consumerGroupProtocol()));
    }

    @Test
    void kafka411ServesEveryCapability() {
        RunResult.Capabilities c = BrokerCapabilities.of(KAFKA_411, ALLOWED);
        assertEquals("0-5", c.apis().get("EndTxn"));
        assertEquals(
                BrokerCapabilities.APIS.keySet().stream().toList(),
                c.apis().keySet().stream().toList());
        assertTrue(c.groupMetadata());
        assertTrue(c.transactionV2());
        assertTrue(c.consumerGroupProtocol());
        assertNull(c.problem());
        assertEquals(
                "Broker capabilities: InitProducerId 0-5, AddPartitionsToTxn 0-5, AddOffsetsToTxn 0-4, TxnOffsetCommit"
                        + " 0-5 (KIP-447), EndTxn 0-5 (KIP-890 part 2), DescribeTransactions 0-0, ListTransactions 0-2,"
                        + " ConsumerGroupHeartbeat 0-1 (KIP-848); idempotent producer allowed, transactional producer"
                        + " allowed",
                BrokerCapabilities.line(c));
    }

    @Test
    void kafka282LacksKip890AndKip848() {
        RunResult.Capabilities c = BrokerCapabilities.of(
                KAFKA_282,
                new ProducerProbe.Answers(
                        "allowed", "refused: TRANSACTIONAL_ID_AUTHORIZATION_FAILED (53) from InitProducerId"));
        assertEquals("none", c.apis().get("ConsumerGroupHeartbeat"));
        assertEquals("none", c.apis().get("ListTransactions"));
        assertKips(c, false, false);
        assertEquals(
                "Broker capabilities: InitProducerId 0-4, AddPartitionsToTxn 0-3, AddOffsetsToTxn 0-3, TxnOffsetCommit"
                        + " 0-3 (KIP-447), EndTxn 0-3 (no KIP-890 part 2: v5 needed), DescribeTransactions none,"
                        + " ListTransactions none, ConsumerGroupHeartbeat none (no KIP-848); idempotent producer"
                        + " allowed, transactional producer refused: TRANSACTIONAL_ID_AUTHORIZATION_FAILED (53) from"
                        + " InitProducerId",
                BrokerCapabilities.line(c));
    }

    @Test
    void everyNeedIsAnApiTheProbeReads() {
        for (Capability capability : Capability.values()) {
            assertTrue(BrokerCapabilities.APIS.containsKey(capability.api()), capability.api());
        }
    }

    /** Over TLS or SASL the identity does not ask ApiVersions: the capabilities say why, and ask nothing more. */
    @Test
    void aClusterTheProbeCannotSpeakToIsNotProbed() throws Exception {
        String why = "not asked: security.protocol SASL_SSL (the probe speaks plaintext only)";
        RunResult.Capabilities c = KafkaClusters.capabilities(new BrokerIdentity.Answers(
                "c1", 1, 1, "broker1", 9093, null, null, why, java.util.Set.of("process.roles"), null));
        assertFalse(c.probed());
        assertNull(c.apis());
        assertEquals("ApiVersions: " + why, c.problem());
        assertEquals("Broker capabilities not probed: ApiVersions: " + why, BrokerCapabilities.line(c));
    }

    @Test
    void theProbeSendsTheHighestVersionItWrites() {
        assertEquals(5, ProducerProbe.version(KAFKA_411, 22, 0, 5));
        assertEquals(4, ProducerProbe.version(KAFKA_282, 22, 0, 5));
        assertEquals(2, ProducerProbe.version(Map.of(10, "0-6"), 10, 1, 2));
        assertEquals(-1, ProducerProbe.version(Map.of(10, "0-0"), 10, 1, 2));
        assertEquals(-1, ProducerProbe.version(Map.of(10, "3-6"), 10, 1, 2));
        assertEquals(-1, ProducerProbe.version(KAFKA_282, 10, 1, 2));
    }
}

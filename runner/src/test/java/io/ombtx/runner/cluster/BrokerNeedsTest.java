package io.ombtx.runner.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.cluster.BrokerNeeds.Capability;
import io.ombtx.runner.cluster.BrokerNeeds.Need;
import io.ombtx.runner.result.RunResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run's needs against what a broker serves: the first need it lacks is bad input naming the file, the key and the
 * API; a broker whose capabilities are unknown refuses nothing. The versions are the ones real brokers answer
 * (BrokerCapabilitiesIntegrationTest): Kafka 2.8.2 and 4.1.1, Tansu 0.6.0.
 */
class BrokerNeedsTest {

    private static final Need CONSUMER = new Need(
            Capability.CONSUMER_GROUP_PROTOCOL,
            "workloads/w.yaml",
            "groupProtocol",
            "group.protocol=consumer",
            "use group.protocol=classic");
    private static final Need V2 =
            new Need(Capability.TRANSACTION_V2, null, "--transaction-version", "transaction version 2", "ask for 1");
    private static final Need STREAM = new Need(
            Capability.GROUP_METADATA, "workloads/s.yaml", "operation", "a transactional STREAM", "a later broker");

    private static final RunResult.Identity KAFKA = new RunResult.Identity(
            RunResult.Broker.SystemKind.KAFKA, "the broker reports process.roles", List.of(), null);

    private static RunResult.Broker broker(String txnOffsetCommit, String endTxn, String heartbeat) {
        Map<String, String> apis = new LinkedHashMap<>();
        apis.put("InitProducerId", "0-4");
        apis.put("TxnOffsetCommit", txnOffsetCommit);
        apis.put("EndTxn", endTxn);
        apis.put("ConsumerGroupHeartbeat", heartbeat);
        return RunResult.Broker.external(1, "127.0.0.1:9092")
                .withIdentity(
                        KAFKA, "c1", new RunResult.Capabilities(apis, null, null, null, "allowed", "allowed", null));
    }

    @Test
    void kafka411ServesEveryNeed() {
        assertTrue(BrokerNeeds.refusal(List.of(CONSUMER, V2, STREAM), broker("0-5", "0-5", "0-1"))
                .isEmpty());
    }

    @Test
    void kafka282LacksTheConsumerGroupProtocol() {
        ConfigException e = BrokerNeeds.refusal(List.of(STREAM, CONSUMER, V2), broker("0-3", "0-3", "none"))
                .orElseThrow();
        assertEquals("workloads/w.yaml", e.file());
        assertEquals("groupProtocol", e.key());
        assertEquals(
                "group.protocol=consumer needs ConsumerGroupHeartbeat (KIP-848: the consumer group protocol), and the"
                        + " cluster at 127.0.0.1:9092 (kafka) does not serve ConsumerGroupHeartbeat at all (ApiVersions,"
                        + " probed before the load): use group.protocol=classic",
                e.problem());
    }

    @Test
    void tansuLacksEndTxnV5BlamedOnTheFlag() {
        ConfigException e =
                BrokerNeeds.refusal(List.of(V2), broker("0-4", "0-4", "none")).orElseThrow();
        assertEquals(null, e.file());
        assertEquals(
                "--transaction-version: transaction version 2 needs EndTxn v5 (KIP-890 part 2: transaction version"
                        + " 2), and the cluster at 127.0.0.1:9092 (kafka) serves EndTxn 0-4 only (ApiVersions, probed"
                        + " before the load): ask for 1",
                e.getMessage());
    }

    @Test
    void aBrokerBefore25LacksGroupMetadata() {
        ConfigException e = BrokerNeeds.refusal(List.of(STREAM), broker("0-2", "0-1", "none"))
                .orElseThrow();
        assertEquals("operation", e.key());
        assertTrue(e.problem().startsWith("a transactional STREAM needs TxnOffsetCommit v3 (KIP-447"), e.problem());
        assertTrue(e.problem().contains("serves TxnOffsetCommit 0-2 only"), e.problem());
    }

    @Test
    void capabilitiesNotProbedRefuseNothing() {
        RunResult.Broker secured = RunResult.Broker.external(1, "h:9093")
                .withIdentity(
                        KAFKA,
                        "c1",
                        RunResult.Capabilities.notProbed(
                                "ApiVersions: not asked: security.protocol SASL_SSL (the probe speaks plaintext only)"));
        assertTrue(BrokerNeeds.refusal(List.of(CONSUMER, V2, STREAM), secured).isEmpty());
        assertTrue(BrokerNeeds.refusal(List.of(CONSUMER), RunResult.Broker.external(1, "h:9092"))
                .isEmpty());
    }

    @Test
    void eachCapabilityNeedsItsVersion() {
        RunResult.Capabilities c = broker("0-3", "0-4", "0-0").capabilities();
        assertTrue(Capability.GROUP_METADATA.servedBy(c));
        assertFalse(Capability.TRANSACTION_V2.servedBy(c));
        assertTrue(Capability.CONSUMER_GROUP_PROTOCOL.servedBy(c));
        assertFalse(
                Capability.GROUP_METADATA.servedBy(broker("0-2", "0-5", "none").capabilities()));
        assertEquals(-1, c.maxVersion("DescribeTransactions"));
    }
}

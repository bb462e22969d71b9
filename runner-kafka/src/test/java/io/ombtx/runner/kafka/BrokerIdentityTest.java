package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.result.RunResult.Broker.SystemKind;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The rules that tell a broker system from what a cluster answered, in their order, and the evidence each result
 * carries. Redpanda's rule is its documented cluster id form ({@code redpanda.<uuid>}, given by Redpanda 22.1 on to a
 * cluster whose cluster_id is not set); Tansu's are its 0.6.0 binary's ApiVersions and default cluster id; Kafka's
 * its own broker settings.
 */
class BrokerIdentityTest {

    private static final Map<Integer, String> SOME_VERSIONS = Map.of(0, "0-11", 18, "0-4", 26, "0-5", 68, "0-1");

    private static BrokerIdentity.Answers answers(
            String clusterId, Map<Integer, String> versions, Set<String> settings) {
        return new BrokerIdentity.Answers(
                clusterId,
                1,
                1,
                "127.0.0.1",
                9092,
                null,
                versions,
                versions == null ? "not asked: security.protocol SSL (the probe speaks plaintext only)" : null,
                settings,
                settings == null ? "refused" : null);
    }

    @Test
    void aRedpandaClusterIdIsRedpandaWhateverElseItShows() {
        RunResult.Identity identity = BrokerIdentity.identify(
                answers("redpanda.0b1f9ad2-5f0e-4c53-a0c8-9a1c7e2b1d44", SOME_VERSIONS, Set.of("process.roles")));
        assertEquals(SystemKind.REDPANDA, identity.system());
        assertTrue(identity.rule().contains("redpanda.<uuid>"), identity.rule());
        assertEquals(
                "DescribeCluster: cluster id redpanda.0b1f9ad2-5f0e-4c53-a0c8-9a1c7e2b1d44, 1 node(s)",
                identity.evidence().get(0));
    }

    @Test
    void tansusApiVersionsAreTansuUnderAnyClusterId() {
        RunResult.Identity identity =
                BrokerIdentity.identify(answers("my-own-id", BrokerIdentity.TANSU_0_6_0, Set.of()));
        assertEquals(SystemKind.TANSU, identity.system());
        assertEquals("ApiVersions is Tansu 0.6.0's, API for API and version for version", identity.rule());
        assertEquals("ApiVersions of broker 1: 36 APIs", identity.evidence().get(1));
        assertEquals("0-11", identity.apiVersions().get("0"));
        assertEquals(36, identity.apiVersions().size());
    }

    @Test
    void onlyTheExactAnswerIsTansus() {
        Map<Integer, String> changed = new TreeMap<>(BrokerIdentity.TANSU_0_6_0);
        changed.put(26, "0-5"); // EndTxn v5: not what 0.6.0 answers
        RunResult.Identity identity = BrokerIdentity.identify(answers("my-own-id", changed, Set.of()));
        assertEquals(SystemKind.UNKNOWN, identity.system());
    }

    @Test
    void tansusDefaultClusterIdIsTansuWhenApiVersionsCouldNotBeAsked() {
        RunResult.Identity identity = BrokerIdentity.identify(answers("tansu_cluster", null, null));
        assertEquals(SystemKind.TANSU, identity.system());
        assertEquals("the cluster id is tansu_cluster, Tansu's default", identity.rule());
        assertEquals(
                "ApiVersions: not asked: security.protocol SSL (the probe speaks plaintext only)",
                identity.evidence().get(1));
        assertEquals("DescribeConfigs: refused", identity.evidence().get(2));
        assertNull(identity.apiVersions());
    }

    @Test
    void kafkasOwnBrokerSettingsAreKafka() {
        RunResult.Identity kraft = BrokerIdentity.identify(
                answers("b21iLXR4LWJlbmNobWFyaw", SOME_VERSIONS, Set.of("log.dirs", "process.roles")));
        assertEquals(SystemKind.KAFKA, kraft.system());
        assertEquals("the broker reports process.roles, a setting of Apache Kafka's own (KRaft)", kraft.rule());
        assertEquals(
                "DescribeConfigs of broker 1: 2 setting(s), among them process.roles",
                kraft.evidence().get(2));
        RunResult.Identity zooKeeper =
                BrokerIdentity.identify(answers("b21iLXR4LWJlbmNobWFyaw", null, Set.of("zookeeper.connect")));
        assertEquals(SystemKind.KAFKA, zooKeeper.system());
        assertTrue(zooKeeper.rule().contains("ZooKeeper mode"), zooKeeper.rule());
    }

    /** What every result used to say "kafka" to: a cluster with no id and nothing to tell it by. */
    @Test
    void aClusterNoRuleMatchesIsUnknownWithItsEvidence() {
        RunResult.Identity identity = BrokerIdentity.identify(answers(null, SOME_VERSIONS, Set.of("log.dirs")));
        assertEquals(SystemKind.UNKNOWN, identity.system());
        assertTrue(identity.rule().startsWith("no rule matched"), identity.rule());
        assertEquals(
                List.of(
                        "DescribeCluster: cluster id none, 1 node(s)",
                        "ApiVersions of broker 1: 4 APIs",
                        "DescribeConfigs of broker 1: 1 setting(s)"),
                identity.evidence());
    }
}

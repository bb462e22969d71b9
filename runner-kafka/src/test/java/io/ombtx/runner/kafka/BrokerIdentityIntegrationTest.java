package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.broker.tansu.EmbeddedTansu;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.result.RunResult.Broker.SystemKind;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The broker system told from the wire by real brokers the project starts: Apache Kafka 4.1.1 (KRaft, the built-in
 * release), 3.9.1 (KRaft) and 2.8.2 (ZooKeeper mode, the seeds' release) say what Kafka says, Tansu 0.6.0 what Tansu
 * says.
 */
@Tag("integration")
class BrokerIdentityIntegrationTest {

    /** What the cluster at {@code bootstrap} answers the identity's probes (Admin and ApiVersions). */
    static BrokerIdentity.Answers answers(String bootstrap) throws Exception {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            return BrokerIdentity.answers(admin, props, 30);
        }
    }

    private static RunResult.Identity identify(String bootstrap) throws Exception {
        return BrokerIdentity.identify(answers(bootstrap));
    }

    /** Kafka {@code version} (null: the built-in 4.1.1) identified as Kafka by its setting {@code setting}. */
    private static RunResult.Identity kafka(String version, String setting) throws Exception {
        try (EmbeddedKafkaCluster kafka =
                EmbeddedKafkaCluster.builder().version(version).start()) {
            RunResult.Identity identity = identify(kafka.bootstrapServers());
            assertEquals(SystemKind.KAFKA, identity.system(), identity.toString());
            assertTrue(identity.rule().contains(setting), identity.rule());
            return identity;
        }
    }

    @Test
    void kafka411IsKafkaByItsKRaftSetting() throws Exception {
        RunResult.Identity identity = kafka(null, "process.roles");
        // KIP-890's EndTxn v5 and KIP-848's ConsumerGroupHeartbeat (68) are 4.x's.
        assertEquals("5", identity.apiVersions().get("26").split("-")[1], identity.toString());
        assertTrue(identity.apiVersions().containsKey("68"), identity.toString());
    }

    @Test
    void kafka391IsKafkaByItsKRaftSetting() throws Exception {
        RunResult.Identity identity = kafka("3.9.1", "process.roles");
        // EndTxn stops at v4 before 4.0; 3.9.1 already answers ConsumerGroupHeartbeat v0 (KIP-848's preview).
        assertEquals("0-4", identity.apiVersions().get("26"), identity.toString());
        assertEquals("0-0", identity.apiVersions().get("68"), identity.toString());
    }

    @Test
    void kafka282IsKafkaByItsZooKeeperSetting() throws Exception {
        RunResult.Identity identity = kafka("2.8.2", "zookeeper.connect");
        assertFalse(identity.apiVersions().containsKey("68"), identity.toString());
    }

    @Test
    void tansu060IsTansuByItsApiVersions() throws Exception {
        try (EmbeddedTansu tansu = EmbeddedTansu.start(line -> {})) {
            RunResult.Identity identity = identify(tansu.bootstrapServers());
            assertEquals(SystemKind.TANSU, identity.system(), identity.toString());
            assertEquals("ApiVersions is Tansu 0.6.0's, API for API and version for version", identity.rule());
            assertEquals(
                    "DescribeCluster: cluster id tansu_cluster, 1 node(s)",
                    identity.evidence().get(0));
        }
    }
}

package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A secured embedded cluster: the admin principal is a super user, the benchmark's has nothing ungranted. */
@Tag("integration")
class SecuredClusterTest {

    @Test
    void mutualTlsAdminCreatesTopicsAndTheBenchmarkPrincipalWithoutAclsMayNot() throws Exception {
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                .security(ClusterSecurity.Mode.MTLS)
                .start()) {
            ClusterSecurity security = cluster.security().orElseThrow();
            assertEquals("SSL", security.clientSettings(ClusterSecurity.BENCH).get("security.protocol"));
            for (String value : security.clientSettings(ClusterSecurity.BENCH).values()) {
                assertFalse(value.contains(passwordOf(cluster)), "no secret in a client's settings: " + value);
            }
            try (Admin admin = admin(cluster, security.clientSettings(ClusterSecurity.ADMIN))) {
                admin.createTopics(Set.of(new NewTopic("granted-by-admin", 1, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
            try (Admin bench = admin(cluster, security.clientSettings(ClusterSecurity.BENCH))) {
                ExecutionException refused = assertThrows(ExecutionException.class, () -> bench.createTopics(
                                Set.of(new NewTopic("not-granted", 1, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS));
                assertInstanceOf(TopicAuthorizationException.class, refused.getCause());
            }
            assertTrue(Files.exists(cluster.workDir().resolve("security/ca.pem")));
        }
    }

    private static String passwordOf(EmbeddedKafkaCluster cluster) throws Exception {
        Properties secrets = new Properties();
        try (var in = Files.newBufferedReader(cluster.workDir().resolve("security/omb-tx-bench.properties"))) {
            secrets.load(in);
        }
        return secrets.getProperty("keystore.password");
    }

    private static Admin admin(EmbeddedKafkaCluster cluster, java.util.Map<String, String> settings) {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.putAll(settings);
        return Admin.create(props);
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.broker.ClusterSecurity;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.Main;
import io.ombtx.runner.OmbTxHome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One SASL_SSL (SCRAM-SHA-512) cluster with its authorizer on, started once, and the shipped workloads run on it
 * through bin/benchmark's code path as the benchmark's principal, its credentials reaching the driver only as
 * {@code ${file:…}} references: tx-streaming passes the exactly-once check, a plain PUBLISH runs, and without its
 * TransactionalId ACL the run stops before the load, exit 2, naming the resource and the operation.
 */
@Tag("integration")
class SecuredSaslRunTest {

    private static final String BENCH = ClusterSecurity.principal(ClusterSecurity.BENCH);

    private static EmbeddedKafkaCluster cluster;

    @TempDir
    Path dir;

    private Path driver;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedKafkaCluster.builder()
                .security(ClusterSecurity.Mode.SASL_SCRAM)
                .start();
        grant(acl(
                ResourceType.TOPIC,
                "omb-tx-",
                AclOperation.CREATE,
                AclOperation.DESCRIBE,
                AclOperation.WRITE,
                AclOperation.READ));
        grant(acl(ResourceType.GROUP, "sub-", AclOperation.READ));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void driverFile() throws Exception {
        grant(transactionalIds());
        String security = cluster.security().orElseThrow().clientSettings(ClusterSecurity.BENCH).entrySet().stream()
                .map(e -> "  " + e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n"));
        driver = Files.writeString(
                dir.resolve("kafka-tx-sasl.yaml"),
                "name: kafka-tx-sasl\n"
                        + "driverClass: io.ombtx.driver.kafka.KafkaTxBenchmarkDriver\n"
                        + "replicationFactor: 1\n"
                        + "commonConfig: |\n  bootstrap.servers=" + cluster.bootstrapServers() + "\n" + security + "\n"
                        + "producerConfig: |\n  acks=all\n  linger.ms=0\n"
                        + "consumerConfig: |\n  auto.offset.reset=earliest\n  enable.auto.commit=false\n");
    }

    private record Run(int code, String out, String err, Path result) {}

    private Run run(String workload) throws Exception {
        Path result = dir.resolve(workload.replace(".yaml", ".json"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(
                new String[] {
                    "-d",
                    driver.toString(),
                    "--profile",
                    "quick",
                    "-o",
                    result.toString(),
                    OmbTxHome.locate().resolve("workloads").resolve(workload).toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), result);
    }

    @Test
    void txStreamingPassesExactlyOnceOverSaslSslAndRecordsTheProtocol() throws Exception {
        Run r = run("tx-streaming.yaml");
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode result = new ObjectMapper().readTree(r.result().toFile());
        assertEquals("complete", result.get("status").asText());
        assertEquals("SASL_SSL", result.get("broker").get("securityProtocol").asText());
        assertTrue(r.out().contains("Exactly-once: 400 checked, 0 duplicated, 0 missing, 0 unexpected: PASS"), r.out());
        String text = Files.readString(r.result());
        assertFalse(text.contains(password()), "no password in the result");
        JsonNode common = result.get("driverConfig").get("commonConfig");
        assertTrue(common.asText().contains("sasl.jaas.config=<redacted>\n"), common.asText());
    }

    @Test
    void aPlainPublishRunsAsTheBenchmarkPrincipal() throws Exception {
        Run r = run("base-writes.yaml");
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode result = new ObjectMapper().readTree(r.result().toFile());
        assertEquals("complete", result.get("status").asText());
        assertEquals("SASL_SSL", result.get("broker").get("securityProtocol").asText());
        assertTrue(result.get("aggregatedPublishLatencyAvg").asDouble() > 0, result.toString());
    }

    @Test
    void withoutItsTransactionalIdAclTheRunStopsBeforeTheLoadNamingIt() throws Exception {
        try (Admin admin = admin()) {
            admin.deleteAcls(List.of(transactionalIds().toFilter())).all().get(30, TimeUnit.SECONDS);
        }
        Run r = run("tx-streaming.yaml");
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(
                "error: User:<the driver's principal> may not WRITE/DESCRIBE TransactionalId omb-tx-*: the cluster"
                        + " refused it (TransactionalIdAuthorizationException) before the load; grant WRITE, DESCRIBE on"
                        + " TRANSACTIONAL_ID omb-tx-* to User:<the driver's principal> (the dry run prints the"
                        + " kafka-acls.sh line)\n",
                r.err(),
                "one line, no stack trace");
        assertFalse(r.out().contains("Created 1 topic"), "refused before the topics: " + r.out());
        assertFalse(Files.exists(r.result()), "no result for a run that never started");
    }

    private static String password() throws Exception {
        Properties secrets = new Properties();
        try (var in = Files.newBufferedReader(cluster.workDir().resolve("security/omb-tx-bench.properties"))) {
            secrets.load(in);
        }
        return secrets.getProperty("password");
    }

    private static AclBinding transactionalIds() {
        return acl(ResourceType.TRANSACTIONAL_ID, "omb-tx-", AclOperation.WRITE, AclOperation.DESCRIBE)
                .get(0);
    }

    private static List<AclBinding> acl(ResourceType type, String prefix, AclOperation... operations) {
        ResourcePattern pattern = new ResourcePattern(type, prefix, PatternType.PREFIXED);
        return java.util.Arrays.stream(operations)
                .map(op -> new AclBinding(pattern, new AccessControlEntry(BENCH, "*", op, AclPermissionType.ALLOW)))
                .toList();
    }

    private static void grant(AclBinding binding) throws Exception {
        grant(List.of(binding));
    }

    private static void grant(List<AclBinding> bindings) throws Exception {
        try (Admin admin = admin()) {
            admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static Admin admin() {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.putAll(cluster.adminClientSettings());
        return Admin.create(props);
    }
}

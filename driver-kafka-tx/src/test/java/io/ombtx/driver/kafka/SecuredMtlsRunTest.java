package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.runner.Main;
import io.ombtx.runner.OmbTxHome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped tx-writes (quick) with {@code --broker-security mtls}: the runner starts the embedded Kafka with a
 * mutual-TLS client listener and its authorizer on, grants the benchmark's principal exactly the ACLs the workload
 * needs, and every transaction commits as that principal.
 */
@Tag("integration")
class SecuredMtlsRunTest {

    @TempDir
    Path dir;

    @Test
    void txWritesCommitsEveryTransactionOverMutualTlsWithOnlyItsAcls() throws Exception {
        Path home = OmbTxHome.locate();
        Path result = dir.resolve("tx-writes-mtls.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(
                new String[] {
                    "-d",
                    home.resolve("driver-kafka-tx/kafka-tx.yaml").toString(),
                    "--broker-security",
                    "mtls",
                    "--profile",
                    "quick",
                    "-o",
                    result.toString(),
                    home.resolve("workloads/tx-writes.yaml").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String console = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, console);
        assertTrue(
                console.contains("Secured with mtls (SSL): User:omb-tx-bench may CREATE, DESCRIBE, WRITE on TOPIC"
                        + " omb-tx-*; WRITE, DESCRIBE on TRANSACTIONAL_ID omb-tx-*\n"),
                console);
        JsonNode r = new ObjectMapper().readTree(result.toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        assertEquals(
                300, r.get("counts").get("committed").asLong(), r.get("counts").toString());
        assertEquals(0, r.get("counts").get("failed").asLong(), r.get("counts").toString());
        assertEquals("SSL", r.get("broker").get("securityProtocol").asText());
        String common = r.get("driverConfig").toString();
        assertTrue(common.contains("ssl.keystore.location"), common);
    }
}

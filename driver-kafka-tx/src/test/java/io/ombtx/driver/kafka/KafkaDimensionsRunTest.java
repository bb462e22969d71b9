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
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's transaction dimensions end to end on the built-in Kafka 4.1 broker, through bin/benchmark's code path:
 * a shipped scenario (quick) with one workload key added, and the result saying what the broker and the client
 * report — the effective broker setting read back with Admin {@code describeConfigs}, the consumers' group
 * protocol from their own config, and each group's protocol as the broker describes the group.
 */
@Tag("integration")
class KafkaDimensionsRunTest {

    @TempDir
    Path dir;

    /** Runs the shipped workload {@code name} (quick) with {@code extraKeys} appended; returns the result. */
    private JsonNode run(String name, String extraKeys) throws Exception {
        Path home = OmbTxHome.locate();
        String shipped = Files.readString(home.resolve("workloads/" + name + ".yaml"));
        Path workload = Files.writeString(dir.resolve(name + ".yaml"), shipped + extraKeys);
        Path result = dir.resolve(name + ".json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(
                new String[] {
                    "-d",
                    home.resolve("driver-kafka-tx/kafka-tx.yaml").toString(),
                    "--profile",
                    "quick",
                    "-o",
                    result.toString(),
                    workload.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        assertEquals(0, code, out.toString(StandardCharsets.UTF_8));
        JsonNode r = new ObjectMapper().readTree(result.toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        return r;
    }

    @Test
    void partitionVerificationOffOn41IsReadBackFromTheBroker() throws Exception {
        JsonNode r = run("tx-writes", "partitionVerification: false\n");
        assertEquals(
                "false",
                r.get("broker")
                        .get("settings")
                        .get("transaction.partition.verification.enable")
                        .asText(),
                r.get("broker").toString());
        JsonNode readBack = r.get("environment").get("brokerSettings");
        assertEquals(
                "false",
                readBack.get("transaction.partition.verification.enable").asText(),
                readBack.toString());
        assertEquals(
                "false", readBack.get("transaction.two.phase.commit.enable").asText(), readBack.toString());
        assertEquals(
                "classic,consumer,streams",
                readBack.get("group.coordinator.rebalance.protocols").asText());
        assertTrue(
                r.get("counts").get("committed").asLong() > 0, r.get("counts").toString());
        JsonNode producer = r.get("environment").get("producerSettings");
        assertEquals("1000", producer.get("retry.backoff.max.ms").asText(), producer.toString());
    }

    @Test
    void transactionalStreamingWithTheConsumerGroupProtocolCommitsExactlyOnce() throws Exception {
        JsonNode r = run("tx-streaming", "groupProtocol: consumer\n");
        JsonNode environment = r.get("environment");
        assertEquals(
                "consumer",
                environment.get("consumerSettings").get("group.protocol").asText());
        JsonNode groups = environment.get("consumerGroupProtocols");
        assertEquals(1, groups.size(), environment.toString());
        groups.forEach(protocol -> assertEquals("consumer", protocol.asText(), groups.toString()));
        assertTrue(
                r.get("exactlyOnce").get("passed").asBoolean(),
                r.get("exactlyOnce").toString());
        assertTrue(
                r.get("counts").get("committed").asLong() >= 300,
                r.get("counts").toString());
    }

    @Test
    void naiveStreamingWithTheConsumerGroupProtocolCommitsItsOffsets() throws Exception {
        JsonNode r = run("base-streaming", "groupProtocol: consumer\n");
        JsonNode environment = r.get("environment");
        assertEquals(
                "consumer",
                environment.get("consumerSettings").get("group.protocol").asText());
        JsonNode groups = environment.get("consumerGroupProtocols");
        assertEquals(1, groups.size(), environment.toString());
        groups.forEach(protocol -> assertEquals("consumer", protocol.asText(), groups.toString()));
        assertEquals(0, r.get("counts").get("failed").asLong(), r.get("counts").toString());
        assertTrue(
                r.get("counts").get("messagesProcessed").asLong() >= 300,
                r.get("counts").toString());
    }
}

package io.ombtx.driver.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner knows no broker: the runner module depends on no Kafka jar (Kafka's cluster system is the runner-kafka
 * module), so this module's test class path — the runner, this driver and their libraries — holds none. An Aeron run
 * goes through bin/benchmark's entry point ({@code Main.run}: plan, local worker, driver, stats, result file) in a
 * class loader of that class path alone, where any Kafka class the run touched would fail it with a
 * {@link NoClassDefFoundError}.
 */
class AeronRunsWithoutKafkaTest {

    @TempDir
    Path dir;

    /** This test's class path, which has no Kafka jar (or, in the reactor, a Kafka module's classes) on it. */
    private static URL[] classPathWithoutKafka() throws Exception {
        List<URL> urls = new ArrayList<>();
        List<String> kafka = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = entry.replace('\\', '/');
            if (name.contains("/kafka-clients")
                    || name.contains("/kafka-broker")
                    || name.contains("/kafka_")
                    || name.contains("/runner-kafka")) {
                kafka.add(entry);
            } else if (!entry.isBlank()) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        assertEquals(List.of(), kafka, "the runner and the Aeron driver bring no Kafka jar");
        return urls.toArray(URL[]::new);
    }

    @Test
    void anAeronPlanRunsThroughTheRunnerWithNoKafkaClassOnItsClassPath() throws Exception {
        Path workload = Files.writeString(
                dir.resolve("w.yaml"), "name: plain\nmessageSize: 100\nwarmupOperations: 0\nmeasureOperations: 500\n");
        Path results = dir.resolve("results");
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader noKafka =
                new URLClassLoader("no-kafka", classPathWithoutKafka(), ClassLoader.getPlatformClassLoader())) {
            assertThrows(
                    ClassNotFoundException.class,
                    () -> Class.forName("org.apache.kafka.clients.producer.KafkaProducer", false, noKafka),
                    "kafka-clients is not on this class path");
            assertThrows(
                    ClassNotFoundException.class,
                    () -> Class.forName("io.ombtx.broker.EmbeddedKafkaCluster", false, noKafka),
                    "kafka-broker is not on this class path");
            Thread.currentThread().setContextClassLoader(noKafka);
            Class<?> main = Class.forName("io.ombtx.runner.Main", true, noKafka);
            assertEquals(noKafka, main.getClassLoader(), "the runner itself is loaded without Kafka");
            Method run = main.getMethod("run", String[].class, PrintStream.class, PrintStream.class);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            String[] args = {"-d", "aeron-ipc.yaml", "-o", results.toString(), "-q", workload.toString()};
            int code = (int) run.invoke(
                    null,
                    args,
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(0, code, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(results)) {
            files = list.toList();
        }
        assertEquals(1, files.size(), files.toString());
        JsonNode result = new ObjectMapper().readTree(files.get(0).toFile());
        assertEquals("complete", result.path("status").asText());
        assertEquals(500, result.path("counts").path("messagesSent").asLong());
        assertEquals(500, result.path("counts").path("messagesReceived").asLong());
        assertFalse(result.path("broker").path("embedded").asBoolean());
        assertTrue(
                result.path("versions").path("kafkaClients").isNull()
                        || result.path("versions").path("kafkaClients").isMissingNode(),
                "no kafka-clients version to report: " + result.path("versions"));
    }
}

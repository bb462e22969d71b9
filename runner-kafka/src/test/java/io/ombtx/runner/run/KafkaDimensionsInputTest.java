package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's transaction dimensions since the seeds, as workload keys and plain settings, checked against the chosen
 * broker and client releases by dry runs (no broker starts): a dimension a release lacks is exit 2 naming the file,
 * the key and the release. The releases' jars come from the cache (fetched from Maven Central on first use).
 */
class KafkaDimensionsInputTest {

    @TempDir
    Path dir;

    private Main.Captured run(String... args) {
        return Main.capture(args);
    }

    private Main.Captured dryRun(String workloadText) throws Exception {
        Path driver = Files.writeString(
                dir.resolve("driver.yaml"), "name: test\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n");
        Path workload = Files.writeString(
                dir.resolve("w.yaml"), "name: w\nmessageSize: 10\nmeasureOperations: 5\n" + workloadText);
        return run("-d", driver.toString(), "--dry-run", workload.toString());
    }

    private static void assertBadInput(Main.Captured o, String... fragments) {
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals(1, o.err().lines().count(), "one line: " + o.err());
        assertTrue(o.err().startsWith("error: "), o.err());
        for (String fragment : fragments) {
            assertTrue(o.err().contains(fragment), "expected '" + fragment + "' in: " + o.err());
        }
        assertFalse(o.err().contains("Exception"), "no exception class names: " + o.err());
    }

    @Test
    void partitionVerificationOnAReleaseWithoutItIsBadInputNamingTheKeyAndTheRelease() throws Exception {
        assertBadInput(
                dryRun("brokerVersion: 3.3.2\npartitionVerification: false\n"),
                "w.yaml",
                "'partitionVerification'",
                "Kafka 3.3.2 has no broker setting 'transaction.partition.verification.enable'",
                "came with Kafka 3.6");
    }

    @Test
    void partitionVerificationOffIsABrokerSettingOnReleasesThatHaveIt() throws Exception {
        for (String release : new String[] {"3.6.2", "4.1.1"}) {
            Main.Captured o = dryRun("brokerVersion: " + release + "\npartitionVerification: false\n");
            assertEquals(0, o.code(), o.err());
            assertTrue(o.out().contains("transaction.partition.verification.enable=false"), o.out());
        }
    }

    @Test
    void partitionVerificationTakesTrueOrFalseAndOnlyOnce() throws Exception {
        assertBadInput(
                dryRun("partitionVerification: sometimes\n"), "'partitionVerification'", "expected true or false");
        assertBadInput(
                dryRun("partitionVerification: false\n"
                        + "brokerSettings: {transaction.partition.verification.enable: true}\n"),
                "'partitionVerification'",
                "give it once");
    }

    @Test
    void theCoordinatorLingerIsUnknownToReleasesBefore39() throws Exception {
        assertBadInput(
                dryRun("brokerVersion: 3.7.2\nbrokerSettings: {group.coordinator.append.linger.ms: 0}\n"),
                "w.yaml",
                "'brokerSettings.group.coordinator.append.linger.ms'",
                "Kafka 3.7.2 has no broker setting");
        assertEquals(
                0,
                dryRun("brokerVersion: 3.9.1\nbrokerSettings: {group.coordinator.append.linger.ms: 0}\n")
                        .code());
    }

    @Test
    void theConsumerGroupProtocolNeedsA40Broker() throws Exception {
        assertBadInput(
                dryRun("brokerVersion: 3.9.1\ngroupProtocol: consumer\n"),
                "w.yaml",
                "'groupProtocol'",
                "needs a Kafka 4.0.0 broker",
                "Kafka 3.9.1");
        assertBadInput(
                dryRun("brokerVersion: 3.7.2\ndriverOverrides: {consumerConfig: {group.protocol: consumer}}\n"),
                "'driverOverrides.consumerConfig.group.protocol'",
                "Kafka 3.7.2");
        Main.Captured classic = dryRun("brokerVersion: 3.9.1\ngroupProtocol: classic\n");
        assertEquals(0, classic.code(), classic.err());
        Main.Captured consumer = dryRun("brokerVersion: 4.0.2\ngroupProtocol: consumer\n");
        assertEquals(0, consumer.code(), consumer.err());
        assertTrue(consumer.out().contains("group.protocol=consumer"), consumer.out());
    }

    @Test
    void theGroupProtocolIsBadInputOnAClientReleaseWithoutIt() throws Exception {
        assertBadInput(
                dryRun("clientVersion: 3.6.2\ngroupProtocol: classic\n"),
                "w.yaml",
                "'groupProtocol'",
                "kafka-clients 3.6.2");
        assertBadInput(dryRun("groupProtocol: eager\n"), "'groupProtocol'", "CLASSIC | CONSUMER");
    }

    @Test
    void theClientBackOffCeilingIsBadInputBeforeClient37() throws Exception {
        assertBadInput(
                dryRun("clientVersion: 3.6.2\ndriverOverrides: {producerConfig: {retry.backoff.max.ms: 50}}\n"),
                "w.yaml",
                "'driverOverrides.producerConfig.retry.backoff.max.ms'",
                "kafka-clients 3.6.2");
        Main.Captured ok =
                dryRun("clientVersion: 3.7.2\ndriverOverrides: {producerConfig: {retry.backoff.max.ms: 50}}\n");
        assertEquals(0, ok.code(), ok.err());
    }
}

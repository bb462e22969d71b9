package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.KeySuggestions;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.apache.bookkeeper.stats.NullStatsLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriverConfigParserTest {

    private final DriverConfigParser parser = new DriverConfigParser(Set.of());

    @Test
    void readsEveryKeyOfTheShippedYaml() throws IOException {
        DriverConfig config = parser.parse(new File("kafka-tx-stock-omb.yaml"));
        assertEquals("kafka-tx-stock-omb", config.name());
        assertEquals(KafkaTxBenchmarkDriver.class.getName(), config.driverClass());
        assertEquals(3, config.replicationFactor());
        assertEquals("2", config.topicConfigMap().get("min.insync.replicas"));
        assertEquals("localhost:9092", config.bootstrapServers());
        assertEquals("0", config.producerProperties().getProperty("retry.backoff.ms"));
        assertEquals("localhost:9092", config.consumerProperties().getProperty("bootstrap.servers"));
        assertEquals(new TransactionSettings(true, 10, 100, "omb-tx", true, 3), config.transactions());
    }

    @Test
    void everyShippedYamlParses() throws IOException {
        for (String name : new String[] {"kafka-tx.yaml", "kafka-tx-tuned.yaml", "kafka-tx-stock-omb.yaml"}) {
            DriverConfig config = parser.parse(new File(name));
            assertEquals("all", config.producerProperties().getProperty("acks"), name);
        }
        DriverConfig tuned = parser.parse(new File("kafka-tx-tuned.yaml"));
        assertEquals(3, tuned.replicationFactor());
        assertEquals("1", tuned.topicConfigMap().get("flush.messages"));
        assertEquals("0", tuned.producerProperties().getProperty("retry.backoff.ms"));
        assertFalse(tuned.transactions().enabled());
        assertEquals(null, parser.parse(new File("kafka-tx.yaml")).bootstrapServers(), "the runner fills it in");
    }

    @Test
    void missingTransactionsBlockMeansDefaults() throws IOException {
        DriverConfig config = parser.parse("d.yaml", "name: x\ncommonConfig: |\n  bootstrap.servers=h:1\n");
        assertEquals(TransactionSettings.defaults(), config.transactions());
        assertEquals(1, config.replicationFactor());
    }

    @Test
    void unknownTopLevelKeyNamesFileKeySuggestionAndExpectedKeys() {
        IOException e = assertThrows(IOException.class,
                () -> parser.parse("kafka-tx.yaml", "name: x\nproducerConfg: |\n  acks=all\n"));
        assertEquals("kafka-tx.yaml: unknown key 'producerConfg' (did you mean 'producerConfig'?); expected one of: "
                + "name, driverClass, replicationFactor, topicConfig, commonConfig, producerConfig, consumerConfig, "
                + "transactions", e.getMessage());
    }

    @Test
    void unknownNestedKeyIsReportedWithItsPath() {
        IOException e = assertThrows(IOException.class,
                () -> parser.parse("k.yaml", "transactions:\n  messagesPerTxn: 5\n"));
        assertTrue(e.getMessage().startsWith("k.yaml: unknown key 'transactions.messagesPerTxn' "
                + "(did you mean 'messagesPerTransaction'?)"), e.getMessage());
        assertTrue(e.getMessage().contains("resolveBeforeCommit"), e.getMessage());
    }

    @Test
    void foreignKeyGetsNoSuggestion() {
        IOException e = assertThrows(IOException.class, () -> parser.parse("k.yaml", "zookeeperHosts: a\n"));
        assertFalse(e.getMessage().contains("did you mean"), e.getMessage());
        assertTrue(e.getMessage().contains("'zookeeperHosts'"), e.getMessage());
    }

    @Test
    void wrongTypesAreRejectedWithTheExpectedType() {
        assertEquals("k.yaml: 'replicationFactor' must be an integer, got 'three'",
                assertThrows(IOException.class, () -> parser.parse("k.yaml", "replicationFactor: three\n")).getMessage());
        assertEquals("k.yaml: 'transactions.enabled' must be true or false, got 'sometimes'",
                assertThrows(IOException.class, () -> parser.parse("k.yaml", "transactions:\n  enabled: sometimes\n"))
                        .getMessage());
        assertTrue(assertThrows(IOException.class, () -> parser.parse("k.yaml", "producerConfig:\n  acks: all\n"))
                .getMessage().startsWith("k.yaml: 'producerConfig' must be a Java-properties text block"));
        assertEquals("k.yaml: 'transactions' must be a mapping with keys enabled, messagesPerTransaction, "
                + "commitIntervalMs, transactionalIdPrefix, resolveBeforeCommit, maxRetries, got '5'",
                assertThrows(IOException.class, () -> parser.parse("k.yaml", "transactions: 5\n")).getMessage());
    }

    @Test
    void outOfRangeNumbersAreRejected() {
        assertEquals("k.yaml: 'transactions.messagesPerTransaction' must be between 1 and 2147483647, got 0",
                assertThrows(IOException.class,
                        () -> parser.parse("k.yaml", "transactions:\n  messagesPerTransaction: 0\n")).getMessage());
        assertTrue(assertThrows(IOException.class, () -> parser.parse("k.yaml", "replicationFactor: 0\n"))
                .getMessage().contains("'replicationFactor' must be between 1"));
    }

    @Test
    void duplicateKeysAndBrokenYamlAreErrors() {
        assertTrue(assertThrows(IOException.class, () -> parser.parse("k.yaml", "name: a\nname: b\n"))
                .getMessage().startsWith("k.yaml: not valid YAML"));
        assertTrue(assertThrows(IOException.class, () -> parser.parse("k.yaml", "- a\n- b\n"))
                .getMessage().startsWith("k.yaml: expected a mapping"));
    }

    @Test
    void extraKeysOfASubclassDriverAreAcceptedOnlyThere() throws IOException {
        DriverConfig config = new DriverConfigParser(Set.of("adminApiUrl"))
                .parse("r.yaml", "adminApiUrl: http://127.0.0.1:9644\n");
        assertEquals("http://127.0.0.1:9644", config.extras().get("adminApiUrl"));
        assertThrows(IOException.class, () -> parser.parse("k.yaml", "adminApiUrl: http://127.0.0.1:9644\n"));
    }

    @Test
    void initializeFailsOnAnUnknownKeyBeforeConnecting(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("kafka-tx.yaml");
        Files.writeString(file, "name: x\ncommonConfg: |\n  bootstrap.servers=127.0.0.1:1\n");
        IOException e = assertThrows(IOException.class,
                () -> new KafkaTxBenchmarkDriver().initialize(file.toFile(), NullStatsLogger.INSTANCE));
        assertTrue(e.getMessage().contains("unknown key 'commonConfg' (did you mean 'commonConfig'?)"), e.getMessage());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void initializeWithoutBootstrapServersSaysWhoFillsItIn(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("kafka-tx.yaml");
        Files.writeString(file, "name: x\n");
        IOException e = assertThrows(IOException.class,
                () -> new KafkaTxBenchmarkDriver().initialize(file.toFile(), NullStatsLogger.INSTANCE));
        assertTrue(e.getMessage().contains("no bootstrap.servers"), e.getMessage());
    }

    @Test
    void suggestionsToleratePlausibleTyposOnly() {
        assertEquals("messagesPerTransaction",
                KeySuggestions.closest("messagesPerTransation", DriverConfigParser.TRANSACTION_KEYS).orElseThrow());
        assertEquals("replicationFactor",
                KeySuggestions.closest("ReplicationFactor", DriverConfigParser.ROOT_KEYS).orElseThrow());
        assertTrue(KeySuggestions.closest("xyz", DriverConfigParser.ROOT_KEYS).isEmpty());
        assertEquals(3, KeySuggestions.distance("kitten", "sitting"));
    }
}

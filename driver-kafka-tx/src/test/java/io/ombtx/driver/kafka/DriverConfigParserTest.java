package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.KeySuggestions;
import io.ombtx.driver.api.config.ConfigException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import org.apache.bookkeeper.stats.NullStatsLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriverConfigParserTest {

    /** A driver file this module ships (the tests' working directory is a folder of their own under target/). */
    private static File driverFile(String name) {
        return io.ombtx.runner.OmbTxHome.locate()
                .resolve("driver-kafka-tx/" + name)
                .toFile();
    }

    private final DriverConfigParser parser = new DriverConfigParser(Set.of());

    @Test
    void readsEveryKeyOfTheShippedYaml() throws IOException {
        DriverConfig config = parser.parse(driverFile("kafka-tx-stock-omb.yaml"));
        assertEquals("kafka-tx-stock-omb", config.name());
        assertEquals(KafkaTxBenchmarkDriver.class.getName(), config.driverClass());
        assertEquals(3, config.replicationFactor());
        assertEquals("2", config.topicConfigMap().get("min.insync.replicas"));
        assertEquals("localhost:9092", config.bootstrapServers());
        assertEquals("0", config.producerProperties().getProperty("retry.backoff.ms"));
        assertEquals("localhost:9092", config.consumerProperties().getProperty("bootstrap.servers"));
        assertEquals(
                new TransactionSettings(true, 10_000, 100, "omb-tx", true, 3, 16L << 20, 30_000),
                config.transactions());
        DriverConfig oneBroker = parser.parse(driverFile("kafka-tx-stock-omb-1broker.yaml"));
        assertEquals(1, oneBroker.replicationFactor());
        assertTrue(oneBroker.topicConfigMap().isEmpty());
        assertEquals(config.transactions(), oneBroker.transactions());
        assertEquals(config.producerProperties(), oneBroker.producerProperties());
    }

    @Test
    void everyShippedYamlParses() throws IOException {
        for (String name : new String[] {
            "kafka-tx.yaml", "kafka-tx-tuned.yaml", "kafka-tx-stock-omb.yaml", "kafka-tx-stock-omb-1broker.yaml"
        }) {
            DriverConfig config = parser.parse(driverFile(name));
            assertEquals("all", config.producerProperties().getProperty("acks"), name);
        }
        DriverConfig tuned = parser.parse(driverFile("kafka-tx-tuned.yaml"));
        assertEquals(3, tuned.replicationFactor());
        assertEquals("1", tuned.topicConfigMap().get("flush.messages"));
        assertEquals("0", tuned.producerProperties().getProperty("retry.backoff.ms"));
        assertFalse(tuned.transactions().enabled());
        assertEquals(null, parser.parse(driverFile("kafka-tx.yaml")).bootstrapServers(), "the runner fills it in");
    }

    @Test
    void missingTransactionsBlockMeansDefaults() throws IOException {
        DriverConfig config = parser.parse("d.yaml", "name: x\ncommonConfig: |\n  bootstrap.servers=h:1\n");
        assertEquals(TransactionSettings.defaults(), config.transactions());
        assertEquals(1, config.replicationFactor());
    }

    @Test
    void unknownTopLevelKeyNamesFileKeyAndSuggestion() {
        ConfigException e = assertThrows(
                ConfigException.class, () -> parser.parse("kafka-tx.yaml", "name: x\nproducerConfg: |\n  acks=all\n"));
        assertEquals(
                "kafka-tx.yaml: key 'producerConfg': unknown key (did you mean 'producerConfig'?)", e.getMessage());
        assertEquals("producerConfg", e.key());
    }

    @Test
    void unknownNestedKeyIsReportedWithItsPath() {
        ConfigException e = assertThrows(
                ConfigException.class, () -> parser.parse("k.yaml", "transactions:\n  messagesPerTxn: 5\n"));
        assertEquals(
                "k.yaml: key 'transactions.messagesPerTxn': unknown key (did you mean 'messagesPerTransaction'?)",
                e.getMessage());
        assertEquals(
                "k.yaml: key 'transactions.enabld': unknown key (did you mean 'enabled'?)",
                assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "transactions: {enabld: true}\n"))
                        .getMessage());
    }

    @Test
    void foreignKeyGetsTheListOfExpectedKeys() {
        ConfigException e = assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "zookeeperHosts: a\n"));
        assertEquals(
                "k.yaml: key 'zookeeperHosts': unknown key; expected one of name, driverClass, replicationFactor, "
                        + "topicConfig, commonConfig, producerConfig, consumerConfig, transactions",
                e.getMessage());
    }

    @Test
    void wrongTypesAreRejectedWithTheExpectedType() {
        assertEquals(
                "k.yaml: key 'replicationFactor': expected a whole number, got 'three'",
                assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "replicationFactor: three\n"))
                        .getMessage());
        assertEquals(
                "k.yaml: key 'replicationFactor': expected a whole number, got '2.5'",
                assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "replicationFactor: 2.5\n"))
                        .getMessage());
        assertEquals(
                "k.yaml: key 'transactions.enabled': expected true or false, got 'sometimes'",
                assertThrows(
                                ConfigException.class,
                                () -> parser.parse("k.yaml", "transactions:\n  enabled: sometimes\n"))
                        .getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "producerConfig:\n  acks: all\n"))
                .getMessage()
                .startsWith("k.yaml: key 'producerConfig': expected Java-properties text"));
        assertEquals(
                "k.yaml: key 'transactions': expected a mapping of keys to values, got '5'",
                assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "transactions: 5\n"))
                        .getMessage());
    }

    @Test
    void outOfRangeNumbersAreRejected() {
        assertEquals(
                "k.yaml: key 'transactions.messagesPerTransaction': expected a value >= 1, got 0",
                assertThrows(
                                ConfigException.class,
                                () -> parser.parse("k.yaml", "transactions:\n  messagesPerTransaction: 0\n"))
                        .getMessage());
        assertEquals(
                "k.yaml: key 'replicationFactor': expected a value from 1 to 32767, got -1",
                assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "replicationFactor: -1\n"))
                        .getMessage());
    }

    @Test
    void groupCommitBoundsAreCheckedAndTheMessageBoundHasOneName() {
        assertEquals(
                "k.yaml: key 'transactions.maxBytesPerTransaction': expected a value >= 1, got 0",
                assertThrows(
                                ConfigException.class,
                                () -> parser.parse("k.yaml", "transactions:\n  maxBytesPerTransaction: 0\n"))
                        .getMessage());
        assertEquals(
                "k.yaml: key 'transactions.maxMessagesPerTransaction': expected a whole number, got 'many'",
                assertThrows(
                                ConfigException.class,
                                () -> parser.parse("k.yaml", "transactions:\n  maxMessagesPerTransaction: many\n"))
                        .getMessage());
        assertEquals(
                "k.yaml: key 'transactions.closeTimeoutMs': expected a value from 0 to 3600000, got -1",
                assertThrows(
                                ConfigException.class,
                                () -> parser.parse("k.yaml", "transactions:\n  closeTimeoutMs: -1\n"))
                        .getMessage());
        assertEquals(
                "k.yaml: key 'transactions.messagesPerTransaction': is the older name of maxMessagesPerTransaction; "
                        + "give only one",
                assertThrows(
                                ConfigException.class,
                                () -> parser.parse(
                                        "k.yaml",
                                        "transactions:\n  messagesPerTransaction: 5\n  maxMessagesPerTransaction: 6\n"))
                        .getMessage());
        assertEquals(
                5,
                parser.parse("k.yaml", "transactions:\n  messagesPerTransaction: 5\n")
                        .transactions()
                        .messagesPerTransaction(),
                "the older name still sets the bound");
        assertEquals(
                6,
                parser.parse("k.yaml", "transactions:\n  maxMessagesPerTransaction: 6\n")
                        .transactions()
                        .messagesPerTransaction());
    }

    @Test
    void clientSettingsKafkaWouldRejectAreErrorsOfTheirBlock() {
        ConfigException acks =
                assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "producerConfig: |\n  acks=maybe\n"));
        assertEquals("producerConfig", acks.key());
        assertTrue(acks.getMessage().contains("acks"), acks.getMessage());
        ConfigException common = assertThrows(
                ConfigException.class, () -> parser.parse("k.yaml", "commonConfig: |\n  request.timeout.ms=soon\n"));
        assertEquals("commonConfig", common.key());
        ConfigException consumer = assertThrows(
                ConfigException.class,
                () -> parser.parse("k.yaml", "consumerConfig: |\n  isolation.level=sometimes\n"));
        assertEquals("consumerConfig", consumer.key());
    }

    @Test
    void validClientSettingsThatOnlyMakeSenseWithTheDriversOwnAreAccepted() {
        // Each ran before the plan-time check existed: the driver adds the group, the transactional id, the
        // serializers; interceptor classes may exist on the workers only.
        DriverConfig config = parser.parse(
                "k.yaml",
                """
                commonConfig: |
                  bootstrap.servers=h1:9092,h2:9092
                  security.protocol=SASL_SSL
                  sasl.mechanism=PLAIN
                  sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";
                  ssl.truststore.password=secret
                producerConfig: |
                  transactional.id=mine
                  acks=1
                  enable.idempotence=false
                  interceptor.classes=com.example.OnlyOnTheWorkers
                consumerConfig: |
                  enable.auto.commit=true
                  auto.offset.reset=earliest
                """);
        // Accepted, and passed on to the clients as written.
        Properties producer = config.producerProperties();
        assertEquals("h1:9092,h2:9092", producer.getProperty("bootstrap.servers"));
        assertEquals("SASL_SSL", producer.getProperty("security.protocol"));
        assertEquals("mine", producer.getProperty("transactional.id"));
        assertEquals("false", producer.getProperty("enable.idempotence"));
        assertEquals("com.example.OnlyOnTheWorkers", producer.getProperty("interceptor.classes"));
        Properties consumer = config.consumerProperties();
        assertEquals("true", consumer.getProperty("enable.auto.commit"));
        assertEquals("earliest", consumer.getProperty("auto.offset.reset"));
        assertEquals("secret", consumer.getProperty("ssl.truststore.password"));
    }

    @Test
    void duplicateKeysAndBrokenYamlAreErrors() {
        assertTrue(assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "name: a\nname: b\n"))
                .getMessage()
                .startsWith("k.yaml: not valid YAML"));
        assertTrue(assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "- a\n- b\n"))
                .getMessage()
                .startsWith("k.yaml: expected a YAML mapping"));
    }

    @Test
    void extraKeysOfASubclassDriverAreAcceptedOnlyThere() {
        DriverConfig config =
                new DriverConfigParser(Set.of("adminApiUrl")).parse("r.yaml", "adminApiUrl: http://127.0.0.1:9644\n");
        assertEquals("http://127.0.0.1:9644", config.extras().get("adminApiUrl"));
        assertThrows(ConfigException.class, () -> parser.parse("k.yaml", "adminApiUrl: http://127.0.0.1:9644\n"));
    }

    @Test
    void checkConfigurationIsTheParserWithoutConnecting() {
        KafkaTxBenchmarkDriver driver = new KafkaTxBenchmarkDriver();
        driver.checkConfiguration("mine.yaml", "name: x\ncommonConfig: |\n  bootstrap.servers=127.0.0.1:1\n");
        assertEquals(
                "mine.yaml: key 'transactions.enabld': unknown key (did you mean 'enabled'?)",
                assertThrows(
                                ConfigException.class,
                                () -> driver.checkConfiguration("mine.yaml", "transactions: {enabld: true}\n"))
                        .getMessage());
    }

    @Test
    void initializeFailsOnAnUnknownKeyBeforeConnecting(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("kafka-tx.yaml");
        Files.writeString(file, "name: x\ncommonConfg: |\n  bootstrap.servers=127.0.0.1:1\n");
        IOException e = assertThrows(IOException.class, () -> new KafkaTxBenchmarkDriver()
                .initialize(file.toFile(), NullStatsLogger.INSTANCE));
        assertTrue(
                e.getMessage().contains("key 'commonConfg': unknown key (did you mean 'commonConfig'?)"),
                e.getMessage());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void initializeWithoutBootstrapServersSaysWhoFillsItIn(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("kafka-tx.yaml");
        Files.writeString(file, "name: x\n");
        IOException e = assertThrows(IOException.class, () -> new KafkaTxBenchmarkDriver()
                .initialize(file.toFile(), NullStatsLogger.INSTANCE));
        assertTrue(e.getMessage().contains("no bootstrap.servers"), e.getMessage());
    }

    @Test
    void suggestionsToleratePlausibleTyposOnly() {
        assertEquals(
                "messagesPerTransaction",
                KeySuggestions.closest("messagesPerTransation", DriverConfigParser.TRANSACTION_KEYS)
                        .orElseThrow());
        assertEquals(
                "replicationFactor",
                KeySuggestions.closest("ReplicationFactor", DriverConfigParser.ROOT_KEYS)
                        .orElseThrow());
        assertTrue(KeySuggestions.closest("xyz", DriverConfigParser.ROOT_KEYS).isEmpty());
        assertEquals(3, KeySuggestions.distance("kitten", "sitting"));
    }
}

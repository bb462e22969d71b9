package io.ombtx.driver.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.ConfigFields;
import io.ombtx.driver.api.config.YamlFiles;
import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Reads a driver YAML strictly: an unknown key, a value of the wrong type, an out-of-range number or a client
 * setting kafka-clients would reject fails with a {@link ConfigException} naming the file, the key and what was
 * expected, because a silently ignored typo in a benchmark's configuration produces plausible but wrong numbers.
 * Nothing here connects anywhere, so the runner can call it while planning.
 */
public final class DriverConfigParser {

    static final List<String> ROOT_KEYS = List.of(
            "name", "driverClass", "replicationFactor",
            "topicConfig", "commonConfig", "producerConfig", "consumerConfig", "transactions");
    static final List<String> TRANSACTION_KEYS = List.of(
            "enabled", "messagesPerTransaction", "commitIntervalMs", "transactionalIdPrefix",
            "resolveBeforeCommit", "maxRetries");
    /** The most replicas a topic can have: Kafka stores the factor as a short. */
    private static final int MAX_REPLICATION_FACTOR = Short.MAX_VALUE;

    private final Set<String> extraRootKeys;

    /** @param extraRootKeys top-level scalar keys a subclass driver understands (e.g. Redpanda's adminApiUrl) */
    public DriverConfigParser(Set<String> extraRootKeys) {
        this.extraRootKeys = Set.copyOf(extraRootKeys);
    }

    public DriverConfig parse(File file) {
        return parse(file.getPath(), YamlFiles.read(file.toPath()));
    }

    public DriverConfig parse(String source, String yamlText) {
        return parse(source, YamlFiles.parse(source, yamlText));
    }

    private DriverConfig parse(String source, JsonNode root) {
        ConfigFields fields = new ConfigFields(source, root, "").onlyKeys(rootKeys());
        String name = fields.text("name", "kafka-tx");
        String driverClass = fields.text("driverClass", KafkaTxBenchmarkDriver.class.getName());
        int replicationFactor = fields.wholeNumber("replicationFactor", 1, 1, MAX_REPLICATION_FACTOR);
        Properties topicConfig = fields.properties("topicConfig");
        Properties commonConfig = fields.properties("commonConfig");
        Properties producerConfig = fields.properties("producerConfig");
        Properties consumerConfig = fields.properties("consumerConfig");
        TransactionSettings transactions = transactions(fields);
        Map<String, String> extras = new LinkedHashMap<>();
        for (String key : extraRootKeys) {
            String value = fields.text(key, null);
            if (value != null) {
                extras.put(key, value);
            }
        }
        DriverConfig config = new DriverConfig(source, name, driverClass, replicationFactor, topicConfig, commonConfig,
                producerConfig, consumerConfig, transactions, extras);
        checkClientSettings(config);
        return config;
    }

    private static TransactionSettings transactions(ConfigFields root) {
        TransactionSettings d = TransactionSettings.defaults();
        if (!root.has("transactions")) {
            return d;
        }
        ConfigFields fields = root.block("transactions").onlyKeys(TRANSACTION_KEYS);
        String prefix = fields.text("transactionalIdPrefix", d.transactionalIdPrefix());
        if (prefix.isBlank()) {
            throw fields.error("transactionalIdPrefix", "must not be empty");
        }
        return new TransactionSettings(
                fields.bool("enabled", d.enabled()),
                fields.wholeNumber("messagesPerTransaction", d.messagesPerTransaction(), 1, Integer.MAX_VALUE),
                fields.wholeNumber("commitIntervalMs", (int) d.commitIntervalMs(), 1, Integer.MAX_VALUE),
                prefix,
                fields.bool("resolveBeforeCommit", d.resolveBeforeCommit()),
                fields.wholeNumber("maxRetries", d.maxRetries(), 0, 1000));
    }

    /**
     * Lets kafka-clients check the values it knows (e.g. {@code acks=maybe}) the way it would when the first client
     * is created, so the mistake is reported now and against the block it came from.
     */
    private static void checkClientSettings(DriverConfig config) {
        Map<String, Object> producer = asMap(config.producerProperties());
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        Map<String, Object> consumer = asMap(config.consumerProperties());
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        check(config, "commonConfig", config.commonConfig(), () -> new AdminClientConfig(withBootstrap(asMap(config.commonConfig()))));
        check(config, "producerConfig", config.producerConfig(), () -> new ProducerConfig(withBootstrap(producer)));
        check(config, "consumerConfig", config.consumerConfig(), () -> new ConsumerConfig(withBootstrap(consumer)));
    }

    private static void check(DriverConfig config, String block, Properties own, Runnable parse) {
        try {
            parse.run();
        } catch (org.apache.kafka.common.config.ConfigException e) {
            // kafka-clients names the setting; say which block to fix (the common one when it came from there).
            String where = blockOf(e.getMessage(), own) ? block : "commonConfig";
            throw new ConfigException(config.source(), where, "kafka-clients rejects a setting: " + e.getMessage());
        }
    }

    private static boolean blockOf(String message, Properties own) {
        for (String key : own.stringPropertyNames()) {
            if (message != null && message.contains(key)) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, Object> asMap(Properties properties) {
        Map<String, Object> map = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> map.put(k, properties.getProperty(k)));
        return map;
    }

    /** The runner fills in the embedded broker's address later; the check needs a syntactically valid one. */
    private static Map<String, Object> withBootstrap(Map<String, Object> map) {
        Object bootstrap = map.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        if (bootstrap == null || bootstrap.toString().isBlank() || bootstrap.toString().trim().equalsIgnoreCase("embedded")) {
            map.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
        }
        return map;
    }

    List<String> rootKeys() {
        List<String> keys = new ArrayList<>(ROOT_KEYS);
        extraRootKeys.stream().sorted().forEach(keys::add);
        return keys;
    }
}

package io.ombtx.driver.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.driver.api.KeySuggestions;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.ConfigFields;
import io.ombtx.driver.api.config.YamlFiles;
import java.io.File;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Reads a driver YAML strictly: an unknown key, a value of the wrong type, an out-of-range number or a client
 * setting kafka-clients would reject fails with a {@link ConfigException} naming the file, the key and what was
 * expected, because a silently ignored typo in a benchmark's configuration produces plausible but wrong numbers.
 * Nothing here connects anywhere, so the runner can call it while planning.
 */
public final class DriverConfigParser {

    static final List<String> ROOT_KEYS = List.of(
            "name",
            "driverClass",
            "replicationFactor",
            "topicConfig",
            "commonConfig",
            "producerConfig",
            "consumerConfig",
            "transactions");
    static final List<String> TRANSACTION_KEYS = List.of(
            "enabled",
            "maxMessagesPerTransaction",
            "messagesPerTransaction",
            "maxBytesPerTransaction",
            "commitIntervalMs",
            "closeTimeoutMs",
            "transactionalIdPrefix",
            "resolveBeforeCommit",
            "maxRetries");

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
        int replicationFactor = fields.wholeNumber("replicationFactor", 1, 1, KafkaDriverYaml.MAX_REPLICATION_FACTOR);
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
        DriverConfig config = new DriverConfig(
                source,
                name,
                driverClass,
                replicationFactor,
                topicConfig,
                commonConfig,
                producerConfig,
                consumerConfig,
                transactions,
                extras);
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
                maxMessages(fields, d.messagesPerTransaction()),
                fields.wholeNumber("commitIntervalMs", (int) d.commitIntervalMs(), 1, Integer.MAX_VALUE),
                prefix,
                fields.bool("resolveBeforeCommit", d.resolveBeforeCommit()),
                fields.wholeNumber("maxRetries", d.maxRetries(), 0, 1000),
                fields.wholeNumber("maxBytesPerTransaction", d.maxBytesPerTransaction(), 1, Long.MAX_VALUE),
                fields.wholeNumber("closeTimeoutMs", d.closeTimeoutMs(), 0, 3_600_000));
    }

    /** {@code maxMessagesPerTransaction}, or its older name {@code messagesPerTransaction}; never both. */
    private static int maxMessages(ConfigFields fields, int fallback) {
        if (fields.has("maxMessagesPerTransaction") && fields.has("messagesPerTransaction")) {
            throw fields.error(
                    "messagesPerTransaction", "is the older name of maxMessagesPerTransaction; give only one");
        }
        String key = fields.has("messagesPerTransaction") ? "messagesPerTransaction" : "maxMessagesPerTransaction";
        return fields.wholeNumber(key, fallback, 1, Integer.MAX_VALUE);
    }

    /**
     * Lets kafka-clients' own config definitions check the keys and values they know (e.g. {@code acks=maybe}): types
     * and allowed values, block by block, so the message names the block to fix. A key kafka-clients does not know
     * but that is a typo of one it does ({@code lingr.ms}) is an error with a did-you-mean: kafka-clients would only
     * log it and run with the default. Other unknown keys pass (interceptors, serializers and config providers read
     * their own). Not checked: class names (they may exist only on the workers), and the rules that combine several
     * settings (the driver sets the serializers, the group and the transactional id itself).
     */
    private static void checkClientSettings(DriverConfig config) {
        List<ConfigDef> all =
                List.of(AdminClientConfig.configDef(), ProducerConfig.configDef(), ConsumerConfig.configDef());
        check(config, "commonConfig", config.commonConfig(), all);
        check(config, "producerConfig", config.producerConfig(), List.of(ProducerConfig.configDef()));
        check(config, "consumerConfig", config.consumerConfig(), List.of(ConsumerConfig.configDef()));
    }

    private static void check(DriverConfig config, String block, Properties properties, List<ConfigDef> definitions) {
        for (String key : properties.stringPropertyNames()) {
            Optional<String> typo = typo(key, definitions);
            if (typo.isPresent()) {
                throw new ConfigException(
                        config.source(),
                        block,
                        "kafka-clients has no setting '" + key + "' (did you mean '" + typo.get() + "'?)");
            }
            for (ConfigDef definition : definitions) {
                check(config, block, key, properties.getProperty(key), definition);
            }
        }
    }

    private static void check(DriverConfig config, String block, String key, String value, ConfigDef definitions) {
        ConfigDef.ConfigKey definition = definitions.configKeys().get(key);
        if (definition == null || definition.type == ConfigDef.Type.CLASS) {
            return;
        }
        try {
            Object parsed = ConfigDef.parseType(key, value.trim(), definition.type);
            if (definition.validator != null) {
                definition.validator.ensureValid(key, parsed);
            }
        } catch (KafkaException e) {
            throw new ConfigException(config.source(), block, "kafka-clients rejects " + key + ": " + e.getMessage());
        }
    }

    /**
     * The setting {@code key} is a typo of, when no definition has it but one is within a few edits (a third of its
     * length, at least 2): a foreign key for an interceptor or a serializer is further from every client key.
     */
    static Optional<String> typo(String key, List<ConfigDef> definitions) {
        Set<String> known = new TreeSet<>();
        definitions.forEach(d -> known.addAll(d.names()));
        if (known.contains(key)) {
            return Optional.empty();
        }
        int tolerated = Math.max(2, key.length() / 3);
        return known.stream()
                .filter(k -> KeySuggestions.distance(key.toLowerCase(Locale.ROOT), k) <= tolerated)
                .min(Comparator.comparingInt((String k) -> KeySuggestions.distance(key.toLowerCase(Locale.ROOT), k))
                        .thenComparing(Comparator.naturalOrder()));
    }

    List<String> rootKeys() {
        List<String> keys = new ArrayList<>(ROOT_KEYS);
        extraRootKeys.stream().sorted().forEach(keys::add);
        return keys;
    }
}

package io.ombtx.driver.kafka;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * The facts a result file needs to say how its numbers were obtained: client version, cluster id and size, the
 * broker settings that change transaction and commit latency (read back from the broker, not assumed), and the
 * producer settings in force. Only named, non-secret settings are reported.
 */
final class BrokerEnvironment {

    /** Broker settings that shape what a transaction or an offset commit costs. */
    static final List<String> BROKER_SETTINGS = List.of(
            "transaction.state.log.replication.factor",
            "transaction.state.log.min.isr",
            "min.insync.replicas",
            "log.flush.interval.messages",
            "log.flush.interval.ms",
            "offsets.topic.replication.factor",
            "group.coordinator.append.linger.ms",
            // KIP-890 part 1 (3.6 on): the leader asks the coordinator before a transactional append.
            "transaction.partition.verification.enable",
            // KIP-848: which group coordinator (3.6 to 4.0) and which rebalance protocols (3.7 on) the broker runs.
            "group.coordinator.new.enable",
            "group.coordinator.rebalance.protocols",
            // KIP-939 (4.1 on): whether two-phase commit with an external coordinator is allowed.
            "transaction.two.phase.commit.enable");

    /**
     * Producer settings that shape latency; read from the effective config, so defaults are shown too. A setting the
     * client release does not define ({@code retry.backoff.max.ms} before 3.7, KIP-580) is left out.
     */
    static final List<String> PRODUCER_SETTINGS =
            List.of("acks", "retry.backoff.ms", "linger.ms", "enable.idempotence", "retry.backoff.max.ms");

    /** Consumer settings the results compare: the group protocol (KIP-848, 3.7 on) and the back-off (KIP-580). */
    static final List<String> CONSUMER_SETTINGS = List.of("group.protocol", "retry.backoff.ms", "retry.backoff.max.ms");

    private static final long TIMEOUT_SECONDS = 30;

    private BrokerEnvironment() {}

    static Map<String, Object> collect(Admin admin, Properties producerProperties) {
        Map<String, Object> environment = new LinkedHashMap<>();
        environment.put("kafkaClientsVersion", AppInfoParser.getVersion());
        try {
            DescribeClusterResult cluster = admin.describeCluster();
            Collection<Node> nodes = cluster.nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            environment.put("clusterId", cluster.clusterId().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            environment.put("brokerCount", nodes.size());
            Node first = nodes.stream()
                    .min((a, b) -> Integer.compare(a.id(), b.id()))
                    .orElseThrow();
            environment.put("brokerSettingsFromNode", first.id());
            environment.put("brokerSettings", brokerSettings(brokerConfig(admin, first.id()), BROKER_SETTINGS));
        } catch (Exception e) {
            environment.put("brokerError", ErrorClassifier.describe(e));
        }
        finalizedFeatures(admin).ifPresent(features -> environment.put("features", features));
        environment.put("producerSettings", producerSettings(producerProperties));
        return environment;
    }

    /** Every config entry of one broker, by name. */
    static Map<String, String> brokerConfig(Admin admin, int nodeId) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(nodeId));
        Config config = admin.describeConfigs(Set.of(resource))
                .all()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .get(resource);
        Map<String, String> entries = new TreeMap<>();
        for (ConfigEntry entry : config.entries()) {
            if (!entry.isSensitive() && entry.value() != null) {
                entries.put(entry.name(), entry.value());
            }
        }
        return entries;
    }

    static Map<String, String> brokerSettings(Map<String, String> brokerConfig, List<String> names) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String name : names) {
            if (brokerConfig.containsKey(name)) {
                settings.put(name, brokerConfig.get(name));
            }
        }
        return settings;
    }

    /** e.g. metadata.version and transaction.version (2 means KIP-890's server-side transaction defence). */
    private static java.util.Optional<Map<String, Object>> finalizedFeatures(Admin admin) {
        try {
            FeatureMetadata metadata =
                    admin.describeFeatures().featureMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Map<String, Object> features = new TreeMap<>();
            metadata.finalizedFeatures().forEach((name, range) -> features.put(name, range.maxVersionLevel()));
            return java.util.Optional.of(features);
        } catch (Exception e) {
            return java.util.Optional.empty(); // older brokers and some Kafka-API brokers do not answer this
        }
    }

    static Map<String, String> producerSettings(Properties producerProperties) {
        Properties props = new Properties();
        props.putAll(producerProperties);
        props.putIfAbsent(
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, "org.apache.kafka.common.serialization.StringSerializer");
        props.putIfAbsent(
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                "org.apache.kafka.common.serialization.ByteArraySerializer");
        return defined(ProducerConfig.configDef().parse(props), PRODUCER_SETTINGS);
    }

    /**
     * The consumers' settings of {@link #CONSUMER_SETTINGS} in force (defaults included), as the client release's own
     * {@code ConsumerConfig} reads them; {@code group.protocol} is absent from clients before 3.7, which have only
     * the classic protocol.
     */
    static Map<String, String> consumerSettings(Properties consumerProperties) {
        return defined(ConsumerConfig.configDef().parse(consumerProperties), CONSUMER_SETTINGS);
    }

    /**
     * Each consumer group's protocol as the broker reports it ({@code classic} or {@code consumer}, Admin
     * {@code describeConsumerGroups}); empty when the client or the broker cannot say (clients before 3.8 have no
     * group type, brokers before 3.7 describe classic groups only).
     */
    static Map<String, String> groupProtocols(Admin admin, Collection<String> groupIds) {
        Map<String, String> protocols = new TreeMap<>();
        if (groupIds.isEmpty()) {
            return protocols;
        }
        try {
            Map<String, ConsumerGroupDescription> groups =
                    admin.describeConsumerGroups(groupIds).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            groups.forEach((id, description) ->
                    protocols.put(id, description.type().toString().toLowerCase(Locale.ROOT)));
        } catch (Exception | LinkageError e) {
            protocols.clear(); // not known: the consumers' own group.protocol is still recorded
        }
        return protocols;
    }

    private static Map<String, String> defined(Map<String, Object> effective, List<String> names) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String name : names) {
            if (effective.containsKey(name)) {
                settings.put(name, String.valueOf(effective.get(name)));
            }
        }
        return settings;
    }
}

package io.ombtx.driver.kafka;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Creates kafka-clients objects from the driver YAML's property blocks. The YAML's settings pass through untouched;
 * only what the driver's own logic depends on is set here (serializers, transactional id, group id and the
 * consumer settings a scenario requires), and those win over the YAML.
 */
final class ClientFactory {

    private final DriverConfig config;
    /** Producer settings the driver chose over the YAML's (a smaller buffer to fit the heap), applied last. */
    private volatile Map<String, String> producerOverrides = Map.of();

    ClientFactory(DriverConfig config) {
        this.config = config;
    }

    Admin admin() {
        return Admin.create(config.commonConfig());
    }

    /** @param transactionalId null for a plain producer */
    Producer<String, byte[]> producer(String transactionalId) {
        return new KafkaProducer<>(producerProperties(transactionalId));
    }

    /** Settings every producer created from now on gets over the YAML's (see {@link KafkaTxBenchmarkDriver}). */
    void overrideProducers(Map<String, String> overrides) {
        this.producerOverrides = Map.copyOf(overrides);
    }

    Properties producerProperties(String transactionalId) {
        Properties props = config.producerProperties();
        props.putAll(producerOverrides);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        if (transactionalId != null) {
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        } else {
            props.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        }
        return props;
    }

    KafkaConsumer<String, byte[]> consumer(String groupId, Map<String, String> required) {
        Properties props = consumerProperties();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.putAll(required);
        return new KafkaConsumer<>(props);
    }

    /** The YAML's consumer settings with the driver's deserializers (no group). */
    Properties consumerProperties() {
        Properties props = config.consumerProperties();
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }

    /** Whether consumers built from the YAML commit offsets on their own (kafka-clients' default is true). */
    boolean consumersAutoCommit() {
        return Boolean.parseBoolean(config.consumerProperties()
                .getProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "true")
                .trim());
    }
}

package io.ombtx.driver.kafka;

import io.ombtx.runner.broker.EmbeddedKafkaCluster;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** One real embedded Kafka broker per test class ({@code @RegisterExtension static}): up before the first test. */
final class EmbeddedBroker implements BeforeAllCallback, AfterAllCallback {

    private EmbeddedKafkaCluster kafka;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        kafka = EmbeddedKafkaCluster.builder().brokers(1).start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (kafka != null) {
            kafka.close();
        }
    }

    String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    Map<String, String> settings() {
        return kafka.settings();
    }
}

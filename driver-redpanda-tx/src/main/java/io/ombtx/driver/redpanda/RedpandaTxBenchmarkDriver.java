package io.ombtx.driver.redpanda;

import io.ombtx.driver.api.DriverCapabilities;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.kafka.DriverConfig;
import io.ombtx.driver.kafka.KafkaTxBenchmarkDriver;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional driver for Redpanda: the Kafka driver's client core, plus a preflight at initialize that
 * fails when the cluster has transactions or idempotence switched off, and topic configs limited to what Redpanda
 * understands. Extra YAML key: {@code adminApiUrl} (e.g. {@code http://redpanda-0:9644}), where the preflight reads
 * the cluster configuration.
 */
public class RedpandaTxBenchmarkDriver extends KafkaTxBenchmarkDriver implements DriverCapabilities {

    private static final Logger LOG = LoggerFactory.getLogger(RedpandaTxBenchmarkDriver.class);
    static final String ADMIN_API_URL = "adminApiUrl";

    private TransactionPreflight.Result preflight;
    private RedpandaTopicConfigs.Filtered topicConfigs;

    public RedpandaTxBenchmarkDriver() {}

    @Override
    public boolean usesKafkaBroker() {
        return true;
    }

    @Override
    public Optional<String> unsupported(OperationKind kind, boolean transactional) {
        return Optional.empty();
    }

    /** Redpanda: with no cluster named, the runner's embedded Apache Kafka stands in, and says so. */
    @Override
    public Optional<String> writtenFor() {
        return Optional.of("Redpanda");
    }

    @Override
    protected Set<String> extraYamlKeys() {
        return Set.of(ADMIN_API_URL);
    }

    @Override
    protected void afterConnect(Admin admin, DriverConfig config) throws IOException, InterruptedException {
        Map<String, String> brokerConfig = describeBrokerConfig();
        String adminApiUrl = config.extras().get(ADMIN_API_URL);
        Map<String, String> clusterConfig = null;
        String endpoint = null;
        if (adminApiUrl != null) {
            RedpandaAdminApi api = new RedpandaAdminApi(adminApiUrl);
            endpoint = api.endpoint().toString();
            try {
                clusterConfig = api.clusterConfig();
            } catch (IOException | IllegalArgumentException e) {
                throw new IOException(
                        config.source() + ": '" + ADMIN_API_URL + "' " + adminApiUrl
                                + ": cannot read the cluster configuration: "
                                + (e.getMessage() != null
                                        ? e.getMessage()
                                        : e.getClass().getSimpleName()),
                        e);
            }
        }
        preflight = TransactionPreflight.check(
                config.source(), config.bootstrapServers(), brokerConfig, clusterConfig, endpoint);
        preflight.notes().forEach(note -> LOG.info("preflight: {}", note));

        topicConfigs = RedpandaTopicConfigs.filter(config.topicConfigMap());
        if (!topicConfigs.dropped().isEmpty()) {
            LOG.warn(
                    "{}: topicConfig keys Redpanda does not support are not applied: {}",
                    config.source(),
                    String.join(", ", topicConfigs.dropped().keySet()));
        }
    }

    @Override
    protected Map<String, String> topicConfigs(DriverConfig config) {
        return topicConfigs.kept();
    }

    @Override
    public Map<String, Object> environment() {
        Map<String, Object> environment = new LinkedHashMap<>(super.environment());
        environment.put("preflight", preflight.asMap());
        if (!topicConfigs.dropped().isEmpty()) {
            environment.put("droppedTopicConfigs", topicConfigs.dropped());
        }
        return environment;
    }
}

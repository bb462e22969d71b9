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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional driver for Redpanda: the Kafka driver's client core, plus a preflight at initialize that
 * fails when the cluster has transactions or idempotence switched off, and topic configs limited to what Redpanda
 * understands. Extra YAML key: {@code adminApiUrl} (e.g. {@code http://redpanda-0:9644}), where the preflight reads
 * the cluster configuration. On a cluster that shows it is not Redpanda (Apache Kafka by its own settings, Tansu by
 * its cluster id) these Redpanda-only steps are skipped, and one line (logged, and the preflight's note in the
 * result) says which.
 */
public class RedpandaTxBenchmarkDriver extends KafkaTxBenchmarkDriver implements DriverCapabilities {

    private static final Logger LOG = LoggerFactory.getLogger(RedpandaTxBenchmarkDriver.class);
    static final String ADMIN_API_URL = "adminApiUrl";

    private TransactionPreflight.Result preflight;
    private RedpandaTopicConfigs.Filtered topicConfigs;

    /** Whether the cluster is taken for Redpanda whatever it shows (tests of the Redpanda path on Kafka). */
    private final boolean takenForRedpanda;

    public RedpandaTxBenchmarkDriver() {
        this(false);
    }

    /**
     * @param takenForRedpanda true: take the Redpanda-only steps on any cluster, as on Redpanda (for tests that run
     *     the Redpanda path on the embedded Apache Kafka, with a stand-in Admin API)
     */
    RedpandaTxBenchmarkDriver(boolean takenForRedpanda) {
        this.takenForRedpanda = takenForRedpanda;
    }

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
        String clusterId = clusterId(admin);
        TransactionPreflight.Flavour seen = TransactionPreflight.seen(clusterId, brokerConfig);
        if (!takenForRedpanda
                && (seen == TransactionPreflight.Flavour.APACHE_KAFKA || seen == TransactionPreflight.Flavour.TANSU)) {
            // Not Redpanda: none of the Redpanda-only steps apply; one line says what was skipped.
            preflight = TransactionPreflight.notRedpanda(
                    "driver " + config.name(),
                    config.bootstrapServers(),
                    seen,
                    clusterId,
                    brokerConfig,
                    adminApiUrl,
                    config.topicConfigMap());
            topicConfigs = new RedpandaTopicConfigs.Filtered(config.topicConfigMap(), Map.of());
            LOG.warn("{}", preflight.notes().get(0));
            return;
        }
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

    /** The cluster id DescribeCluster reports, or null when it does not answer in time. */
    private static String clusterId(Admin admin) throws InterruptedException {
        try {
            return admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return null;
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

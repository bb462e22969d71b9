package io.ombtx.driver.kafka;

/**
 * OMB's Kafka driver YAML convention, as this driver reads it. The runner reads the same keys of any driver file
 * ({@code io.ombtx.runner.config.DriverFile}), which is how it fills in the embedded broker's address.
 */
public final class KafkaDriverYaml {

    /** The most replicas a topic can have: Kafka stores the factor as a short. */
    public static final int MAX_REPLICATION_FACTOR = Short.MAX_VALUE;
    /** The value of {@code bootstrap.servers} that asks the omb-tx runner for its embedded broker. */
    public static final String EMBEDDED = "embedded";

    private KafkaDriverYaml() {}

    /** Whether {@code bootstrap.servers} leaves the cluster to the runner: absent, blank, or {@code embedded}. */
    public static boolean namesNoCluster(String bootstrapServers) {
        return bootstrapServers == null
                || bootstrapServers.isBlank()
                || bootstrapServers.trim().equalsIgnoreCase(EMBEDDED);
    }
}

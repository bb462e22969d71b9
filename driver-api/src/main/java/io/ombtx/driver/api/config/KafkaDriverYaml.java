package io.ombtx.driver.api.config;

import java.util.List;

/** OMB's Kafka driver YAML convention, as both the runner and the drivers read it. */
public final class KafkaDriverYaml {

    /** The Java-properties text blocks passed through to kafka-clients (and topic creation). */
    public static final List<String> BLOCKS =
            List.of("topicConfig", "commonConfig", "producerConfig", "consumerConfig");
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

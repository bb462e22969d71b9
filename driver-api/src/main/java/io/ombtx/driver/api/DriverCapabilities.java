package io.ombtx.driver.api;

import java.util.Optional;

/**
 * Optional, implemented by a {@code BenchmarkDriver} that is not a Kafka-API client (driver-aeron), or one written for
 * a broker system other than Apache Kafka (driver-redpanda-tx): the runner creates the driver (public no-argument
 * constructor, nothing else) while planning and asks what it needs and what it can do, so a run it cannot do stops
 * with exit code 2 before anything starts. A driver that does not implement it is taken to be a Kafka-API client for
 * Apache Kafka. Nothing here may connect anywhere.
 */
public interface DriverCapabilities {

    /**
     * Whether the driver talks to a Kafka-API cluster: the embedded broker the runner starts, or the one named by
     * {@code bootstrap.servers}. False: the driver brings its own transport and the runner starts no broker.
     */
    boolean usesKafkaBroker();

    /**
     * Why the driver cannot run operations of this kind, in words a user can act on (e.g. "Aeron has no
     * transactions"), or empty when it can.
     */
    Optional<String> unsupported(OperationKind kind, boolean transactional);

    /**
     * The broker system the driver is written for when it is not Apache Kafka (e.g. "Redpanda"), or empty. When such
     * a driver names no cluster, the runner says before the run that the embedded Apache Kafka stands in for it.
     */
    default Optional<String> writtenFor() {
        return Optional.empty();
    }
}

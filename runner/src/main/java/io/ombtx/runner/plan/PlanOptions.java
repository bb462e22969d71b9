package io.ombtx.runner.plan;

import io.ombtx.runner.cluster.ClusterProfile;
import java.util.List;
import java.util.Map;

/**
 * The command line's say in the plan.
 *
 * @param brokers embedded broker count (null: what workload and driver need)
 * @param brokerProfile replaces the workload's broker profile (null: the workload's)
 * @param brokerSettings embedded broker settings on top of profile and workload
 * @param reportingIntervalSeconds replaces the workload's progress interval (null: the workload's)
 * @param teardownTimeoutSeconds the deadline shared by the steps left once a run ends early
 * @param workerUrls remote workers (empty: one local worker)
 * @param extraConsumers OMB's {@code -x}: two thirds of the workers consume instead of half
 * @param brokerVersion the embedded broker's Kafka release, replacing the workload's (null: the workload's, else
 *        the default broker)
 * @param transactionVersion Kafka 4.x's transaction.version, replacing the workload's (null: the workload's, else
 *        the broker's default)
 * @param faultCommand how faults reach an external cluster ({@code --fault-command}), or null
 * @param senderThreadsPerProducer threads sending for one producer ({@code ombtx.senderThreadsPerProducer}, as
 *     {@code bin/benchmark} was started); null: {@code auto}, each worker's own setting
 * @param clientVersion the client release the local worker's drivers run on ({@code --client-version}), replacing
 *     the workload's (null: the workload's, else the built-in client)
 */
public record PlanOptions(
        Integer brokers,
        ClusterProfile brokerProfile,
        Map<String, String> brokerSettings,
        Integer reportingIntervalSeconds,
        List<String> workerUrls,
        boolean extraConsumers,
        int teardownTimeoutSeconds,
        String brokerVersion,
        Integer transactionVersion,
        String faultCommand,
        Integer senderThreadsPerProducer,
        String clientVersion) {

    /** As the canonical constructor, with the workload's (else the built-in) client release. */
    public PlanOptions(
            Integer brokers,
            ClusterProfile brokerProfile,
            Map<String, String> brokerSettings,
            Integer reportingIntervalSeconds,
            List<String> workerUrls,
            boolean extraConsumers,
            int teardownTimeoutSeconds,
            String brokerVersion,
            Integer transactionVersion,
            String faultCommand,
            Integer senderThreadsPerProducer) {
        this(
                brokers,
                brokerProfile,
                brokerSettings,
                reportingIntervalSeconds,
                workerUrls,
                extraConsumers,
                teardownTimeoutSeconds,
                brokerVersion,
                transactionVersion,
                faultCommand,
                senderThreadsPerProducer,
                null);
    }

    public PlanOptions(
            Integer brokers,
            ClusterProfile brokerProfile,
            Map<String, String> brokerSettings,
            Integer reportingIntervalSeconds,
            List<String> workerUrls,
            boolean extraConsumers,
            int teardownTimeoutSeconds,
            String brokerVersion,
            Integer transactionVersion,
            String faultCommand) {
        this(
                brokers,
                brokerProfile,
                brokerSettings,
                reportingIntervalSeconds,
                workerUrls,
                extraConsumers,
                teardownTimeoutSeconds,
                brokerVersion,
                transactionVersion,
                faultCommand,
                null);
    }

    public PlanOptions(
            Integer brokers,
            ClusterProfile brokerProfile,
            Map<String, String> brokerSettings,
            Integer reportingIntervalSeconds,
            List<String> workerUrls,
            boolean extraConsumers,
            int teardownTimeoutSeconds) {
        this(
                brokers,
                brokerProfile,
                brokerSettings,
                reportingIntervalSeconds,
                workerUrls,
                extraConsumers,
                teardownTimeoutSeconds,
                null,
                null,
                null);
    }

    public PlanOptions(
            Integer brokers,
            ClusterProfile brokerProfile,
            Map<String, String> brokerSettings,
            Integer reportingIntervalSeconds,
            List<String> workerUrls,
            boolean extraConsumers,
            int teardownTimeoutSeconds,
            String brokerVersion,
            Integer transactionVersion) {
        this(
                brokers,
                brokerProfile,
                brokerSettings,
                reportingIntervalSeconds,
                workerUrls,
                extraConsumers,
                teardownTimeoutSeconds,
                brokerVersion,
                transactionVersion,
                null);
    }

    public static final int DEFAULT_TEARDOWN_TIMEOUT_SECONDS = 30;

    public PlanOptions(
            Integer brokers,
            ClusterProfile brokerProfile,
            Map<String, String> brokerSettings,
            Integer reportingIntervalSeconds,
            List<String> workerUrls,
            boolean extraConsumers) {
        this(
                brokers,
                brokerProfile,
                brokerSettings,
                reportingIntervalSeconds,
                workerUrls,
                extraConsumers,
                DEFAULT_TEARDOWN_TIMEOUT_SECONDS);
    }

    public PlanOptions {
        brokerSettings = Map.copyOf(brokerSettings);
        workerUrls = List.copyOf(workerUrls);
    }

    public static PlanOptions defaults() {
        return new PlanOptions(null, null, Map.of(), null, List.of(), false);
    }
}

package io.ombtx.runner.config;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.cluster.ClusterProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One validated run's workload: OMB's fields with OMB's meaning, plus omb-tx's (loop mode, counts, the
 * operation, topology). Produced by {@link WorkloadLoader}; every value here has been checked.
 */
public record Workload(
        String name,
        String sourceFile,
        String description,
        // OMB's fields
        int topics,
        int partitionsPerTopic,
        KeyDistributorType keyDistributor,
        int messageSize,
        boolean useRandomizedPayloads,
        double randomBytesRatio,
        int randomizedPayloadPoolSize,
        Path payloadFile,
        int subscriptionsPerTopic,
        int producersPerTopic,
        int consumerPerSubscription,
        long producerRate,
        double consumerBacklogSizeGB,
        double backlogDrainRatio,
        // run length: either durations or counts
        Duration warmupDuration,
        Duration testDuration,
        long warmupOperations,
        long measureOperations,
        // omb-tx's fields
        LoopMode loop,
        OperationSpec operation,
        boolean waitForConsume,
        long prefillMessages,
        boolean verifyExactlyOnce,
        int brokers,
        ClusterProfile brokerProfile,
        Map<String, String> brokerSettings,
        DriverOverrides driverOverrides,
        int reportingIntervalSeconds,
        int stallTimeoutSeconds,
        // faults injected during the measurement, in the order declared
        List<Fault> faults,
        SweepPoint sweep,
        // the embedded broker's release and KIP-890 transaction version (null: the defaults)
        String brokerVersion,
        Integer transactionVersion) {

    public Workload {
        brokerSettings = Map.copyOf(brokerSettings);
        faults = List.copyOf(faults);
    }

    public boolean countBased() {
        return measureOperations > 0;
    }

    public boolean streaming() {
        return operation.kind() == OperationKind.STREAM;
    }

    public int producerCount() {
        return topics * producersPerTopic;
    }

    public int consumerCount() {
        return topics * subscriptionsPerTopic * consumerPerSubscription;
    }

    /** Messages one operation writes (a PUBLISH is one message; SEND_OFFSETS writes none). */
    public int messagesPerOperation() {
        return operation.kind() == OperationKind.SEND_OFFSETS ? 0 : operation.messagesPerOperation();
    }
}

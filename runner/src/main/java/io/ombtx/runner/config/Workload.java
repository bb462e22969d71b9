package io.ombtx.runner.config;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One validated run's workload: OMB's fields with OMB's meaning, plus omb-tx's (loop mode, counts, the
 * operation, topology), as a composition of parts each read and checked by its own reader ({@link TopicLayout},
 * {@link OperationReader}, {@link PayloadSpec}, {@link ClientCounts}, {@link LoadRate}, {@link RunLength},
 * {@link OperationOptions}, {@link BrokerSetup}, {@link Reporting}, {@link FaultsReader}); the accessors of the
 * single fields read through to them. Produced by {@link WorkloadLoader}; every value here has been checked.
 */
public record Workload(
        String name,
        String sourceFile,
        String description,
        TopicLayout layout,
        OperationSpec operation,
        PayloadSpec payload,
        ClientCounts clients,
        LoadRate load,
        RunLength length,
        OperationOptions options,
        BrokerSetup brokerSetup,
        Reporting reporting,
        // faults injected during the measurement, in the order declared
        List<Fault> faults,
        // the guarantee the run judges ({@code conformance}), or null
        Guarantee conformance,
        SweepPoint sweep) {

    public Workload {
        faults = List.copyOf(faults);
    }

    // OMB's fields

    public int topics() {
        return layout.topics();
    }

    public int partitionsPerTopic() {
        return layout.partitionsPerTopic();
    }

    public KeyDistributorType keyDistributor() {
        return layout.keyDistributor();
    }

    public int messageSize() {
        return payload.messageSize();
    }

    public boolean useRandomizedPayloads() {
        return payload.useRandomizedPayloads();
    }

    public double randomBytesRatio() {
        return payload.randomBytesRatio();
    }

    public int randomizedPayloadPoolSize() {
        return payload.randomizedPayloadPoolSize();
    }

    public Path payloadFile() {
        return payload.payloadFile();
    }

    public int subscriptionsPerTopic() {
        return clients.subscriptionsPerTopic();
    }

    public int producersPerTopic() {
        return clients.producersPerTopic();
    }

    public int consumerPerSubscription() {
        return clients.consumerPerSubscription();
    }

    public long producerRate() {
        return load.producerRate();
    }

    public double consumerBacklogSizeGB() {
        return load.consumerBacklogSizeGB();
    }

    public double backlogDrainRatio() {
        return load.backlogDrainRatio();
    }

    // run length: either durations or counts

    public Duration warmupDuration() {
        return length.warmupDuration();
    }

    public Duration testDuration() {
        return length.testDuration();
    }

    public long warmupOperations() {
        return length.warmupOperations();
    }

    public long measureOperations() {
        return length.measureOperations();
    }

    // omb-tx's fields

    public LoopMode loop() {
        return load.loop();
    }

    public boolean waitForConsume() {
        return options.waitForConsume();
    }

    public long prefillMessages() {
        return options.prefillMessages();
    }

    public boolean verifyExactlyOnce() {
        return options.verifyExactlyOnce();
    }

    /** {@code operation.liveCheck}: a read_committed consumer judges the STREAM's output during the run. */
    public boolean liveCheck() {
        return options.liveCheck();
    }

    /** {@code conformance}: the broker guarantee this run judges, or null. */
    public Guarantee guarantee() {
        return conformance;
    }

    public int brokers() {
        return brokerSetup.brokers();
    }

    /** Whether the workload gives {@code brokers} itself, rather than leaving the count to the replication factor. */
    public boolean brokersGiven() {
        return brokerSetup.brokersGiven();
    }

    public ClusterProfile brokerProfile() {
        return brokerSetup.brokerProfile();
    }

    public Map<String, String> brokerSettings() {
        return brokerSetup.brokerSettings();
    }

    public DriverOverrides driverOverrides() {
        return brokerSetup.driverOverrides();
    }

    public int reportingIntervalSeconds() {
        return reporting.reportingIntervalSeconds();
    }

    public int stallTimeoutSeconds() {
        return reporting.stallTimeoutSeconds();
    }

    /** The embedded broker's release (null: the default). */
    public String brokerVersion() {
        return brokerSetup.brokerVersion();
    }

    /** The embedded broker system (null: not given, Kafka). */
    public EmbeddedSystem brokerSystem() {
        return brokerSetup.brokerSystem();
    }

    /** The {@code brokerSecurity} key, null when not given. */
    public BrokerSecurity brokerSecurity() {
        return brokerSetup.brokerSecurity();
    }

    /** The client release the drivers run on (null: the built-in one, in the runner's JVM). */
    public String clientVersion() {
        return brokerSetup.clientVersion();
    }

    /** The workload's {@code partitionVerification} (null: not given), already among {@link #brokerSettings()}. */
    public Boolean partitionVerification() {
        return brokerSetup.partitionVerification();
    }

    /** The workload's {@code groupProtocol} (null: not given), already among the driver overrides' consumerConfig. */
    public BrokerSetup.GroupProtocol groupProtocol() {
        return brokerSetup.groupProtocol();
    }

    /** The KIP-890 transaction version to format the embedded storage with (null: the release's default). */
    public Integer transactionVersion() {
        return brokerSetup.transactionVersion();
    }

    public boolean countBased() {
        return length.countBased();
    }

    public boolean streaming() {
        return operation.kind() == OperationKind.STREAM;
    }

    public int producerCount() {
        return topics() * producersPerTopic();
    }

    public int consumerCount() {
        return topics() * subscriptionsPerTopic() * consumerPerSubscription();
    }

    /** Messages one operation writes (a PUBLISH is one message; SEND_OFFSETS writes none). */
    public int messagesPerOperation() {
        return operation.kind() == OperationKind.SEND_OFFSETS ? 0 : operation.messagesPerOperation();
    }
}

package io.ombtx.runner.plan;

import io.ombtx.runner.config.BrokerSecurity;
import io.ombtx.runner.config.ClusterProfile;
import io.ombtx.runner.config.EmbeddedSystem;
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
 * @param brokerSystem the embedded broker system ({@code --broker-system}, or a suite entry's), replacing the
 *     workload's (null: the workload's, else Kafka)
 * @param brokerSecurity the embedded cluster's security ({@code --broker-security}), replacing the workload's (null:
 *     the workload's, else none)
 * @param brokerSystemSource the file and key that chose {@code brokerSystem} (a suite entry's), or null for the
 *     command line
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
        String clientVersion,
        EmbeddedSystem brokerSystem,
        List<String> brokerSystemSource,
        BrokerSecurity brokerSecurity) {

    private static final int DEFAULT_TEARDOWN_TIMEOUT_SECONDS = 30;

    public PlanOptions {
        brokerSettings = Map.copyOf(brokerSettings);
        workerUrls = List.copyOf(workerUrls);
    }

    /** Nothing from the command line: the workload's settings, one local worker. */
    public static PlanOptions defaults() {
        return builder().build();
    }

    /** Starts from {@link #defaults()}; each setter replaces one component. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link PlanOptions} by name, so no caller writes twelve values in a row. */
    public static final class Builder {
        private Integer brokers;
        private ClusterProfile brokerProfile;
        private Map<String, String> brokerSettings = Map.of();
        private Integer reportingIntervalSeconds;
        private List<String> workerUrls = List.of();
        private boolean extraConsumers;
        private int teardownTimeoutSeconds = DEFAULT_TEARDOWN_TIMEOUT_SECONDS;
        private String brokerVersion;
        private Integer transactionVersion;
        private String faultCommand;
        private Integer senderThreadsPerProducer;
        private String clientVersion;
        private EmbeddedSystem brokerSystem;
        private List<String> brokerSystemSource;
        private BrokerSecurity brokerSecurity;

        private Builder() {}

        public Builder brokerSystem(EmbeddedSystem brokerSystem, List<String> source) {
            this.brokerSystem = brokerSystem;
            this.brokerSystemSource = source;
            return this;
        }

        public Builder brokerSecurity(BrokerSecurity brokerSecurity) {
            this.brokerSecurity = brokerSecurity;
            return this;
        }

        public Builder brokers(Integer brokers) {
            this.brokers = brokers;
            return this;
        }

        public Builder brokerProfile(ClusterProfile brokerProfile) {
            this.brokerProfile = brokerProfile;
            return this;
        }

        public Builder brokerSettings(Map<String, String> brokerSettings) {
            this.brokerSettings = brokerSettings;
            return this;
        }

        public Builder reportingIntervalSeconds(Integer reportingIntervalSeconds) {
            this.reportingIntervalSeconds = reportingIntervalSeconds;
            return this;
        }

        public Builder workerUrls(List<String> workerUrls) {
            this.workerUrls = workerUrls;
            return this;
        }

        public Builder extraConsumers(boolean extraConsumers) {
            this.extraConsumers = extraConsumers;
            return this;
        }

        public Builder teardownTimeoutSeconds(int teardownTimeoutSeconds) {
            this.teardownTimeoutSeconds = teardownTimeoutSeconds;
            return this;
        }

        public Builder brokerVersion(String brokerVersion) {
            this.brokerVersion = brokerVersion;
            return this;
        }

        public Builder transactionVersion(Integer transactionVersion) {
            this.transactionVersion = transactionVersion;
            return this;
        }

        public Builder faultCommand(String faultCommand) {
            this.faultCommand = faultCommand;
            return this;
        }

        public Builder senderThreadsPerProducer(Integer senderThreadsPerProducer) {
            this.senderThreadsPerProducer = senderThreadsPerProducer;
            return this;
        }

        public Builder clientVersion(String clientVersion) {
            this.clientVersion = clientVersion;
            return this;
        }

        public PlanOptions build() {
            return new PlanOptions(
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
                    clientVersion,
                    brokerSystem,
                    brokerSystemSource,
                    brokerSecurity);
        }
    }
}

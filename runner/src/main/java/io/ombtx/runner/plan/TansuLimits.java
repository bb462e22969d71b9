package io.ombtx.runner.plan;

import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.config.BrokerSetup;
import io.ombtx.runner.config.ClusterProfile;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.config.Workload;
import java.util.List;

/**
 * What the embedded Tansu (0.6.0, {@code brokerSystem: tansu}) cannot be asked for, checked while planning so that a
 * run asking for it stops before anything starts, naming the key (or flag) and the broker: it runs as one broker, so
 * no replication factor or broker count above 1; it has no settings profiles, no releases to choose, no Kafka broker
 * settings and no {@code transaction.version} feature; its ApiVersions has no ConsumerGroupHeartbeat (KIP-848), so
 * no {@code group.protocol=consumer}; and faults on brokers would kill a broker whose only storage is its memory.
 */
final class TansuLimits {

    private TansuLimits() {}

    /** Checks an embedded Tansu run; {@code chosenBy} says where Tansu was chosen ("--broker-system tansu", ...). */
    static void check(DriverFile driver, Workload w, PlanOptions options, String chosenBy) {
        String tail = ": the embedded Tansu (" + chosenBy + ") ";
        if (options.brokers() != null && options.brokers() > 1) {
            throw new UsageException("--brokers " + options.brokers() + tail + "runs as one broker");
        }
        if (w.brokersGiven() && w.brokers() > 1) {
            throw new ConfigException(
                    w.sourceFile(), "brokers", w.brokers() + " brokers" + tail + "runs as one broker");
        }
        Integer overrideRf = w.driverOverrides().replicationFactor();
        if (overrideRf != null && overrideRf > 1) {
            throw new ConfigException(
                    w.sourceFile(),
                    "driverOverrides.replicationFactor",
                    "replication factor " + overrideRf + tail + "runs as one broker, so every topic has one replica");
        }
        if (overrideRf == null && driver.replicationFactor() > 1) {
            throw new ConfigException(
                    driver.file().toString(),
                    "replicationFactor",
                    "replication factor " + driver.replicationFactor() + tail
                            + "runs as one broker, so every topic has one replica (use a driver with"
                            + " replicationFactor: 1, such as driver-kafka-tx/kafka-tx.yaml)");
        }
        if (options.brokerProfile() != null && options.brokerProfile() != ClusterProfile.DEFAULT) {
            throw new UsageException(
                    "--broker-profile " + options.brokerProfile().displayName() + tail
                            + "has no settings profiles (its own defaults only)");
        }
        if (options.brokerProfile() == null && w.brokerProfile() != ClusterProfile.DEFAULT) {
            throw new ConfigException(
                    w.sourceFile(),
                    "brokerProfile",
                    w.brokerProfile().displayName() + tail + "has no settings profiles (its own defaults only)");
        }
        if (options.brokerVersion() != null) {
            throw new UsageException("--broker-version " + options.brokerVersion() + tail
                    + "is release 0.6.0 only; --broker-version chooses a Kafka release");
        }
        if (w.brokerVersion() != null) {
            throw new ConfigException(
                    w.sourceFile(),
                    "brokerVersion",
                    w.brokerVersion() + tail + "is release 0.6.0 only; brokerVersion chooses a Kafka release");
        }
        if (!options.brokerSettings().isEmpty()) {
            String key = options.brokerSettings().keySet().iterator().next();
            throw new UsageException(
                    "--broker-config " + key + tail + "takes no Kafka broker settings (it has none of Kafka's)");
        }
        if (!w.brokerSettings().isEmpty()) {
            String key = w.brokerSettings().keySet().iterator().next();
            boolean shorthand = key.equals(BrokerSetup.PARTITION_VERIFICATION) && w.partitionVerification() != null;
            throw new ConfigException(
                    w.sourceFile(),
                    shorthand ? "partitionVerification" : "brokerSettings." + key,
                    (shorthand ? BrokerSetup.PARTITION_VERIFICATION : key) + tail
                            + "takes no Kafka broker settings (it has none of Kafka's)");
        }
        if (options.transactionVersion() != null) {
            throw new UsageException("--transaction-version " + options.transactionVersion() + tail
                    + "has no transaction.version feature (Kafka 4's KIP-890 level)");
        }
        if (w.transactionVersion() != null) {
            throw new ConfigException(
                    w.sourceFile(),
                    "transactionVersion",
                    w.transactionVersion() + tail + "has no transaction.version feature (Kafka 4's KIP-890 level)");
        }
        checkGroupProtocol(driver, w, tail);
        if (w.faults().stream().anyMatch(f -> !f.target().isClient())) {
            throw new ConfigException(
                    w.sourceFile(),
                    "faults",
                    "a fault on a broker" + tail + "keeps its data in memory only, so a broker killed, stopped or"
                            + " restarted loses every topic: faults on brokers need the embedded Kafka");
        }
    }

    private static void checkGroupProtocol(DriverFile driver, Workload w, String tail) {
        String problem = "consumer (KIP-848)" + tail + "serves the classic group protocol only (its ApiVersions has"
                + " no ConsumerGroupHeartbeat)";
        for (String block : List.of("consumerConfig", "commonConfig")) {
            String protocol = driver.properties(block).getProperty(BrokerSetup.GROUP_PROTOCOL);
            if (protocol == null || !protocol.trim().equalsIgnoreCase(BrokerSetup.GroupProtocol.CONSUMER.key())) {
                continue;
            }
            throw Planner.groupProtocolRefused(driver, w, block, problem);
        }
    }
}

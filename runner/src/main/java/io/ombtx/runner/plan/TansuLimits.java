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
public final class TansuLimits {

    /** Why each embedded-broker choice does not apply to Tansu, after "…: the embedded Tansu (…) ". */
    static final String ONE_BROKER = "runs as one broker";

    static final String NO_PROFILES = "has no settings profiles (its own defaults only)";
    static final String ONE_RELEASE = "is release 0.6.0 only; %s chooses a Kafka release";
    static final String NO_TRANSACTION_VERSION = "has no transaction.version feature (Kafka 4's KIP-890 level)";

    private TansuLimits() {}

    /** One set-up key that Tansu cannot take, and why. */
    public record Problem(String key, String message) {}

    /**
     * What a suite entry asks of its embedded cluster that Tansu, chosen by {@code chosenBy}, cannot give: the first
     * such key of {@code brokerVersion}, {@code brokers}, {@code brokerProfile}, {@code transactionVersion} (each
     * null when the entry leaves it), or null when none.
     */
    public static Problem entryProblem(
            String brokerVersion,
            Integer brokers,
            ClusterProfile brokerProfile,
            Integer transactionVersion,
            String chosenBy) {
        String tail = ": the embedded Tansu (" + chosenBy + ") ";
        if (brokerVersion != null) {
            return new Problem("brokerVersion", brokerVersion + tail + ONE_RELEASE.formatted("brokerVersion"));
        }
        if (brokers != null && brokers > 1) {
            return new Problem("brokers", brokers + " brokers" + tail + ONE_BROKER);
        }
        if (brokerProfile != null && brokerProfile != ClusterProfile.DEFAULT) {
            return new Problem("brokerProfile", brokerProfile.displayName() + tail + NO_PROFILES);
        }
        if (transactionVersion != null) {
            return new Problem("transactionVersion", transactionVersion + tail + NO_TRANSACTION_VERSION);
        }
        return null;
    }

    /** Checks an embedded Tansu run; {@code chosenBy} says where Tansu was chosen ("--broker-system tansu", ...). */
    static void check(DriverFile driver, Workload w, PlanOptions options, String chosenBy) {
        String tail = ": the embedded Tansu (" + chosenBy + ") ";
        if (options.brokers() != null && options.brokers() > 1) {
            throw new UsageException("--brokers " + options.brokers() + tail + ONE_BROKER);
        }
        if (w.brokersGiven() && w.brokers() > 1) {
            throw new ConfigException(w.sourceFile(), "brokers", w.brokers() + " brokers" + tail + ONE_BROKER);
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
                    "--broker-profile " + options.brokerProfile().displayName() + tail + NO_PROFILES);
        }
        if (options.brokerProfile() == null && w.brokerProfile() != ClusterProfile.DEFAULT) {
            throw new ConfigException(
                    w.sourceFile(), "brokerProfile", w.brokerProfile().displayName() + tail + NO_PROFILES);
        }
        if (options.brokerVersion() != null) {
            throw new UsageException(
                    "--broker-version " + options.brokerVersion() + tail + ONE_RELEASE.formatted("--broker-version"));
        }
        if (w.brokerVersion() != null) {
            throw new ConfigException(
                    w.sourceFile(), "brokerVersion", w.brokerVersion() + tail + ONE_RELEASE.formatted("brokerVersion"));
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
            throw new UsageException(
                    "--transaction-version " + options.transactionVersion() + tail + NO_TRANSACTION_VERSION);
        }
        if (w.transactionVersion() != null) {
            throw new ConfigException(
                    w.sourceFile(), "transactionVersion", w.transactionVersion() + tail + NO_TRANSACTION_VERSION);
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

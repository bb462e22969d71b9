package io.ombtx.runner.cluster;

import io.ombtx.runner.config.BrokerSecurity;
import io.ombtx.runner.config.ClusterProfile;
import io.ombtx.runner.config.EmbeddedSystem;
import java.util.List;
import java.util.Map;

/**
 * The brokers a run uses: an embedded cluster the runner starts (count, profile, settings on top of the profile),
 * or an external one named by the driver, which must have at least {@code brokers} nodes. For an external cluster,
 * {@code demands} says which settings ask for how many brokers (the replication factor first), so a cluster too
 * small is blamed on the setting it cannot meet; {@code serversSource} says where the bootstrap servers were named.
 * For an embedded cluster, {@code brokerVersion} is the Kafka release it runs (null: the default, the built-in
 * broker) and {@code transactionVersion} the KIP-890 transaction.version its storage is formatted with (null: the
 * broker's default); {@code system} is which broker it is (Kafka, or Tansu: one broker, no profile, release or
 * settings of its own). {@code system} is null for an external cluster and for none. {@code security} is how clients
 * reach an embedded cluster (null: none, PLAINTEXT) and {@code access} the ACLs the benchmark's principal needs on a
 * secured one (granted by the embedded cluster; printed by the dry run), empty when none are asked.
 */
public record BrokerPlan(
        boolean embedded,
        int brokers,
        ClusterProfile profile,
        Map<String, String> settings,
        String bootstrapServers,
        String serversSource,
        List<Demand> demands,
        String brokerVersion,
        Integer transactionVersion,
        EmbeddedSystem system,
        BrokerSecurity security,
        List<AccessNeed> access) {

    /**
     * A setting that asks for brokers.
     *
     * @param file the file that sets it, or null for a command-line flag
     * @param key the key (or the flag)
     */
    public record Demand(int brokers, String file, String key) {}

    public BrokerPlan {
        settings = Map.copyOf(settings);
        demands = List.copyOf(demands);
        access = List.copyOf(access);
    }

    public static BrokerPlan embedded(int brokers, ClusterProfile profile, Map<String, String> settings) {
        return embedded(brokers, profile, settings, null, null);
    }

    public static BrokerPlan embedded(
            int brokers,
            ClusterProfile profile,
            Map<String, String> settings,
            String brokerVersion,
            Integer transactionVersion) {
        return embedded(brokers, profile, settings, brokerVersion, transactionVersion, EmbeddedSystem.KAFKA);
    }

    public static BrokerPlan embedded(
            int brokers,
            ClusterProfile profile,
            Map<String, String> settings,
            String brokerVersion,
            Integer transactionVersion,
            EmbeddedSystem system) {
        return new BrokerPlan(
                true,
                brokers,
                profile,
                settings,
                null,
                null,
                List.of(),
                brokerVersion,
                transactionVersion,
                system,
                null,
                List.of());
    }

    /** This plan with its clients' security and the ACLs its benchmark principal needs. */
    public BrokerPlan withSecurity(BrokerSecurity security, List<AccessNeed> access) {
        return new BrokerPlan(
                embedded,
                brokers,
                profile,
                settings,
                bootstrapServers,
                serversSource,
                demands,
                brokerVersion,
                transactionVersion,
                system,
                security,
                access);
    }

    /** Whether the embedded cluster is secured (SASL_SSL or mutual TLS). */
    public boolean secured() {
        return security != null && security != BrokerSecurity.NONE;
    }

    /** Whether this is an embedded Tansu broker. */
    public boolean tansu() {
        return embedded && system == EmbeddedSystem.TANSU;
    }

    /** No broker at all: the driver brings its own transport (driver-aeron's embedded media driver). */
    public static BrokerPlan none() {
        return new BrokerPlan(false, 0, null, Map.of(), null, null, List.of(), null, null, null, null, List.of());
    }

    /** Whether the run has no broker (see {@link #none()}). */
    public boolean noBroker() {
        return !embedded && bootstrapServers == null;
    }

    public static BrokerPlan external(
            int brokersNeeded, String bootstrapServers, String serversSource, List<Demand> demands) {
        return new BrokerPlan(
                false,
                brokersNeeded,
                null,
                Map.of(),
                bootstrapServers,
                serversSource,
                demands,
                null,
                null,
                null,
                null,
                List.of());
    }
}

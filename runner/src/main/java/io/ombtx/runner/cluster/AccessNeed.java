package io.ombtx.runner.cluster;

import java.util.List;

/**
 * One ACL a run's clients need on a secured cluster: {@code principal} may do {@code operations} on the resources of
 * {@code resourceType} named {@code name} (or, {@code prefixed}, every name starting with it). Said by the broker
 * system while planning ({@link ClusterSystem#accessNeeds}), printed by the dry run, granted to the benchmark's
 * principal on a secured embedded cluster, and named when the cluster refuses one.
 *
 * @param resourceType as Kafka's ACLs name it: TOPIC, GROUP, TRANSACTIONAL_ID, CLUSTER
 * @param operations as Kafka's ACLs name them: CREATE, WRITE, READ, DESCRIBE, IDEMPOTENT_WRITE
 * @param why what in the run needs it, for the dry run
 */
public record AccessNeed(
        String principal, String resourceType, String name, boolean prefixed, List<String> operations, String why) {

    public AccessNeed {
        operations = List.copyOf(operations);
    }

    /** "WRITE, DESCRIBE on TRANSACTIONAL_ID omb-tx-*" (a prefix ends in *). */
    public String describe() {
        return String.join(", ", operations) + " on " + resourceType + " " + name + (prefixed ? "*" : "");
    }
}

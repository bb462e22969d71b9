package io.ombtx.runner.config;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Which broker a declared fault hits, resolved when the fault is injected: by its role for the run (the leader of
 * one of the first topic's partitions, the coordinator of the run's transactions or of its consumer group), or by its
 * index in the cluster (brokers sorted by node id, from 0).
 */
public enum FaultTarget {
    PARTITION_LEADER,
    TRANSACTION_COORDINATOR,
    GROUP_COORDINATOR,
    BROKER;

    /** Its name in workloads and results: partition-leader, transaction-coordinator, group-coordinator, broker. */
    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The roles, as a workload names them. */
    public static final String ROLES = "partition-leader | transaction-coordinator | group-coordinator";
}

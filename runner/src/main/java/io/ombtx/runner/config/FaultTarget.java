package io.ombtx.runner.config;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a declared fault hits. A broker, resolved when the fault is injected: by its role for the run (the leader of
 * one of the first topic's partitions, the coordinator of the run's transactions or of its consumer group), or by its
 * index in the cluster (brokers sorted by node id, from 0). Or a client of the run, by its index (fault's
 * {@code index}): one of STREAM's stream processors, or one of the transactional producers of WRITE and SEND_OFFSETS.
 */
public enum FaultTarget {
    PARTITION_LEADER,
    TRANSACTION_COORDINATOR,
    GROUP_COORDINATOR,
    BROKER,
    STREAM_PROCESSOR,
    TRANSACTIONAL_PRODUCER;

    /**
     * Its name in workloads and results: partition-leader, transaction-coordinator, group-coordinator, broker,
     * stream-processor, transactional-producer.
     */
    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether it names a client of the run (a stream processor, a transactional producer), not a broker. */
    public boolean isClient() {
        return this == STREAM_PROCESSOR || this == TRANSACTIONAL_PRODUCER;
    }

    /** The roles, as a workload names them. */
    public static final String ROLES = "partition-leader | transaction-coordinator | group-coordinator";

    /** The clients, as a workload names them. */
    public static final String CLIENTS = "stream-processor | transactional-producer";
}

package io.ombtx.runner.fault;

import io.ombtx.runner.config.Fault;
import java.util.List;

/**
 * The cluster as the fault injector sees it: which brokers there are, which broker a fault's target names now, and
 * whether a recovered broker serves again. Implemented per broker system (Kafka's asks its Admin API:
 * {@code io.ombtx.runner.kafka.FaultTargets}); given by the run's {@link io.ombtx.runner.cluster.ClusterSession}.
 */
public interface FaultCluster extends AutoCloseable {

    /** What the run created, by name: what a role target (leader, coordinator) is found through. */
    record RunNames(List<String> topics, List<String> groups, boolean streaming) {}

    /** The broker and, for a role, what it was found through (a topic, a transactional id, a group). */
    record Resolved(int nodeId, String via) {}

    /** The live brokers, sorted by node id. */
    List<BrokerControl.Broker> brokers() throws Exception;

    /** The broker a fault's target names now. */
    Resolved resolve(Fault fault, List<BrokerControl.Broker> brokersAtStart) throws Exception;

    /** Returns once the broker answers requests again. */
    void awaitServing(int nodeId) throws Exception;

    @Override
    void close();
}

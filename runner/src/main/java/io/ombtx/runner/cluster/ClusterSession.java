package io.ombtx.runner.cluster;

import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.Guarantee;
import io.ombtx.runner.fault.BrokerControl;
import io.ombtx.runner.fault.FaultCluster;
import io.ombtx.runner.result.RunResult;

/** One run's cluster, from {@link ClusterSystem#open}: what the run reads of it and how faults reach it. */
public interface ClusterSession extends AutoCloseable {

    /** The driver the workers get: an embedded cluster's address filled in, otherwise as planned. */
    DriverFile driver();

    /** How many brokers the cluster has now (what an external cluster is checked against before anything starts). */
    int brokers();

    /**
     * The cluster as the result records it, read back from the cluster itself: size, system, versions, transaction
     * protocol. Read once; what does not answer is noted in it, not thrown.
     */
    RunResult.Broker facts() throws Exception;

    /** Direct control of the brokers' processes (an embedded cluster), or null: an external cluster's are not ours. */
    BrokerControl processControl();

    /** A client of its own that finds the brokers a fault names among the run's topics and groups. */
    FaultCluster faultCluster(FaultCluster.RunNames names) throws Exception;

    /**
     * Why the cluster can no longer serve the run, noticed without asking it — a broker process of the embedded
     * cluster that exited on its own, not through a fault the workload declared (with which broker and when) — or
     * null while it is whole. Cheap: polled by the measurement every few milliseconds. An external cluster's
     * processes are not ours: null.
     */
    default String lost() {
        return null;
    }

    /**
     * The driver {@code planned} pointed at this cluster, for another run on it ({@link ClusterReuse}), or null when
     * the cluster cannot serve a driver other than the one it was opened with (an external cluster: its address is
     * the driver's own).
     */
    default DriverFile driverFor(DriverFile planned) {
        return null;
    }

    /**
     * Copies the brokers' own logs into {@code dir} before the session closes (an embedded cluster's are deleted with
     * it), for a run that did not succeed; returns the files written. An external cluster's logs are on its hosts:
     * none.
     */
    default java.util.List<java.nio.file.Path> keepBrokerLogs(java.nio.file.Path dir) throws java.io.IOException {
        return java.util.List.of();
    }

    /**
     * A reader of the transaction coordinators' log, for a transactional run's coordinator load, or null when the
     * system keeps no such log the run can read. The caller closes it.
     */
    default CoordinatorLog coordinatorLog() {
        return null;
    }

    /**
     * Probes the cluster for a guarantee judged by clients of the probe's own rather than from the run's checks
     * ({@link Guarantee#probe()}: a transaction held open, one left to time out), after the measurement; the verdict
     * with its counts and first violation, or null when this cluster system has no such probe. Bounded in time (a
     * broker that never ends a transaction is a verdict, not a hang).
     */
    default RunResult.Conformance probeConformance(Guarantee guarantee, java.util.function.Consumer<String> log)
            throws Exception {
        return null;
    }

    /**
     * Asks the cluster, as the benchmark's principal, for what the run's ACLs allow ({@code needs}, the plan's), before
     * the load; returns one sentence naming the resource and operation refused, or empty when nothing was refused
     * (or there is nothing to ask).
     */
    default java.util.Optional<String> accessRefusal(java.util.List<AccessNeed> needs) throws InterruptedException {
        return java.util.Optional.empty();
    }

    /**
     * {@code failure} (a set-up step's, with its causes) as one sentence naming the resource and operation the cluster
     * refused, when an authorization error caused it; empty otherwise.
     */
    default java.util.Optional<String> refusalOf(Throwable failure, java.util.List<AccessNeed> needs) {
        return java.util.Optional.empty();
    }

    /** Closes its clients and stops an embedded cluster. */
    @Override
    void close();
}

package io.ombtx.runner.cluster;

import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.fault.BrokerControl;
import io.ombtx.runner.fault.FaultCluster;
import io.ombtx.runner.result.RunResult;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One embedded cluster kept for the next run that asks for the same one ({@code --reuse-brokers}, a suite's
 * {@code reuseBrokers}): runs in a row whose {@link BrokerPlan}s are equal (release, broker count, profile, settings,
 * transaction version) and that declare no faults start the cluster once. Each run still has its own topics,
 * transactional ids and consumer groups (its run id names them). A run with faults gets a cluster of its own,
 * stopped after it (the one kept is stopped first, so two never run side by side); a cluster that lost a broker is
 * never handed on. Results say how many runs the cluster had served ({@code broker.runOnCluster}).
 *
 * <p>Not thread-safe: one invocation's runs, one after another.
 */
public final class ClusterReuse implements AutoCloseable {

    private BrokerPlan keptPlan;
    private ClusterSession kept;
    private int runs;

    /**
     * A session for a run on {@code plan} with {@code driver}: the cluster kept from the previous run when its plan is
     * the same and it can serve {@code driver}, otherwise one opened through {@code system} (the one kept, if any,
     * stopped first). Closing the returned session keeps the cluster for the next run, unless {@code shareable} was
     * false or the cluster was lost meanwhile.
     *
     * @param shareable whether the run may share its cluster (false for a run that declares faults)
     */
    public ClusterSession open(
            ClusterSystem system, BrokerPlan plan, DriverFile driver, boolean shareable, Consumer<String> log)
            throws Exception {
        if (kept != null && shareable && plan.embedded() && plan.equals(keptPlan) && kept.lost() == null) {
            DriverFile pointed = kept.driverFor(driver);
            if (pointed != null) {
                runs++;
                log.accept(String.format(
                        "Embedded cluster kept from the previous run (run %d on it; --reuse-brokers)", runs));
                return new Lease(kept, pointed, runs, true);
            }
        }
        close();
        ClusterSession fresh = system.open(plan, driver, log);
        if (!shareable || !plan.embedded()) {
            return fresh; // closed by the run, as without reuse
        }
        keptPlan = plan;
        kept = fresh;
        runs = 1;
        return new Lease(fresh, fresh.driver(), 1, false);
    }

    /**
     * How many times {@code plans}, run in this order, start an embedded cluster with reuse: a plan equal to the one
     * before it (both embedded, neither with faults, as {@code shareable} tells) starts none; a run on an external
     * cluster or without a broker starts none and keeps none for the next.
     */
    public static int starts(List<BrokerPlan> plans, Predicate<Integer> shareable) {
        int starts = 0;
        BrokerPlan previous = null;
        for (int i = 0; i < plans.size(); i++) {
            BrokerPlan plan = plans.get(i);
            if (!plan.embedded()) { // no broker, or an external cluster: nothing started, nothing kept
                previous = null;
                continue;
            }
            boolean shares = shareable.test(i);
            if (!(shares && plan.equals(previous))) {
                starts++;
            }
            previous = shares ? plan : null;
        }
        return starts;
    }

    /** Stops the cluster kept, if any. */
    @Override
    public void close() {
        ClusterSession stopping = kept;
        kept = null;
        keptPlan = null;
        runs = 0;
        if (stopping != null) {
            stopping.close();
        }
    }

    /** The kept cluster as one run sees it: closing it keeps the cluster, unless it was lost. */
    private final class Lease implements ClusterSession {
        private final ClusterSession cluster;
        private final DriverFile driver;
        private final int run;
        private final boolean reused;

        Lease(ClusterSession cluster, DriverFile driver, int run, boolean reused) {
            this.cluster = cluster;
            this.driver = driver;
            this.run = run;
            this.reused = reused;
        }

        @Override
        public DriverFile driver() {
            return driver;
        }

        @Override
        public int brokers() {
            return cluster.brokers();
        }

        @Override
        public RunResult.Broker facts() throws Exception {
            return cluster.facts().withRunOnCluster(run);
        }

        @Override
        public BrokerControl processControl() {
            return cluster.processControl();
        }

        @Override
        public FaultCluster faultCluster(FaultCluster.RunNames names) throws Exception {
            return cluster.faultCluster(names);
        }

        @Override
        public String lost() {
            return cluster.lost();
        }

        @Override
        public DriverFile driverFor(DriverFile planned) {
            return cluster.driverFor(planned);
        }

        @Override
        public java.util.List<java.nio.file.Path> keepBrokerLogs(java.nio.file.Path dir) throws java.io.IOException {
            return cluster.keepBrokerLogs(dir);
        }

        @Override
        public CoordinatorLog coordinatorLog() {
            return cluster.coordinatorLog();
        }

        @Override
        public RunResult.Conformance probeConformance(
                io.ombtx.runner.config.Guarantee guarantee, java.util.function.Consumer<String> log) throws Exception {
            return cluster.probeConformance(guarantee, log);
        }

        @Override
        public void close() {
            if (cluster == kept && cluster.lost() != null) {
                ClusterReuse.this.close(); // a broker died: the next run starts a whole cluster
            }
        }

        @Override
        public String toString() {
            return "run " + run + (reused ? " on a kept cluster" : " on a fresh cluster");
        }
    }
}

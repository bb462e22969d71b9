package io.ombtx.runner.run;

import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.cluster.BrokerPlan;
import io.ombtx.runner.config.Fault;
import io.ombtx.runner.config.FaultTarget;
import io.ombtx.runner.plan.Measurement;

/** What is checked of an external cluster once its size is known, before anything starts: bad input, exit 2. */
final class ClusterCheck {

    private ClusterCheck() {}

    /** The cluster is smaller than planned: blames the first setting asking for more than it has. */
    static ConfigException tooSmall(BrokerPlan plan, int live) {
        String has = "the cluster at " + plan.bootstrapServers() + " has " + live + " broker(s)";
        for (BrokerPlan.Demand demand : plan.demands()) {
            if (demand.brokers() > live) {
                String asks = demand.key().contains("replicationFactor")
                        ? "replication factor " + demand.brokers() + " needs " + demand.brokers() + " broker(s)"
                        : demand.brokers() + " broker(s) asked for";
                return demand.file() == null
                        ? new ConfigException(null, null, demand.key() + " " + demand.brokers() + ": " + has)
                        : new ConfigException(demand.file(), demand.key(), asks + " but " + has);
            }
        }
        return new ConfigException(null, null, "the run needs " + plan.brokers() + " broker(s) but " + has);
    }

    /** A broker index beyond an external cluster is found once its size is known. */
    static void faultIndexes(Measurement w, int live) {
        for (Fault fault : w.faults()) {
            if (fault.target() == FaultTarget.BROKER && fault.brokerIndex() >= live) {
                throw new ConfigException(
                        w.sourceFile(),
                        fault.key() + ".target",
                        "broker index " + fault.brokerIndex() + " but the cluster has " + live
                                + " broker(s), indexes 0 to " + (live - 1));
            }
        }
    }
}

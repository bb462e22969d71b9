package io.ombtx.runner.fault;

import io.ombtx.runner.config.FaultAction;

/**
 * How the runner reaches a broker to inject a fault and undo it: directly for the embedded cluster
 * ({@link EmbeddedBrokerControl}), through the {@code --fault-command} hook for an external one
 * ({@link CommandBrokerControl}). Both block until the action is done.
 */
public interface BrokerControl {

    /** A broker as the cluster metadata names it. */
    record Broker(int nodeId, String host, int port) {

        public String address() {
            return host + ":" + port;
        }
    }

    /** Kills, pauses or stops the broker. */
    void inject(FaultAction action, Broker broker) throws Exception;

    /** Restarts a killed or stopped broker, or resumes a paused one. */
    void recover(FaultAction action, Broker broker) throws Exception;

    /** How the control works, for the console: "embedded broker", "--fault-command". */
    String describe();
}

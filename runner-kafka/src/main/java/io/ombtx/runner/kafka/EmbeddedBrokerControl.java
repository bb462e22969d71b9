package io.ombtx.runner.kafka;

import io.ombtx.broker.BrokerFaults;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.config.FaultAction;
import io.ombtx.runner.fault.BrokerControl;
import java.time.Duration;

/** Faults on the embedded cluster's own child processes: SIGKILL, SIGSTOP/SIGCONT, SIGTERM and a restart. */
final class EmbeddedBrokerControl implements BrokerControl {

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(120);

    private final BrokerFaults faults;

    EmbeddedBrokerControl(EmbeddedKafkaCluster cluster) {
        this.faults = cluster.faults();
    }

    @Override
    public void inject(FaultAction action, Broker broker) throws Exception {
        int index = faults.index(broker.nodeId());
        switch (action) {
            case KILL -> faults.kill(index);
            case PAUSE -> faults.pause(index);
            case STOP -> faults.stop(index, STOP_TIMEOUT);
            case ADD, REMOVE -> throw new IllegalArgumentException(action.key() + " applies to stream processors only");
        }
    }

    @Override
    public void recover(FaultAction action, Broker broker) throws Exception {
        int index = faults.index(broker.nodeId());
        if (action == FaultAction.PAUSE) {
            faults.resume(index);
        } else {
            faults.restart(index, RESTART_TIMEOUT);
        }
    }

    @Override
    public String describe() {
        return "embedded broker process";
    }
}

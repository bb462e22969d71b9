package io.ombtx.runner.cluster;

import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.plan.BrokerPlan;
import java.util.function.Consumer;

/**
 * What the runner needs of a broker system, and all it knows of one: start the cluster a plan asks for (or reach the
 * one the driver names), read its facts, and find and act on the brokers a fault names, through a
 * {@link ClusterSession}. One implementation per system, apart from the core ({@code io.ombtx.runner.kafka} for
 * Kafka-API brokers); a plan without a broker ({@link BrokerPlan#none()}, driver-aeron) never asks for one.
 */
public interface ClusterSystem {

    /**
     * Starts the embedded cluster {@code plan} asks for, or reaches the external one {@code driver} names, and returns
     * the session the run uses it through; closing it stops an embedded cluster.
     *
     * @param log one line at a time, for the console
     * @throws ClusterUnreachable an external cluster that does not answer (exit 1)
     */
    ClusterSession open(BrokerPlan plan, DriverFile driver, Consumer<String> log) throws Exception;
}

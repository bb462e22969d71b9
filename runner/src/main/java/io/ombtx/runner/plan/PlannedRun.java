package io.ombtx.runner.plan;

import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.Workload;

/** One run of the plan: a driver, a workload (or sweep point) and the brokers it needs. */
public record PlannedRun(DriverFile driver, Workload workload, int brokersNeeded, boolean embeddedBroker) {
}

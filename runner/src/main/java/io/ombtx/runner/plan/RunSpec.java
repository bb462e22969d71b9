package io.ombtx.runner.plan;

import io.ombtx.runner.cluster.BrokerNeeds;
import io.ombtx.runner.cluster.BrokerPlan;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.result.WorkloadRecord;
import io.ombtx.runner.search.MaxRateSearch;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Payloads;
import java.util.List;

/**
 * One run, fully resolved while planning; the dry run prints it and execution consumes it, nothing else.
 *
 * @param number position in the plan, from 1
 * @param measurement what the run measures and checks, resolved from its workload (or sweep point)
 * @param recorded the workload as the result records it
 * @param driver the effective driver YAML: the user's file with the workload's overrides applied and checked by the
 *     driver's own parser; an embedded broker's address is added when it has started
 * @param driverChecked whether the driver's own parser checked it (false: the driver has no check, or its class is
 *     not on this class path and only remote workers load it)
 * @param broker the brokers it runs on
 * @param workers what each worker does; empty members (idle workers) are left out
 * @param workerNote why some workers stay idle, or null
 * @param initialRate the total target rate at the start, msg/s (0: closed loop, or a STREAM on a prefilled source)
 * @param findMaximumRate whether the rate is searched for ({@code producerRate: 0} in open loop)
 * @param reportingIntervalSeconds progress and period length
 * @param teardownTimeoutSeconds the one deadline all remaining steps share once a run ends early
 * @param repetition which repetition of its (driver, workload) this run is, and its group ({@link Repetitions})
 * @param faultCommand for the workload's faults on an external cluster, the command that injects them; null for an
 *     embedded cluster (the runner controls its brokers) or a workload without faults
 * @param runId the id its topic and subscription names carry (a repetition draws its own)
 * @param topology its topics, producers and subscriptions
 * @param load what {@code /start-load} asks of the workers (each gets its share), without the payload bytes
 * @param payloads the payloads, as built when the load starts
 * @param search the max-rate search's settings, or null when the rate is not searched for
 * @param clientVersion the client release of the run's local worker, or null for the built-in one
 * @param overrides the workload's driverOverrides, one line each as the dry run shows them
 * @param warnings what the workload's reader warns of (settings that are valid but likely not meant)
 * @param brokerNeeds what the run needs of the broker's transactional protocol, checked against what the cluster
 *     serves once it has answered, before the load ({@link BrokerNeeds})
 */
public record RunSpec(
        int number,
        Measurement measurement,
        WorkloadRecord recorded,
        DriverFile driver,
        boolean driverChecked,
        BrokerPlan broker,
        List<WorkerAssignment> workers,
        String workerNote,
        double initialRate,
        boolean findMaximumRate,
        int reportingIntervalSeconds,
        int teardownTimeoutSeconds,
        Repetition repetition,
        String faultCommand,
        String runId,
        Topology topology,
        LoadSpec load,
        Payloads.Spec payloads,
        MaxRateSearch.Settings search,
        String clientVersion,
        List<String> overrides,
        List<String> warnings,
        List<BrokerNeeds.Need> brokerNeeds) {

    public RunSpec {
        workers = List.copyOf(workers);
        overrides = List.copyOf(overrides);
        warnings = List.copyOf(warnings);
        brokerNeeds = List.copyOf(brokerNeeds);
    }

    /** The same run as another repetition: its own number, repetition and run id (and so its own names). */
    public RunSpec repeated(int number, Repetition repetition, String runId) {
        return new RunSpec(
                number,
                measurement,
                recorded,
                driver,
                driverChecked,
                broker,
                workers,
                workerNote,
                initialRate,
                findMaximumRate,
                reportingIntervalSeconds,
                teardownTimeoutSeconds,
                repetition,
                faultCommand,
                runId,
                topology.forRun(runId),
                load,
                payloads,
                search,
                clientVersion,
                overrides,
                warnings,
                brokerNeeds);
    }

    /** The workload's (or sweep point's) name. */
    public String name() {
        return measurement.name();
    }

    public boolean openLoop() {
        return measurement.loop() == LoopMode.OPEN;
    }

    /** The workers that create producers, in plan order. */
    public List<WorkerAssignment> producing() {
        return workers.stream().filter(WorkerAssignment::producing).toList();
    }

    /** The workers that create consumers, in plan order. */
    public List<WorkerAssignment> consuming() {
        return workers.stream().filter(WorkerAssignment::consuming).toList();
    }
}

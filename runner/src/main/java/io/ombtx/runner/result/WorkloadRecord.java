package io.ombtx.runner.result;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;

/**
 * The workload as a result records it: OMB's description fields, the measured operation and the sweep point. The
 * planner makes it once per run ({@code plan.AsRecorded}); the result builder reads nothing else of the workload.
 *
 * @param operation the measured operation (its transactions' cut, its aborts on purpose)
 * @param sweep the sweep point, or null for a run that is not one
 */
public record WorkloadRecord(
        String name,
        String description,
        int messageSize,
        int topics,
        int partitionsPerTopic,
        int producersPerTopic,
        int consumersPerSubscription,
        OperationSpec operation,
        boolean waitForConsume,
        long prefillMessages,
        RunResult.Sweep sweep) {

    public boolean streaming() {
        return operation.kind() == OperationKind.STREAM;
    }

    public boolean abortsOnPurpose() {
        return operation.abortRatio() > 0;
    }
}

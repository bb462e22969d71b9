package io.ombtx.runner.cluster;

import io.ombtx.driver.api.OperationKind;

/**
 * What a run's clients do on the cluster, for the ACLs they need ({@link ClusterSystem#accessNeeds}).
 *
 * @param kind the operation
 * @param transactional whether its producers (or stream processors) use transactions
 * @param sendOffsets whether its transactions commit a group's offsets ({@code sendOffsetsToTransaction})
 * @param produces whether it has producers
 * @param consumes whether it has subscriptions (consumers, stream processors)
 * @param release the embedded broker's release, null for the default or an external cluster
 */
public record AccessUse(
        OperationKind kind,
        boolean transactional,
        boolean sendOffsets,
        boolean produces,
        boolean consumes,
        String release) {}

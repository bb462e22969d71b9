package io.ombtx.broker;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FinalizedVersionRange;

/**
 * The transaction protocol a cluster runs, read back from it: the finalized {@code transaction.version} feature
 * level (KIP-890) that Admin {@code describeFeatures()} reports. A cluster that reports none (Kafka before 4.0, or
 * a 4.x cluster at level 0) runs the protocol from before KIP-890, recorded as version 0.
 *
 * @param transactionVersion the finalized level, 0 when the feature is absent
 * @param finalized whether the cluster reported the feature at all
 * @param description what the level means for a transaction, for results
 */
public record TransactionProtocol(int transactionVersion, boolean finalized, String description) {

    /** The feature's name. */
    public static final String FEATURE = "transaction.version";

    /** Reads the finalized feature level through {@code admin}. */
    public static TransactionProtocol read(Admin admin, long timeoutSeconds) throws Exception {
        FeatureMetadata metadata = admin.describeFeatures().featureMetadata().get(timeoutSeconds, TimeUnit.SECONDS);
        FinalizedVersionRange range = metadata.finalizedFeatures().get(FEATURE);
        return of(range == null ? null : (int) range.maxVersionLevel());
    }

    /** The protocol of a finalized level, or of none ({@code null}). */
    public static TransactionProtocol of(Integer level) {
        if (level == null || level == 0) {
            return new TransactionProtocol(
                    0,
                    level != null,
                    "pre-KIP-890: partitions are added with"
                            + " AddPartitionsToTxn and the producer keeps its epoch across transactions"
                            + (level == null ? " (the cluster reports no " + FEATURE + " feature)" : ""));
        }
        if (level == 1) {
            return new TransactionProtocol(
                    1,
                    true,
                    FEATURE + " 1: flexible transaction-log records; the"
                            + " transaction protocol otherwise as before KIP-890 part 2 (no epoch bump per transaction)");
        }
        return new TransactionProtocol(
                level,
                true,
                FEATURE + " " + level + ": KIP-890 part 2, the epoch is bumped"
                        + " on every transaction and partitions are added implicitly by the produce request");
    }
}

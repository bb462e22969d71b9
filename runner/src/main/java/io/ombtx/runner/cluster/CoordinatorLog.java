package io.ombtx.runner.cluster;

import io.ombtx.runner.result.RunResult;
import java.time.Instant;
import java.util.Map;

/**
 * The transaction coordinators' own log, read from the broker (Kafka's {@code __transaction_state}): where it ends
 * now, and which transactions ended in it between two such marks, by log partition and by the broker that leads it
 * (the coordinator of the transactional ids hashed there). A run marks it before its load starts, and again once
 * its load has stopped, and counts the transactions whose commit or abort the coordinators took in the measured
 * phase, by the time the log records for it.
 */
public interface CoordinatorLog extends AutoCloseable {

    /** Where each partition of the log ends now; a log not made yet ends at 0 everywhere. */
    Mark mark() throws Exception;

    /**
     * The transactions whose end the log holds from {@code from} to {@code to} and whose commit or abort the
     * coordinator took (by its clock) at or after {@code since} and before {@code until}.
     */
    RunResult.Coordinators between(Mark from, Mark to, Instant since, Instant until) throws Exception;

    @Override
    void close();

    /** A partition's end offset by partition number; a partition absent ended at 0. */
    record Mark(Map<Integer, Long> endOffsets) {

        public Mark {
            endOffsets = Map.copyOf(endOffsets);
        }

        public long endOf(int partition) {
            return endOffsets.getOrDefault(partition, 0L);
        }
    }
}

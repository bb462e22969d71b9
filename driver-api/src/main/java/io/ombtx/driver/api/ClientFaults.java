package io.ombtx.driver.api;

import java.util.concurrent.CompletableFuture;

/**
 * Optional, implemented by a {@code BenchmarkDriver} whose transactional clients can be faulted during a run (a
 * workload's {@code faults:} with {@code target: stream-processor} or {@code transactional-producer}): one of its
 * clients killed (abandoned mid-transaction, no abort, no close), stopped (its open transaction aborted, closed),
 * paused as a zombie (held mid-transaction with its producer open), each brought back by a new instance holding the
 * same transactional id; and, in group mode, stream processors added to or removed from the consumer group. The
 * runner asks for it while planning: a workload with client faults on a driver without it stops with exit code 2.
 *
 * <p>Clients are named by their index among the driver's clients of that kind, in the order they were created
 * (an added processor takes the next index). Each fault is carried out on the client's own loop: kill, stop and
 * pause act at the next transaction's decision point, after its sends and its offsets and before its commit, so the
 * fault always cuts a transaction that holds records.
 */
public interface ClientFaults {

    /** Which clients: STREAM's processors, or the transactional producers of WRITE and SEND_OFFSETS. */
    enum Client {
        STREAM_PROCESSOR,
        TRANSACTIONAL_PRODUCER
    }

    /** What to do to the client; the recovery steps and REPORT name a fault injected before. */
    enum Step {
        /** Abandon the client mid-transaction: no abort, no close. */
        KILL,
        /** Abort the client's open transaction and close it. */
        STOP,
        /** Hold the client mid-transaction, its producer open (a zombie). */
        PAUSE,
        /** After KILL or STOP: a new instance with the same transactional id takes over. */
        RESTART,
        /**
         * After PAUSE: a new instance with the same transactional id takes over (fencing the zombie's epoch), then
         * the zombie is let go on: its commit must fail as fenced, and it ends.
         */
        RESUME,
        /** Group mode: one more stream processor joins the group (index ignored). */
        ADD,
        /** Group mode: the stream processor leaves cleanly (its open transaction aborted, closed). */
        REMOVE,
        /** What the fault has come to so far, for the result; changes nothing. */
        REPORT
    }

    /**
     * @param fault the workload's key of the fault, {@code faults[N]}: what recovery and report steps refer to
     * @param client the kind of client
     * @param index the client's index among this driver's clients of that kind
     * @param step what to do
     */
    record Request(String fault, Client client, int index, Step step) {}

    /**
     * What a fault did, as far as it has gone.
     *
     * @param index the client's index on the driver (for ADD: the new processor's)
     * @param fencings calls of the faulted instance that failed because a newer instance had fenced it (a resumed
     *     zombie's commit: ProducerFenced, InvalidProducerEpoch)
     * @param zombieCommits commits the faulted instance made after a newer instance had taken over: must be 0
     * @param abortedTransactions transactions the fault aborted, by the client (stop, remove) or left open for the
     *     next instance of the transactional id to abort (kill, pause)
     * @param reprocessedRecords input records of those transactions (a STREAM batch read again from the committed
     *     offsets) or records sent again (a WRITE operation run again on the new instance)
     * @param stallMillis from the fault until the client's next commit (the new instance's first), or null while
     *     there has been none
     * @param note what the driver wants said of it, or null
     */
    record Report(
            int index,
            int fencings,
            int zombieCommits,
            int abortedTransactions,
            long reprocessedRecords,
            Long stallMillis,
            String note) {}

    /** Carries out one step; the future completes once it is done (for KILL, STOP, PAUSE: once the client acted). */
    CompletableFuture<Report> clientFault(Request request);
}

package io.ombtx.driver.kafka;

import io.ombtx.driver.api.ClientFaults;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.InterruptException;

/**
 * One client fault (kill, stop or pause) on one transactional client, from the request to its report. The request
 * thread arms it on the client's {@link TransactionFlow}; the client's own loop carries it out at the next
 * transaction's decision point (after its sends and offsets, before its commit) and ends by throwing
 * {@link ClientHalted}; the client's owner (a {@link StreamProcessor}, a {@link KafkaTxProducer}) finishes it. What
 * happened is kept here for {@link ClientFaults.Step#REPORT}.
 */
final class ClientFault {

    private final ClientFaults.Step step;
    private final CompletableFuture<Void> acted = new CompletableFuture<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final CompletableFuture<Void> firstCommit = new CompletableFuture<>();
    private final CountDownLatch resume = new CountDownLatch(1);
    private volatile Runnable beforeHold = () -> {};
    private volatile int index;
    private volatile long armedNanos;
    private volatile long cutNanos;
    private volatile int cutRecords;
    private volatile int aborted;
    private volatile int fencings;
    private volatile int zombieCommits;
    private volatile long firstCommitNanos;
    private volatile String note;

    /** @param step KILL, STOP or PAUSE */
    ClientFault(ClientFaults.Step step, int index) {
        if (step != ClientFaults.Step.KILL && step != ClientFaults.Step.STOP && step != ClientFaults.Step.PAUSE) {
            throw new IllegalArgumentException("not a client fault: " + step);
        }
        this.step = step;
        this.index = index;
    }

    ClientFaults.Step step() {
        return step;
    }

    /** What a paused client does, on its own thread, before it is held (a stream processor leaves its group). */
    void beforeHold(Runnable action) {
        this.beforeHold = action;
    }

    /**
     * The decision point, on the client's loop thread, with a transaction of {@code records} records open: kills
     * (leaves it open), stops (aborts it) or pauses (holds the thread until {@link #resume}, then makes the zombie's
     * call, which must fail as fenced). Always ends by throwing {@link ClientHalted}.
     *
     * @param abort aborts the open transaction through the client's session
     * @param end the call the transaction was about to make (its commit, or its abort on purpose)
     * @param endIsCommit whether {@code end} commits
     */
    ClientHalted cut(int records, Runnable abort, Runnable end, boolean endIsCommit) {
        cutNanos = System.nanoTime();
        cutRecords = records;
        switch (step) {
            case KILL -> aborted = 1; // left open: the next instance of the transactional id aborts it
            case STOP -> {
                try {
                    abort.run();
                    aborted = 1;
                } catch (InterruptException e) {
                    throw e;
                } catch (RuntimeException e) {
                    note = "the stopped client's abort failed: " + ErrorClassifier.describe(e);
                }
            }
            case PAUSE -> {
                aborted = 1; // the replacement's initTransactions aborts it
                beforeHold.run();
                acted.complete(null);
                awaitResume();
                try {
                    end.run();
                    if (endIsCommit) {
                        zombieCommits++;
                    }
                    note = "the zombie's " + (endIsCommit ? "commit" : "abort") + " was not fenced";
                } catch (InterruptException e) {
                    throw e;
                } catch (RuntimeException e) {
                    if (ErrorClassifier.fenced(e)) {
                        fencings++;
                    } else {
                        note = "the zombie's call failed, but not as fenced: " + ErrorClassifier.describe(e);
                    }
                }
            }
            default -> throw new IllegalStateException(step.toString());
        }
        return new ClientHalted(this);
    }

    /** Armed on its client: from now on it waits for the client's next transaction. */
    void armed() {
        armedNanos = System.nanoTime();
    }

    boolean waitedAtLeast(long nanos) {
        return armedNanos != 0 && System.nanoTime() - armedNanos >= nanos;
    }

    /**
     * Carries the fault out between transactions, none open, on a client that got no input to begin one since it
     * was armed: killed or stopped, it ends with nothing to abort; paused, it is held (after {@link #beforeHold})
     * until resumed and then has no call to make, so nothing is fenced. Always ends by throwing {@link ClientHalted};
     * the report's note says so.
     */
    ClientHalted cutIdle() {
        cutNanos = System.nanoTime();
        cutRecords = 0;
        note("carried out between transactions, none open: the client had no input for "
                + TimeUnit.NANOSECONDS.toMillis(cutNanos - armedNanos) + " ms after the fault was due");
        if (step == ClientFaults.Step.PAUSE) {
            beforeHold.run();
            acted.complete(null);
            awaitResume();
            note("the zombie had no transaction, so no call to be fenced");
        }
        return new ClientHalted(this);
    }

    private void awaitResume() {
        try {
            resume.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
    }

    /** Lets a paused client go on: it makes its call (and is fenced) and ends. */
    void resume() {
        resume.countDown();
    }

    /** The client acted on the fault: halted and cleaned up (kill, stop) or held (pause). */
    void acted() {
        acted.complete(null);
    }

    /** The faulted instance is finished with: closed, abandoned, or (a zombie) fenced and closed. */
    void ended() {
        acted.complete(null);
        ended.complete(null);
    }

    /** The instance that replaced the faulted one committed: the first commit after the fault ends the stall. */
    void committedAgain() {
        if (!firstCommit.isDone()) {
            firstCommitNanos = System.nanoTime();
            firstCommit.complete(null);
        }
    }

    void failed(Throwable error) {
        acted.completeExceptionally(error);
        ended.completeExceptionally(error);
    }

    CompletableFuture<Void> actedFuture() {
        return acted;
    }

    CompletableFuture<Void> endedFuture() {
        return ended;
    }

    void index(int index) {
        this.index = index;
    }

    void note(String text) {
        note = note == null ? text : note + "; " + text;
    }

    /** The report so far; waits up to {@code waitMillis} for the first commit after the fault when none was seen. */
    ClientFaults.Report report(long waitMillis) throws InterruptedException {
        if (!firstCommit.isDone() && waitMillis > 0) {
            try {
                firstCommit.get(waitMillis, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // no commit yet: the stall stays unknown
            }
        }
        Long stall = firstCommit.isDone() && cutNanos != 0
                ? TimeUnit.NANOSECONDS.toMillis(firstCommitNanos - cutNanos)
                : null;
        return new ClientFaults.Report(index, fencings, zombieCommits, aborted, cutRecords, stall, note);
    }
}

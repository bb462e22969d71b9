package io.ombtx.runner.worker;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.PollGate;
import io.ombtx.driver.api.ReportQueue;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.WorkerStats;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker's load as its loops, call-backs and consumers share it: the counts they keep, the tallies they record
 * into, whether the load is stopping, and what it failed of. {@link LocalWorker} owns one; each {@link ProducerLoop},
 * {@link Acknowledgement}, {@link DeferredReport} and the {@link Receiver} count and record through it.
 */
final class LoadState {

    /**
     * How long nothing may succeed after the first error before the load is declared failed: long enough for a
     * client's own recovery from a transient error at the start, short of making a user wait for nothing.
     */
    static final long NOTHING_SUCCEEDED_GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);

    /**
     * Where an operation or a message is recorded and what counts it done: the measurement's ({@link #stats}, {@link
     * #measuredDone}), or a count-based warm-up's, recorded the same way and never read. The code holds one as data
     * and never branches on "measured", so the code the JIT compiled during the warm-up is the code that measures.
     * It branched before, and skipped the warm-up's recording: the recording ran for the first time at the
     * measurement's start, and C2, which compiles a branch never taken as a trap, had to throw away the loop it had
     * compiled (-XX:+PrintCompilation at the first measured operation: {@code ProducerLoop::next} and {@code
     * recordOperation} "made not entrant", then compiled again), on the cores the loop and the broker share.
     */
    record Tally(WorkerStats stats, AtomicLong done) {}

    final WorkerStats stats = new WorkerStats();
    final AtomicLong operationIndex = new PaddedAtomicLong();
    final AtomicLong streamOperationIndex = new AtomicLong();
    final AtomicLong measuredDone = new PaddedAtomicLong();
    /** The warm-up's tally and the measurement's, by {@link #tallyIndex}. */
    final Tally[] tallies = {new Tally(new WorkerStats(), new AtomicLong()), new Tally(stats, measuredDone)};

    final AtomicLong messagesAcked = new PaddedAtomicLong();
    /** Messages whose callback has finished (recorded or gated out): what producers and the last drain wait for. */
    final AtomicLong messagesReceived = new PaddedAtomicLong();
    /** Messages whose callback has started: the warm-up gate's index. */
    final AtomicLong receivedIndex = new PaddedAtomicLong();
    /**
     * Records of warm-up STREAM operations aborted on purpose: they are delivered by no operation (the batch is
     * processed again later), so the warm-up gate holds back that many fewer received records.
     */
    final AtomicLong warmupRecordsAborted = new AtomicLong();
    /** Operations issued and not yet completed: the last drain waits for them so nothing is half-recorded. */
    final AtomicLong inFlight = new PaddedAtomicLong();
    /**
     * The fast path's sends issued and completed: each counter is written by one side only (the sending threads,
     * the client's I/O thread), where one in-flight counter moved its cache line between them twice a message.
     */
    final AtomicLong fastIssued = new PaddedAtomicLong();

    final AtomicLong fastCompleted = new PaddedAtomicLong();

    /** The measured operation, as the driver was configured for it. */
    OperationSpec operation = OperationSpec.publish();
    /**
     * Whether the producers cut their messages into transactions and report each one (a transactional PUBLISH): the
     * transactions are then the operations, and a message is only a publish.
     */
    volatile boolean transactionsReported;

    volatile LoadSpec load;
    volatile boolean stopping;
    volatile boolean paused;
    /** The consumers a waitForConsume load holds back between operations (made once, at its start). */
    volatile List<PollGate> gates = List.of();
    /** A closed loop's bookkeeping, off its thread (see {@link InlineLoop}); made by the first closed-loop load. */
    volatile ReportQueue reports;

    volatile boolean recordEndToEnd = true;
    /** Why the load stopped (a producer's loop died, or nothing succeeded), or null. */
    volatile String failure;
    /** Whether anything the load tried succeeded (a message acknowledged, an operation done). */
    volatile boolean succeeded;
    /** The first error the load met, as this worker saw it (its first cause), or null. */
    private volatile String firstError;
    /** When {@link #nothingSucceeded} first saw an error with nothing succeeded yet (0: not yet). */
    private volatile long nothingSucceededSinceNanos;

    /**
     * 1 when {@code index} (0-based) is past the first {@code warmup}, else 0: the {@link #tallies} index, by
     * arithmetic, not a branch (see {@link Tally}).
     */
    static int tallyIndex(long index, long warmup) {
        return (int) ((warmup - 1 - index) >>> 63);
    }

    /** A new load starts: probes and prefill are not part of it, so count from zero and drop what they recorded. */
    void begin(LoadSpec spec) {
        messagesAcked.set(0);
        messagesReceived.set(0);
        succeeded = false;
        firstError = null; // a probe's, which set-up got past
        nothingSucceededSinceNanos = 0;
        receivedIndex.set(0);
        warmupRecordsAborted.set(0);
        stats.reset();
        load = spec;
    }

    /**
     * Drains the warm-up's tally and drops what it held, while a count-based warm-up runs (at every progress call,
     * which the runner makes more often as the warm-up's end nears). Draining flips the phase of its recorders' {@code
     * WriterReaderPhaser}s, as every period's drain flips the measurement's, so the code recording into them has seen
     * both phases before the first measured operation. Without it, the warm-up's recorders, never drained, stayed in
     * one phase, C2 compiled the other as a trap, and at the first period's drain after the measurement began (and at
     * the next, the other way) the recording chain on the report queue's thread ({@code WorkerStats::recordOperation},
     * {@code Recorder::recordValue}, the deferred report) was thrown away and compiled again, on the cores the loop and
     * the broker share ({@code -Xlog:jit+compilation=debug}: "made not entrant" at each drain, 10 s apart).
     */
    void flipWarmupTally() {
        tallies[0].stats().drainInterval();
    }

    /**
     * A transaction a producer cut from its messages ended (on the thread that ended it, after its messages'
     * call-backs): recorded as one operation, in the warm-up's tally while the acknowledged messages are still the
     * warm-up's.
     */
    void transactionEnded(OperationTimings timings) {
        LoadSpec spec = load;
        if (spec == null) {
            return;
        }
        long warmupMessages = spec.warmupOperations() * Math.max(1, spec.messagesPerOperation());
        long before = messagesAcked.get()
                - (timings.outcome() == OperationTimings.Outcome.COMMITTED ? timings.messages() : 0);
        tallies[tallyIndex(before, warmupMessages)].stats().recordTransaction(timings);
    }

    /** Counts an operation's messages as acknowledged when it committed, or notes its error. */
    void countAcked(OperationTimings.Outcome outcome, Throwable error) {
        if (error == null
                && outcome != OperationTimings.Outcome.FAILED
                && outcome != OperationTimings.Outcome.ABORTED) {
            messagesAcked.addAndGet(Math.max(0, load.messagesPerOperation()));
            if (!succeeded) {
                succeeded = true;
            }
        } else if (error != null) {
            noteError(error);
        }
    }

    /** Keeps the first error's first cause: what the broker or client said first, not what followed from it. */
    void noteError(Throwable error) {
        if (firstError == null) {
            Throwable cause = error;
            while (cause.getCause() != null && cause.getCause() != cause) {
                cause = cause.getCause();
            }
            firstError =
                    cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        }
    }

    /**
     * The load's failure when nothing has succeeded for {@link #NOTHING_SUCCEEDED_GRACE_NANOS} since an error was
     * first seen (this worker's, or {@code driverError}, the driver's own first error): every send rejected by a
     * healthy broker, say. Not for STREAM, whose operations are the consumers' and counted elsewhere.
     */
    String nothingSucceeded(String driverError) {
        if (succeeded || load == null || operation.kind() == OperationKind.STREAM) {
            return null;
        }
        String first = firstError != null ? firstError : driverError;
        if (first == null) {
            return null;
        }
        long now = System.nanoTime();
        if (nothingSucceededSinceNanos == 0) {
            nothingSucceededSinceNanos = now;
            return null;
        }
        if (now - nothingSucceededSinceNanos < NOTHING_SUCCEEDED_GRACE_NANOS) {
            return null;
        }
        return Worker.NOTHING_SUCCEEDED + " (first error: " + first + ")";
    }

    /** What one finished operation records: its messages, latency and phases, or its failure. */
    void recordOperation(
            OperationTimings timings,
            Throwable error,
            int payloadLength,
            long sendNanos,
            long intendedNanos,
            long endNanos,
            Tally tally,
            boolean countsDone) {
        int messages = Math.max(0, load.messagesPerOperation());
        WorkerStats into = tally.stats();
        if (error != null) {
            into.count(Counter.PUBLISH_ERRORS, Math.max(1, messages));
            into.count(Counter.FAILED, 1);
        } else {
            if (timings.outcome() == OperationTimings.Outcome.FAILED) {
                into.count(Counter.PUBLISH_ERRORS, Math.max(1, messages));
            } else if (timings.outcome() == OperationTimings.Outcome.ABORTED) {
                // Aborted on purpose: nothing published, so no publish latency; the operation is still recorded.
                into.recordMicros(Latency.PUBLISH_DELAY, (sendNanos - intendedNanos) / 1000);
            } else if (messages > 0) {
                into.recordPublish(messages, (long) messages * payloadLength, sendNanos, intendedNanos, endNanos);
            } else {
                into.recordMicros(Latency.PUBLISH_DELAY, (sendNanos - intendedNanos) / 1000);
            }
            into.recordOperation(timings, sendNanos, endNanos);
        }
        if (countsDone) {
            tally.done().incrementAndGet();
        }
    }

    /**
     * Waits until the consumers have seen {@code target} messages, polling only after the write, as the seeds' loop
     * does. One gated consumer is polled on this thread ({@link PollGate#pollHere}), as the seeds' loop polls on
     * its own: no hand-off from the consumer's thread to this one. Otherwise, or if that consumer cannot, the gates
     * are opened meanwhile and the consumers' own threads poll. True once seen; false if stopped first.
     */
    boolean awaitVisible(long target) {
        List<PollGate> held = gates;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        if (held.size() == 1) {
            PollGate gate = held.get(0);
            boolean polled = true;
            while (polled && messagesReceived.get() < target) {
                if (stopping) {
                    return false;
                }
                checkDeadline(deadline);
                polled = gate.pollHere(); // false: the consumer's own thread takes over, the gate open
            }
            if (polled) {
                return true;
            }
        }
        for (PollGate gate : held) {
            gate.openGate();
        }
        try {
            return awaitConsumed(target, deadline);
        } finally {
            for (PollGate gate : held) {
                gate.closeGate();
            }
        }
    }

    /** True once the consumers have seen {@code target} messages; false if stopped first. */
    private boolean awaitConsumed(long target, long deadline) {
        while (messagesReceived.get() < target) {
            if (stopping) {
                return false;
            }
            checkDeadline(deadline);
            // Short parks, not a spin: on small machines a spinning producer thread would slow the very broker
            // and consumer whose latency is being measured.
            LockSupport.parkNanos(20_000);
        }
        return true;
    }

    private static void checkDeadline(long deadline) {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the consumer did not see a committed message within 60 s");
        }
    }

    /** What an inline call threw, without the {@code CompletionException} a driver's future may have wrapped it in. */
    static Throwable unwrapped(RuntimeException e) {
        return e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
    }
}

package io.ombtx.runner.testdriver;

import io.ombtx.driver.api.FinishedOperation;
import io.ombtx.driver.api.OperationProducer;
import io.ombtx.driver.api.OperationTimings;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;

/**
 * A driver whose producer runs a closed loop ahead ({@link OperationProducer#runAhead}) in memory, as the Kafka driver
 * does: each call finishes the operation it holds and begins the next. Operation {@code i} (from 0) takes exactly
 * {@code (i + 1) * 100} µs by its own timings, begun a millisecond after the one before ({@link #startNanos}), so a
 * test can tell which operations were recorded and over what span. It logs each call beginning an operation
 * ("ahead i") and its close, can fail one call, and can block the call beginning a given operation until its thread
 * is interrupted, as a stop does.
 */
public final class AheadDriver extends InMemoryScenarioDriver {

    /** The calls the producer received, in order. */
    public final List<String> calls = new CopyOnWriteArrayList<>();
    /** The call beginning this operation throws (before finishing the one held); -1: none. */
    public volatile long failAt = -1;
    /** The call beginning this operation waits until its thread is interrupted; -1: none. */
    public volatile long blockAt = -1;

    private final Semaphore gate = new Semaphore(0); // never released: only an interrupt ends the wait
    /** Signalled when the blocked call is waiting. */
    public final Semaphore blocked = new Semaphore(0);

    @Override
    public String getTopicNamePrefix() {
        return "ahead";
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
        return CompletableFuture.completedFuture(new Producer());
    }

    /** Operation {@code index}'s timings: {@code (index + 1) * 100} µs in all. */
    public static OperationTimings timings(long index) {
        return new OperationTimings.Builder(0).build((index + 1) * 100_000, 1, OperationTimings.Outcome.COMMITTED);
    }

    /** When operation {@code index} began, by its driver's say: a millisecond after the one before. */
    public static long startNanos(long index) {
        return 1_000_000_000L + index * 1_000_000;
    }

    private final class Producer implements BenchmarkProducer, OperationProducer {
        private long next;
        private long held = -1;

        @Override
        public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("a closed loop only"));
        }

        @Override
        public CompletableFuture<OperationTimings> runOperation(Optional<String> key, byte[] payload) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("runs ahead only"));
        }

        @Override
        public boolean runsAhead() {
            return true;
        }

        @Override
        public FinishedOperation runAhead(Optional<String> key, byte[] payload, boolean consumed) {
            long index = next++;
            calls.add("ahead " + index);
            if (index == failAt) {
                held = -1;
                throw new IllegalStateException("failed on purpose at operation " + index);
            }
            if (index == blockAt) {
                blocked.release();
                try {
                    gate.acquire();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
            FinishedOperation previous = finishAhead();
            held = index;
            return previous;
        }

        @Override
        public FinishedOperation finishAhead() {
            if (held < 0) {
                return null;
            }
            long index = held;
            held = -1;
            return FinishedOperation.of(timings(index), startNanos(index));
        }

        @Override
        public void close() {
            calls.add("close" + (held >= 0 ? " with " + held + " open" : ""));
        }
    }
}

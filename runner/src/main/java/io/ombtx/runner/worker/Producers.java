package io.ombtx.runner.worker;

import io.ombtx.driver.api.CallbackProducer;
import io.ombtx.driver.api.ClosesAsync;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationProducer;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.ProducerBudget;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A worker's producers: made in waves with their memory fitted to the heap, probed, used to prefill a source, and
 * closed together. Each one made is closed with the worker, whatever a later step finds.
 */
final class Producers {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Producers.class);
    /** How many producers are made at once. */
    static final int PARALLEL_CREATES = 32;

    private final List<BenchmarkProducer> all = new ArrayList<>();

    List<BenchmarkProducer> all() {
        return all;
    }

    /**
     * Makes one producer per topic in {@code topics} through {@code driver}, for {@code operation}; true when they cut
     * their messages into transactions and report each one to {@code transactionEnded}.
     */
    boolean create(
            BenchmarkDriver driver,
            List<String> topics,
            OperationSpec operation,
            Consumer<OperationTimings> transactionEnded)
            throws Exception {
        if (driver instanceof ProducerBudget budget) {
            String note;
            try {
                note = budget.fitProducers(
                        all.size() + topics.size(), Runtime.getRuntime().maxMemory() / 2);
            } catch (IllegalArgumentException e) {
                throw new WorkerException(e.getMessage());
            }
            if (note != null) {
                LOG.warn(note);
            }
        }
        // Made PARALLEL_CREATES at a time: a transactional producer's initTransactions is a round trip to its
        // coordinator, and a thousand of them one after the other took minutes.
        List<BenchmarkProducer> made = new ArrayList<>();
        for (int from = 0; from < topics.size(); from += PARALLEL_CREATES) {
            List<CompletableFuture<BenchmarkProducer>> wave = new ArrayList<>();
            for (String topic : topics.subList(from, Math.min(topics.size(), from + PARALLEL_CREATES))) {
                wave.add(driver.createProducer(topic));
            }
            int awaited = 0;
            try {
                for (; awaited < wave.size(); awaited++) {
                    made.add(LocalWorker.await(wave.get(awaited), "creating a producer"));
                }
            } catch (Exception e) {
                // The rest of the wave may still be made: wait for it, so that what was made is closed with the
                // worker and nothing lingers.
                for (CompletableFuture<BenchmarkProducer> creating : wave.subList(awaited + 1, wave.size())) {
                    BenchmarkProducer p = creating.handle((ok, error) -> ok).join();
                    if (p != null) {
                        made.add(p);
                    }
                }
                all.addAll(made);
                throw e;
            }
        }
        all.addAll(made); // each closed with the worker, whatever the checks below find
        boolean reported = false;
        for (BenchmarkProducer producer : made) {
            if (operation.kind() != OperationKind.PUBLISH
                    && operation.kind() != OperationKind.STREAM
                    && !(producer instanceof OperationProducer)) {
                throw new WorkerException("the driver's producer cannot run " + operation.kind() + " operations");
            }
            if (operation.cutsTransactions()
                    && producer instanceof CallbackProducer reporting
                    && reporting.reportTransactionsTo(transactionEnded::accept)) {
                reported = true;
            }
        }
        return reported;
    }

    /** As OMB does before a load: every producer sends one message. */
    void probe() throws Exception {
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (BenchmarkProducer producer : all) {
            acks.add(producer.sendAsync(Optional.empty(), new byte[] {0}));
        }
        LocalWorker.await(CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)), "probing producers");
    }

    /** Writes {@code messages} copies of {@code payload} over the producers, at most 10,000 in flight. */
    void prefill(long messages, byte[] payload) throws Exception {
        Semaphore inFlight = new Semaphore(10_000);
        List<Throwable> errors = new ArrayList<>();
        CallbackProducer.SendCallback done = (error, bytes, intended, sent) -> {
            if (error != null) {
                synchronized (errors) {
                    errors.add(error);
                }
            }
            inFlight.release();
        };
        for (long i = 0; i < messages; i++) {
            inFlight.acquire();
            BenchmarkProducer producer = all.get((int) (i % all.size()));
            if (producer instanceof CallbackProducer unstamped) {
                // Unconsumed for end-to-end latency: a prefilled record's would be the time since the prefill, not a
                // latency. So it goes without what a driver adds only for that (kafka-tx: its publish-time header,
                // which a stream's outputs would copy), as the seeds' loops filled their source topics: the records
                // the processor reads and writes are then the bare loop's (measured: the header made each
                // base-streaming send 16 µs longer, 0.039 against 0.023 ms).
                unstamped.send(null, payload, false, 0, 0, done);
            } else {
                producer.sendAsync(Optional.empty(), payload)
                        .whenComplete((ok, error) -> done.completed(error, 0, 0, 0));
            }
        }
        if (!inFlight.tryAcquire(10_000, 5, TimeUnit.MINUTES)) {
            throw new WorkerException("prefill did not complete within 5 minutes");
        }
        if (!errors.isEmpty()) {
            throw new WorkerException("prefill failed for " + errors.size() + " messages: " + errors.get(0));
        }
    }

    /**
     * Closes the producers together: those that can close asynchronously ({@link ClosesAsync}, a transactional
     * producer finishing its last transaction) all start at once, so N of them take one close's time, not N; the rest
     * one after the other, as OMB does. One line says how many ran out of their close time and were closed at once.
     */
    void close() {
        long start = System.nanoTime();
        List<CompletableFuture<Boolean>> closing = new ArrayList<>();
        for (BenchmarkProducer producer : all) {
            if (producer instanceof ClosesAsync async) {
                closing.add(async.closeAsync());
            } else {
                try {
                    producer.close();
                } catch (Exception ignored) {
                    // Closing is best effort; the run's figures are already taken.
                }
            }
        }
        long forced = 0;
        for (CompletableFuture<Boolean> close : closing) {
            if (!close.join()) { // completes within the producer's own bound (see ClosesAsync)
                forced++;
            }
        }
        if (forced > 0) {
            LOG.warn(
                    "{} of {} producer(s) did not finish their last transaction within their close time-out"
                            + " (closeTimeoutMs) and were closed at once; closing took {} s",
                    forced,
                    closing.size(),
                    String.format("%.1f", (System.nanoTime() - start) / 1e9));
        }
        all.clear();
    }
}

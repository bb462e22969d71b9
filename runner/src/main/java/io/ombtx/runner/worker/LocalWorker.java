package io.ombtx.runner.worker;

import io.ombtx.driver.api.CallbackProducer;
import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.ClosesAsync;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.FinishedOperation;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationListener;
import io.ombtx.driver.api.OperationProducer;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.PollGate;
import io.ombtx.driver.api.PreciseConsumerCallback;
import io.ombtx.driver.api.ProducerBudget;
import io.ombtx.driver.api.ReportQueue;
import io.ombtx.driver.api.ScenarioDriver;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.stats.WorkerStats;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.bookkeeper.stats.NullStatsLogger;

/**
 * Runs producers and consumers of one driver in this process. Producers each get a thread: in closed loop an
 * operation starts when the previous one completes; in open loop operations start on the {@link Pacer}'s
 * schedule. Latencies are taken with {@code System.nanoTime()} into {@link WorkerStats}.
 */
public final class LocalWorker implements Worker {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LocalWorker.class);
    /** How many producers are made at once. */
    static final int PARALLEL_CREATES = 32;

    private final WorkerStats stats = new WorkerStats();
    private final List<BenchmarkProducer> producers = new ArrayList<>();
    private final List<BenchmarkConsumer> consumers = new ArrayList<>();
    /** The consumers a waitForConsume load holds back between operations (made once, at its start). */
    private volatile List<PollGate> gates = List.of();

    private final List<Thread> producerThreads = new ArrayList<>();
    private final List<Pacer> pacers = new ArrayList<>();
    private final AtomicLong operationIndex = new PaddedAtomicLong();
    private final AtomicLong streamOperationIndex = new AtomicLong();
    private final AtomicLong measuredDone = new PaddedAtomicLong();
    /** The warm-up's tally and the measurement's, by {@link #tallyIndex}. */
    private final Tally[] tallies = {new Tally(new WorkerStats(), new AtomicLong()), new Tally(stats, measuredDone)};

    private final AtomicLong messagesAcked = new PaddedAtomicLong();
    /** Messages whose callback has finished (recorded or gated out): what producers and the last drain wait for. */
    private final AtomicLong messagesReceived = new PaddedAtomicLong();
    /** Messages whose callback has started: the warm-up gate's index. */
    private final AtomicLong receivedIndex = new PaddedAtomicLong();
    /**
     * Records of warm-up STREAM operations aborted on purpose: they are delivered by no operation (the batch is
     * processed again later), so the warm-up gate holds back that many fewer received records.
     */
    private final AtomicLong warmupRecordsAborted = new AtomicLong();
    /** Operations issued and not yet completed: the last drain waits for them so nothing is half-recorded. */
    private final AtomicLong inFlight = new PaddedAtomicLong();
    /**
     * The fast path's sends issued and completed: each counter is written by one side only (the sending threads,
     * the client's I/O thread), where one in-flight counter moved its cache line between them twice a message.
     */
    private final AtomicLong fastIssued = new PaddedAtomicLong();

    private final AtomicLong fastCompleted = new PaddedAtomicLong();
    private final ReceiveCallback callback = new ReceiveCallback();
    /**
     * Whether the producers cut their messages into transactions and report each one (a transactional PUBLISH): the
     * transactions are then the operations, and a message is only a publish.
     */
    private volatile boolean transactionsReported;

    private BenchmarkDriver driver;
    private ScenarioDriver scenarioDriver;
    private OperationSpec operation = OperationSpec.publish();
    private Path driverFile;
    private volatile LoadSpec load;
    private volatile boolean stopping;
    private volatile boolean paused;
    /** A closed loop's bookkeeping, off its thread (see {@link #issueInline}); made by the first closed-loop load. */
    private volatile ReportQueue reports;

    private volatile boolean recordEndToEnd = true;
    private volatile String failure;
    /**
     * How long nothing may succeed after the first error before the load is declared failed: long enough for a
     * client's own recovery from a transient error at the start, short of making a user wait for nothing.
     */
    static final long NOTHING_SUCCEEDED_GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Whether anything the load tried succeeded (a message acknowledged, an operation done). */
    private volatile boolean succeeded;
    /** The first error the load met, as this worker saw it (its first cause), or null. */
    private volatile String firstError;
    /** When {@link #progress()} first saw an error with nothing succeeded yet (0: not yet). */
    private volatile long nothingSucceededSinceNanos;
    /** Threads per producer in open loop ({@code null}: auto); see {@link SenderThreads}. */
    private Integer senderThreadsSetting = SenderThreads.fromSystemProperty();
    /** Threads each producer got in the last {@link #startLoad}. */
    private volatile int senderThreadsPerProducer = 1;

    private final DriverFactory driverFactory;

    /** A worker that creates its driver by class name, as OMB does. */
    public LocalWorker() {
        this(DriverFactory.byClassName());
    }

    /** A worker that creates its driver through {@code driverFactory}. */
    public LocalWorker(DriverFactory driverFactory) {
        this.driverFactory = driverFactory;
    }

    @Override
    public void initializeDriver(String driverYaml, OperationSpec operation) throws Exception {
        String driverClass = io.ombtx.driver.api.config.YamlFiles.parse("the driver configuration", driverYaml)
                .path("driverClass")
                .asText();
        driver = driverFactory.create(driverClass);
        // The copy holds secrets: owner-only, and gone once the driver has read it.
        driverFile = writeOwnerOnly(driverYaml);
        try {
            driver.initialize(driverFile.toFile(), NullStatsLogger.INSTANCE);
        } finally {
            deleteDriverFile();
        }
        this.operation = operation;
        if (driver instanceof ScenarioDriver scenario) {
            scenarioDriver = scenario;
            scenario.configureOperation(operation);
        } else if (operation.kind() != OperationKind.PUBLISH || operation.transactional()) {
            throw new WorkerException(
                    driverClass + " implements only the OMB SPI, so it can run plain PUBLISH" + " workloads only, not "
                            + operation.kind() + (operation.transactional() ? " (transactional)" : ""));
        }
    }

    @Override
    public List<String> createTopics(int count, int partitions) throws Exception {
        return createTopics(count, partitions, RunId.draw());
    }

    @Override
    public List<String> createTopics(int count, int partitions, String runId) throws Exception {
        List<String> topics = new ArrayList<>();
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String topic = driver.getTopicNamePrefix() + "-" + runId + "-" + i;
            topics.add(topic);
            futures.add(driver.createTopic(topic, partitions));
            if (operation.kind() == OperationKind.STREAM) {
                futures.add(driver.createTopic(scenarioDriver.streamTargetTopic(topic), partitions));
            }
        }
        await(CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)), "creating topics");
        return topics;
    }

    @Override
    public void createProducers(List<String> topics) throws Exception {
        if (driver instanceof ProducerBudget budget) {
            String note;
            try {
                note = budget.fitProducers(
                        producers.size() + topics.size(), Runtime.getRuntime().maxMemory() / 2);
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
                    made.add(await(wave.get(awaited), "creating a producer"));
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
                producers.addAll(made);
                throw e;
            }
        }
        producers.addAll(made); // each closed with the worker, whatever the checks below find
        for (BenchmarkProducer producer : made) {
            if (operation.kind() != OperationKind.PUBLISH
                    && operation.kind() != OperationKind.STREAM
                    && !(producer instanceof OperationProducer)) {
                throw new WorkerException("the driver's producer cannot run " + operation.kind() + " operations");
            }
            if (operation.cutsTransactions()
                    && producer instanceof CallbackProducer reporting
                    && reporting.reportTransactionsTo(this::transactionEnded)) {
                transactionsReported = true;
            }
        }
    }

    /**
     * A transaction a producer cut from its messages ended (on the thread that ended it, after its messages'
     * call-backs): recorded as one operation, in the warm-up's tally while the acknowledged messages are still the
     * warm-up's.
     */
    private void transactionEnded(OperationTimings timings) {
        LoadSpec spec = load;
        if (spec == null) {
            return;
        }
        long warmupMessages = spec.warmupOperations() * Math.max(1, spec.messagesPerOperation());
        long before = messagesAcked.get()
                - (timings.outcome() == OperationTimings.Outcome.COMMITTED ? timings.messages() : 0);
        tallies[tallyIndex(before, warmupMessages)].stats().recordTransaction(timings);
    }

    @Override
    public void createConsumers(List<TopicSubscription> subscriptions) throws Exception {
        for (TopicSubscription s : subscriptions) {
            consumers.add(await(driver.createConsumer(s.topic(), s.subscription(), callback), "creating a consumer"));
        }
    }

    private void probeProducers() throws Exception {
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (BenchmarkProducer producer : producers) {
            acks.add(producer.sendAsync(Optional.empty(), new byte[] {0}));
        }
        await(CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)), "probing producers");
    }

    @Override
    public void prefill(long messages, byte[] payload) throws Exception {
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
            BenchmarkProducer producer = producers.get((int) (i % producers.size()));
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

    @Override
    public void startLoad(LoadSpec spec) {
        // Probes and prefill are not part of the load: count from zero, and drop what the consumers recorded of them.
        messagesAcked.set(0);
        messagesReceived.set(0);
        succeeded = false;
        firstError = null; // a probe's, which set-up got past
        nothingSucceededSinceNanos = 0;
        receivedIndex.set(0);
        warmupRecordsAborted.set(0);
        stats.reset();
        this.load = spec;
        if (spec.loop() == LoopMode.CLOSED && spec.waitForConsume()) {
            // Seed 001's FetchBench polls only after each commit, until it sees the write: so do the consumers.
            gates = consumers.stream()
                    .filter(PollGate.class::isInstance)
                    .map(PollGate.class::cast)
                    .toList();
            gates.forEach(PollGate::gate);
        }
        boolean streaming = operation.kind() == OperationKind.STREAM;
        recordEndToEnd = !(streaming && spec.messagesPerSecond() == 0);
        if (streaming && spec.messagesPerSecond() == 0) {
            return; // the prefilled source is the input; the consumers do the work
        }
        if (spec.loop() == LoopMode.CLOSED && reports == null) {
            // Only the producers' closed loops report through it: a stream's processors have their own queue, and an
            // idle queue would still wake a hundred times a second on the cores the loop shares with the broker.
            reports = new ReportQueue("ombtx-worker-reports");
        }
        double perProducerMessages = spec.messagesPerSecond() / producers.size();
        double perProducerOperations = perProducerMessages / Math.max(1, streaming ? 1 : spec.messagesPerOperation());
        int threads = SenderThreads.resolve(
                spec.senderThreadsPerProducer() != null ? spec.senderThreadsPerProducer() : senderThreadsSetting,
                spec.loop(),
                operation,
                perProducerOperations,
                Runtime.getRuntime().availableProcessors());
        senderThreadsPerProducer = threads;
        long start = System.nanoTime();
        for (int i = 0; i < producers.size(); i++) {
            BenchmarkProducer producer = producers.get(i);
            for (int t = 0; t < threads; t++) {
                // Thread t of n sends operations t, t + n, ... of the producer's one schedule (see SenderThreads).
                Pacer pacer = spec.loop() == LoopMode.OPEN
                        ? new Pacer(
                                perProducerOperations / threads, start + Math.round(t * 1e9 / perProducerOperations))
                        : null;
                pacers.add(pacer);
                Thread thread = new Thread(
                        () -> produceLoop(producer, pacer, spec, !streaming),
                        threads == 1 ? "producer-" + i : "producer-" + i + "-" + t);
                thread.setDaemon(true);
                producerThreads.add(thread);
            }
        }
        producerThreads.forEach(Thread::start);
    }

    private void produceLoop(BenchmarkProducer producer, Pacer pacer, LoadSpec spec, boolean countsOperations) {
        ProducerLoop loop = new ProducerLoop(producer, pacer, spec, countsOperations);
        try {
            // One call per operation, so the loop's body is compiled as soon as any method called that often: HotSpot
            // compiles a loop that runs inside one long call only after tens of thousands of iterations, so a closed
            // loop's body ran interpreted for its whole run (measured: ~14 µs more between a commit and the next
            // begin).
            boolean more = true;
            while (more && !stopping) {
                more = loop.next();
            }
        } catch (RuntimeException e) {
            failure = "producer stopped: " + e;
        } finally {
            loop.lastOperation.run(); // the last operation's bookkeeping, held for a next one's quiet point
            loop.dropPending();
            // The load is over: consumers poll freely again (a drain, or their close, may need it).
            gates.forEach(PollGate::ungate);
            gates = List.of();
        }
    }

    /**
     * Where an operation or a message is recorded and what counts it done: the measurement's ({@link #stats}, {@link
     * #measuredDone}), or a count-based warm-up's, recorded the same way and never read. The code holds one as data
     * and never branches on "measured", so the code the JIT compiled during the warm-up is the code that measures.
     * It branched before, and skipped the warm-up's recording: the recording ran for the first time at the
     * measurement's start, and C2, which compiles a branch never taken as a trap, had to throw away the loop it had
     * compiled (-XX:+PrintCompilation at the first measured operation: {@code ProducerLoop::next} and {@code
     * recordOperation} "made not entrant", then compiled again), on the cores the loop and the broker share.
     */
    private record Tally(WorkerStats stats, AtomicLong done) {}

    /**
     * Drains the warm-up's tally and drops what it held, while a count-based warm-up runs (at every {@link #progress},
     * which the runner asks more often as the warm-up's end nears). Draining flips the phase of its recorders' {@code
     * WriterReaderPhaser}s, as every period's drain flips the measurement's, so the code recording into them has seen
     * both phases before the first measured operation. Without it, the warm-up's recorders, never drained, stayed in
     * one phase, C2 compiled the other as a trap, and at the first period's drain after the measurement began (and at
     * the next, the other way) the recording chain on the report queue's thread ({@code WorkerStats::recordOperation},
     * {@code Recorder::recordValue}, this class's report) was thrown away and compiled again, on the cores the loop and
     * the broker share ({@code -Xlog:jit+compilation=debug}: "made not entrant" at each drain, 10 s apart).
     */
    private void flipWarmupTally() {
        tallies[0].stats().drainInterval();
    }

    /**
     * 1 when {@code index} (0-based) is past the first {@code warmup}, else 0: the {@link #tallies} index, by
     * arithmetic, not a branch (see {@link Tally}).
     */
    static int tallyIndex(long index, long warmup) {
        return (int) ((warmup - 1 - index) >>> 63);
    }

    /** One producer thread's loop: its schedule (or none, closed), keys, payloads and acknowledgements. */
    private final class ProducerLoop {
        private final BenchmarkProducer producer;
        private final Pacer pacer;
        private final LoadSpec spec;
        private final boolean countsOperations;
        private final KeyChooser keys;
        private final long bound;
        // The fast path's acknowledgements, one per kind of message: the driver hands each back with the message's
        // size and times (see CallbackProducer), so nothing of the runner's lives per message in flight.
        /** The warm-up's and the measurement's, by {@link #tallyIndex}. */
        private final Acknowledgement[] acks;
        /** A closed loop of whole operations run on this thread (WRITE, SEND_OFFSETS); else null. */
        private final OperationProducer inline;
        /** Waiting for the consumer: an operation is done once it is visible, not when it commits. */
        private final boolean doneWhenConsumed;
        /**
         * The closed loop runs ahead ({@link OperationProducer#runAhead}): each call commits the previous operation and
         * begins the next, and this loop's bookkeeping runs after it, at that one's quiet point. Not when the loop
         * waits for each write to be visible before the next begins.
         */
        private final boolean ahead;
        /** Whether the driver holds an operation begun ahead, and what the loop knew of it when it began it. */
        private boolean pending;

        private Tally pendingTally;
        private int pendingPayloadLength;
        /** When the call that began it began: its start, if the driver does not say (see FinishedOperation). */
        private long pendingCallNanos;

        private final boolean fast;
        private int payloadIndex;
        /** The last inline operation's bookkeeping, for the next one's quiet point. */
        final DeferredReport lastOperation = new DeferredReport();

        ProducerLoop(BenchmarkProducer producer, Pacer pacer, LoadSpec spec, boolean countsOperations) {
            this.producer = producer;
            this.pacer = pacer;
            this.spec = spec;
            this.countsOperations = countsOperations;
            this.keys = new KeyChooser(spec.keyDistributor());
            this.bound =
                    spec.measureOperations() > 0 ? spec.warmupOperations() + spec.measureOperations() : Long.MAX_VALUE;
            boolean asOperations = countsOperations && !transactionsReported;
            this.acks = new Acknowledgement[] {
                new Acknowledgement(tallies[0], countsOperations, true, asOperations),
                new Acknowledgement(tallies[1], countsOperations, true, asOperations)
            };
            this.inline = pacer == null
                            && countsOperations
                            && operation.kind() != OperationKind.PUBLISH
                            && producer instanceof OperationProducer op
                    ? op
                    : null;
            this.doneWhenConsumed = countsOperations && pacer == null && spec.waitForConsume();
            this.ahead = inline != null && !spec.waitForConsume() && inline.runsAhead();
            this.fast = pacer != null
                    && producer instanceof CallbackProducer
                    && (operation.kind() == OperationKind.PUBLISH || !countsOperations);
        }

        /** Issues the next operation; false when the loop is over (its bound reached, or its wait interrupted). */
        boolean next() {
            long index = countsOperations ? operationIndex.getAndIncrement() : -1;
            if (countsOperations && index >= bound) {
                if (ahead) {
                    runAhead(null, null, tallies[0]); // the last operation begun is finished
                }
                return false;
            }
            int which = countsOperations ? tallyIndex(index, spec.warmupOperations()) : 1;
            Tally tally = tallies[which];
            List<byte[]> payloads = spec.payloads();
            byte[] payload = payloads.get(payloadIndex++ % payloads.size());
            if (ahead) {
                return runAhead(keys.nextKey(), payload, tally);
            }
            if (inline != null) {
                issueInline(
                        inline,
                        keys.nextKey(),
                        payload,
                        spec.consumed(),
                        tally,
                        !doneWhenConsumed,
                        spec.waitForConsume(),
                        lastOperation);
                if (spec.waitForConsume() && awaitVisible(messagesAcked.get()) && doneWhenConsumed) {
                    tally.done().incrementAndGet();
                }
                return true;
            }
            long intended = pacer != null ? pacer.nextIntendedNanos() : System.nanoTime();
            // The time the wait ended: the fast path's send time, without reading the clock again.
            long now = pacer != null ? Pacer.awaitNanos(intended) : intended;
            if (now == Pacer.INTERRUPTED) {
                return false;
            }
            if (fast) {
                fastIssued.incrementAndGet();
                ((CallbackProducer) producer)
                        .send(keys.nextKeyOrNull(), payload, spec.consumed(), intended, now, acks[which]);
                return true;
            }
            CompletableFuture<?> done =
                    issue(producer, keys.nextKey(), payload, intended, tally, countsOperations, !doneWhenConsumed);
            if (pacer == null) {
                done.handle((ok, error) -> null).join();
                if (spec.waitForConsume() && awaitVisible(messagesAcked.get()) && doneWhenConsumed) {
                    tally.done().incrementAndGet();
                }
            }
            return true;
        }

        /**
         * One call of the loop running ahead: the driver finishes the operation it holds and begins this one ({@code
         * payload} null: only finishes). Here, at this one's quiet point, the finished one is recorded. False when
         * stopping cut the call short: neither operation is recorded (the driver's close aborts what it began).
         */
        private boolean runAhead(Optional<String> key, byte[] payload, Tally tally) {
            long callNanos = System.nanoTime();
            boolean begins = payload != null;
            if (begins) {
                inFlight.incrementAndGet();
            }
            FinishedOperation previous;
            try {
                previous = begins ? inline.runAhead(key, payload, spec.consumed()) : inline.finishAhead();
            } catch (RuntimeException e) {
                if (stopping && Thread.currentThread().isInterrupted()) {
                    inFlight.addAndGet(-(pending ? 1 : 0) - (begins ? 1 : 0));
                    pending = false;
                    return false;
                }
                // Neither the operation held nor this one completed: both are failures.
                Throwable error = unwrapped(e);
                if (pending) {
                    recordAhead(null, error, pendingPayloadLength, pendingTally, pendingCallNanos);
                }
                if (begins) {
                    recordAhead(null, error, payload.length, tally, callNanos);
                }
                pending = false;
                return true;
            }
            if (pending) {
                if (previous != null) {
                    recordAhead(previous, null, pendingPayloadLength, pendingTally, pendingCallNanos);
                } else {
                    inFlight.decrementAndGet(); // the driver held nothing (closed meanwhile): nothing to record
                }
            }
            pending = begins;
            pendingTally = tally;
            pendingPayloadLength = begins ? payload.length : 0;
            pendingCallNanos = callNanos;
            return true;
        }

        /**
         * Queues an operation's record. Its latency is its timings' whole, from its start as the driver timed it (else
         * from {@code callNanos}, when the call that began it began): no clock of the runner's is around it.
         */
        private void recordAhead(
                FinishedOperation finished, Throwable error, int payloadLength, Tally tally, long callNanos) {
            long start = finished == null || finished.startNanos() == FinishedOperation.UNKNOWN_START
                    ? callNanos
                    : finished.startNanos();
            lastOperation.hold(finished, error, payloadLength, start, DeferredReport.TIMED_BY_DRIVER, tally, true);
            lastOperation.run();
        }

        /** At the loop's end: an operation begun ahead and never finished (the loop stopped) is not recorded. */
        void dropPending() {
            if (pending) {
                pending = false;
                inFlight.decrementAndGet();
            }
        }
    }

    /**
     * What plain publishes record once acknowledged or failed (on the client's I/O thread): the publish and, when it
     * counts as an operation, one ACKNOWLEDGED operation, together through {@link WorkerStats#recordAckedPublish}. One
     * instance serves every message of its kind: through the fast path ({@link CallbackProducer}) the driver hands back
     * each message's size and times, so the runner allocates nothing per message in flight and the driver's own
     * per-message object (kafka-clients' call-back) is the only one. At saturation kafka-clients holds a few hundred
     * thousand messages in flight, and every young collection copies them.
     */
    private final class Acknowledgement implements CallbackProducer.SendCallback {
        private final Tally tally;
        private final boolean countsOperations;
        private final boolean countsDone;
        /** Whether a message is also recorded as an operation (false when its transaction is: see below). */
        private final boolean asOperation;

        Acknowledgement(Tally tally, boolean countsOperations, boolean countsDone) {
            this(tally, countsOperations, countsDone, countsOperations);
        }

        /**
         * @param countsOperations each message is one of the load's operations, counted done when acknowledged
         * @param asOperation each message is also recorded as an ACKNOWLEDGED operation; false where the producer
         *     reports the transactions that hold the messages ({@link #transactionEnded}), which are then the
         *     operations
         */
        Acknowledgement(Tally tally, boolean countsOperations, boolean countsDone, boolean asOperation) {
            this.tally = tally;
            this.countsOperations = countsOperations;
            this.countsDone = countsDone;
            this.asOperation = asOperation;
        }

        /** The fast path's call-back: records, and the send is no longer in flight. */
        @Override
        public void completed(Throwable error, int bytes, long intendedNanos, long sendNanos) {
            try {
                record(error, bytes, intendedNanos, sendNanos);
            } finally {
                fastCompleted.incrementAndGet();
            }
        }

        void record(Throwable error, int bytes, long intendedNanos, long sendNanos) {
            long ackNanos = System.nanoTime();
            if (error == null) {
                messagesAcked.incrementAndGet();
                if (!succeeded) {
                    succeeded = true;
                }
            } else {
                noteError(error);
            }
            WorkerStats into = tally.stats();
            if (error != null) {
                into.count(Counter.PUBLISH_ERRORS, 1);
                into.count(Counter.FAILED, asOperation ? 1 : 0);
            } else {
                into.recordAckedPublish(bytes, sendNanos, intendedNanos, ackNanos, asOperation);
            }
            if (countsOperations && countsDone) {
                tally.done().incrementAndGet();
            }
        }
    }

    private CompletableFuture<?> issue(
            BenchmarkProducer producer,
            Optional<String> key,
            byte[] payload,
            long intendedNanos,
            Tally tally,
            boolean countsOperations,
            boolean countsDone) {
        long sendNanos = System.nanoTime();
        inFlight.incrementAndGet();
        try {
            return issueTracked(producer, key, payload, sendNanos, intendedNanos, tally, countsOperations, countsDone)
                    .whenComplete((ignored, error) -> inFlight.decrementAndGet());
        } catch (RuntimeException thrownBySend) {
            inFlight.decrementAndGet();
            throw thrownBySend;
        }
    }

    private CompletableFuture<?> issueTracked(
            BenchmarkProducer producer,
            Optional<String> key,
            byte[] payload,
            long sendNanos,
            long intendedNanos,
            Tally tally,
            boolean countsOperations,
            boolean countsDone) {
        if (operation.kind() == OperationKind.PUBLISH || !countsOperations) {
            Acknowledgement ack =
                    new Acknowledgement(tally, countsOperations, countsDone, countsOperations && !transactionsReported);
            return producer.sendAsync(key, payload)
                    .whenComplete((ok, error) -> ack.record(error, payload.length, intendedNanos, sendNanos));
        }
        return ((OperationProducer) producer).runOperation(key, payload).whenComplete((timings, error) -> {
            long endNanos = System.nanoTime();
            countAcked(timings == null ? null : timings.outcome(), error);
            recordOperation(timings, error, payload.length, sendNanos, intendedNanos, endNanos, tally, countsDone);
        });
    }

    /**
     * A closed loop's operation (WRITE, SEND_OFFSETS): run on this loop's thread, as the seeds' bare loops did, with
     * no hand-off to the producer's thread and back between two operations. Its bookkeeping (counting what it
     * acknowledged, queueing its record on {@link #reports}) is held in {@code last} and done at the next operation's
     * quiet point, after that one's first requests are out (see {@link OperationProducer}), so that between a commit
     * and the next transaction's requests the thread does little more than the seeds' loop did; what it acknowledged
     * is counted at once when the loop waits for it to be visible ({@code countNow}).
     */
    private void issueInline(
            OperationProducer producer,
            Optional<String> key,
            byte[] payload,
            boolean consumed,
            Tally tally,
            boolean countsDone,
            boolean countNow,
            DeferredReport last) {
        long sendNanos = System.nanoTime();
        inFlight.incrementAndGet();
        FinishedOperation finished = null;
        Throwable error = null;
        try {
            finished = producer.runOperationInline(key, payload, consumed, last);
        } catch (RuntimeException e) {
            if (stopping && Thread.currentThread().isInterrupted()) {
                // Stopping interrupted the operation on this thread: it was cut short, not failed; not recorded.
                last.run();
                inFlight.decrementAndGet();
                return; // the loop sees stopping and ends
            }
            error = unwrapped(e);
        }
        // The bookkeeping the driver ran at the quiet point is no part of this operation's time.
        long endNanos = System.nanoTime() - last.takeNanosInCall();
        last.runAfterCall(); // when the driver did not reach a quiet point (a failure before it)
        last.hold(finished, error, payload.length, sendNanos, endNanos, tally, countsDone);
        if (countNow) {
            last.countAcked();
        }
    }

    /** What an inline call threw, without the {@code CompletionException} a driver's future may have wrapped it in. */
    private static Throwable unwrapped(RuntimeException e) {
        return e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    /**
     * A closed loop's bookkeeping of its last operation, done at the next operation's quiet point (or when the loop
     * ends): counting what it acknowledged and queueing its record on {@link #reports}. It holds the operation in
     * fields, so holding it allocates nothing. Used by the loop's thread only; running it again does nothing.
     */
    final class DeferredReport implements Runnable {
        /**
         * An end time that says: the operation ended its timings' whole after {@code sendNanos} (a loop running ahead,
         * whose driver alone saw the operation's start and end).
         */
        static final long TIMED_BY_DRIVER = Long.MIN_VALUE;

        private boolean due;
        private boolean counted;
        private FinishedOperation finished;
        private Throwable error;
        private int payloadLength;
        private long sendNanos;
        private long endNanos;
        private Tally tally;
        private boolean countsDone;
        /** How long runs during the current operation took: no part of the operation. */
        private long nanosInCall;

        void hold(
                FinishedOperation finished,
                Throwable error,
                int payloadLength,
                long sendNanos,
                long endNanos,
                Tally tally,
                boolean countsDone) {
            this.finished = finished;
            this.error = error;
            this.payloadLength = payloadLength;
            this.sendNanos = sendNanos;
            this.endNanos = endNanos;
            this.tally = tally;
            this.countsDone = countsDone;
            this.counted = false;
            this.due = true;
        }

        /** Counts what the held operation acknowledged now (a visibility wait reads the count). */
        void countAcked() {
            if (due && !counted) {
                counted = true;
                LocalWorker.this.countAcked(finished == null ? null : finished.outcome(), error);
            }
        }

        long takeNanosInCall() {
            long nanos = nanosInCall;
            nanosInCall = 0;
            return nanos;
        }

        /** Runs what is due between two operations: in neither one's time. */
        void runAfterCall() {
            run();
            nanosInCall = 0;
        }

        @Override
        public void run() {
            if (!due) {
                return;
            }
            long start = System.nanoTime();
            countAcked();
            due = false;
            FinishedOperation done = finished;
            Throwable failed = error;
            int length = payloadLength;
            long sent = sendNanos;
            long ended = endNanos;
            Tally into = tally;
            boolean countsAsDone = countsDone;
            finished = null;
            error = null;
            reports.execute(() -> {
                try {
                    // The driver may build the timings only now, here, off the loop's thread.
                    OperationTimings timings = done == null ? null : done.timings();
                    recordOperation(
                            timings,
                            failed,
                            length,
                            sent,
                            sent,
                            ended != TIMED_BY_DRIVER ? ended : timings == null ? 0 : sent + timings.totalNanos(),
                            into,
                            countsAsDone);
                } finally {
                    inFlight.decrementAndGet();
                }
            });
            nanosInCall += System.nanoTime() - start;
        }
    }

    private void countAcked(OperationTimings.Outcome outcome, Throwable error) {
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
    private void noteError(Throwable error) {
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
     * first seen (this worker's, or the driver's {@link ScenarioDriver#firstError()}): every send rejected by a
     * healthy broker, say. Not for STREAM, whose operations are the consumers' and counted elsewhere.
     */
    private String nothingSucceeded() {
        if (succeeded || load == null || operation.kind() == OperationKind.STREAM) {
            return null;
        }
        String first = firstError != null ? firstError : scenarioDriver != null ? scenarioDriver.firstError() : null;
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
    private void recordOperation(
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
    private boolean awaitVisible(long target) {
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

    @Override
    public void run(Command command) throws Exception {
        switch (command) {
            case PROBE_PRODUCERS -> probeProducers();
            case PAUSE_CONSUMERS -> pauseConsumers();
            case RESUME_CONSUMERS -> resumeConsumers();
            case RESET_STATS -> resetStats();
            case STOP_ALL -> stopAll();
        }
    }

    @Override
    public void adjustRate(double messagesPerSecond) {
        LoadSpec spec = load;
        if (spec == null || producers.isEmpty()) {
            return;
        }
        double perProducer = messagesPerSecond
                / producers.size()
                / Math.max(1, spec.messagesPerOperation())
                / senderThreadsPerProducer;
        // A new rate is a new schedule (see Pacer#restart): what the old rate left owing would otherwise burst out.
        int threads = senderThreadsPerProducer;
        for (int j = 0; j < pacers.size(); j++) {
            Pacer p = pacers.get(j);
            if (p != null) {
                p.restart(perProducer, Math.round(j % threads * 1e9 / (perProducer * threads)));
            }
        }
    }

    private void pauseConsumers() {
        paused = true;
    }

    private void resumeConsumers() {
        paused = false;
    }

    /** Sets the threads per producer for the next {@link #startLoad} ({@code null}: auto); see {@link SenderThreads}. */
    void senderThreadsPerProducer(Integer setting) {
        this.senderThreadsSetting = setting;
    }

    /** Threads each producer got in the last {@link #startLoad}. */
    int senderThreadsPerProducer() {
        return senderThreadsPerProducer;
    }

    @Override
    public StatsSnapshot periodStats() {
        return stats.drainInterval();
    }

    @Override
    public Progress progress() {
        if (failure == null) {
            String none = nothingSucceeded();
            if (none != null) {
                failure = none;
            }
        }
        long started = operation.kind() == OperationKind.STREAM ? streamOperationIndex.get() : operationIndex.get();
        long done = measuredDone.get();
        LoadSpec running = load;
        if (done == 0 && running != null && running.warmupOperations() > 0) {
            flipWarmupTally();
        }
        return new Progress(started, done, messagesAcked.get(), messagesReceived.get(), failure);
    }

    private void resetStats() {
        stats.reset();
    }

    private void stopAll() throws InterruptedException {
        stopping = true;
        paused = false;
        for (Thread thread : producerThreads) {
            thread.interrupt();
        }
        for (Thread thread : producerThreads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        producerThreads.clear();
        // Let sends already under way be acknowledged (or fail) and recorded before the last statistics are taken.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((inFlight.get() > 0 || fastCompleted.get() < fastIssued.get()) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        // Producers that wait for their consumer were released by stopping: let the consumer's callbacks for
        // what was written finish too, so the last drain holds their end-to-end latency.
        LoadSpec spec = load;
        while (spec != null
                && spec.waitForConsume()
                && !consumers.isEmpty()
                && messagesReceived.get() < messagesAcked.get()
                && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }

    @Override
    public Map<String, Object> environment() {
        return scenarioDriver == null ? Map.of() : new LinkedHashMap<>(scenarioDriver.environment());
    }

    @Override
    public ExactlyOnceReport verifyExactlyOnce(String topic, String subscription) throws Exception {
        if (scenarioDriver == null) {
            throw new WorkerException("the driver cannot verify exactly-once delivery");
        }
        return await(scenarioDriver.verifyExactlyOnce(topic, subscription), "verifying exactly-once delivery");
    }

    @Override
    public ClientFaults.Report clientFault(ClientFaults.Request request) throws Exception {
        if (!(driver instanceof ClientFaults faults)) {
            throw new WorkerException("the driver cannot fault its clients");
        }
        return await(faults.clientFault(request), "client fault " + request.fault());
    }

    @Override
    public void startLiveCheck(String topic, String subscription) throws Exception {
        if (scenarioDriver == null) {
            throw new WorkerException("the driver cannot run the live exactly-once check");
        }
        await(scenarioDriver.startLiveCheck(topic, subscription), "starting the live exactly-once check");
    }

    @Override
    public LiveCheckReport stopLiveCheck(String topic, String subscription) throws Exception {
        if (scenarioDriver == null) {
            throw new WorkerException("the driver cannot run the live exactly-once check");
        }
        return await(scenarioDriver.stopLiveCheck(topic, subscription), "stopping the live exactly-once check");
    }

    @Override
    public void close() {
        stopping = true;
        if (reports != null) {
            reports.close();
        }
        closeProducers();
        List<AutoCloseable> closeables = new ArrayList<>(consumers);
        if (driver != null) {
            closeables.add(driver);
        }
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception ignored) {
                // Closing is best effort; the run's figures are already taken.
            }
        }
        producers.clear();
        consumers.clear();
        driver = null;
        deleteDriverFile();
    }

    /**
     * Closes the producers together: those that can close asynchronously ({@link ClosesAsync}, a transactional
     * producer finishing its last transaction) all start at once, so N of them take one close's time, not N; the rest
     * one after the other, as OMB does. One line says how many ran out of their close time and were closed at once.
     */
    private void closeProducers() {
        long start = System.nanoTime();
        List<CompletableFuture<Boolean>> closing = new ArrayList<>();
        for (BenchmarkProducer producer : producers) {
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
    }

    /** A temporary file only its owner can read (where the file system has POSIX permissions). */
    static Path writeOwnerOnly(String text) throws IOException {
        Path file;
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            file = Files.createTempFile(
                    "omb-tx-driver-",
                    ".yaml",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } else {
            file = Files.createTempFile("omb-tx-driver-", ".yaml");
        }
        file.toFile().deleteOnExit(); // the last resort, for a JVM that exits before the file is deleted
        Files.writeString(file, text);
        return file;
    }

    private void deleteDriverFile() {
        Path file = driverFile;
        driverFile = null;
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // deleteOnExit still applies
            }
        }
    }

    private static <T> T await(CompletableFuture<T> future, String what) throws Exception {
        try {
            return future.get(5, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new WorkerException(what + " failed: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new WorkerException(what + " did not finish within 5 minutes");
        }
    }

    static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** Receives for every consumer: counts, end-to-end latency, and operations performed by consumers. */
    private final class ReceiveCallback implements PreciseConsumerCallback, OperationListener {

        @Override
        public void messageReceived(byte[] payload, long publishTimestamp) {
            received(payload.length, (System.currentTimeMillis() - publishTimestamp) * 1000);
        }

        @Override
        public void messageReceived(ByteBuffer payload, long publishTimestamp) {
            received(payload.remaining(), (System.currentTimeMillis() - publishTimestamp) * 1000);
        }

        @Override
        public void messageReceivedMicros(int payloadLength, long publishEpochMicros) {
            received(payloadLength, epochMicros() - publishEpochMicros);
        }

        /**
         * Consumers record from the moment they exist, as OMB's do: a worker that only consumes may never be sent a
         * load (OMB's coordinator starts the load on producing workers only), and then takes OMB's meaning — every
         * message counts, end-to-end latency from the publish timestamp, warm-up ended by {@code /reset-stats}.
         * A load that counts operations holds back its warm-up's messages.
         */
        private void received(int length, long endToEndMicros) {
            while (paused) {
                LockSupport.parkNanos(1_000_000);
            }
            LoadSpec spec = load;
            long index = receivedIndex.incrementAndGet();
            try {
                long warmupMessages = spec == null
                        ? 0
                        : spec.warmupOperations() * Math.max(1, spec.messagesPerOperation())
                                - warmupRecordsAborted.get();
                // index is 1-based: the tally of message index - 1 of a warm-up of warmupMessages
                tallies[tallyIndex(index - 1, warmupMessages)]
                        .stats()
                        .recordReceived(length, endToEndMicros, recordEndToEnd);
            } finally {
                // Counted only once recorded: whoever sees the count also finds the latency in the stats.
                messagesReceived.incrementAndGet();
            }
        }

        @Override
        public void operationCompleted(OperationTimings timings) {
            long index = streamOperationIndex.getAndIncrement();
            LoadSpec spec = load;
            if (spec != null
                    && index < spec.warmupOperations()
                    && timings.outcome() == OperationTimings.Outcome.ABORTED) {
                // Reported before the records of later batches are delivered (the driver's report order).
                warmupRecordsAborted.addAndGet(timings.messages());
            }
            if (spec == null
                    || (spec.measureOperations() > 0 && index >= spec.warmupOperations() + spec.measureOperations())) {
                return;
            }
            Tally tally = tallies[tallyIndex(index, spec.warmupOperations())];
            long end = System.nanoTime();
            tally.stats().recordOperation(timings, end - Math.max(0, timings.totalNanos()), end);
            if (timings.outcome() != OperationTimings.Outcome.ABORTED) { // an aborted batch is processed again
                tally.stats().count(Counter.MESSAGES_PROCESSED, timings.messages());
            }
            tally.done().incrementAndGet();
        }
    }
}

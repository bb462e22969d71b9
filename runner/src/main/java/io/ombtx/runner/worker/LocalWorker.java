package io.ombtx.runner.worker;

import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.PollGate;
import io.ombtx.driver.api.ReportQueue;
import io.ombtx.driver.api.ScenarioDriver;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.stats.WorkerStats;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.bookkeeper.stats.NullStatsLogger;

/**
 * Runs producers and consumers of one driver in this process. Each producer's thread runs the {@link ProducerLoop}
 * chosen for the load when it starts: in closed loop an operation starts when the previous one completes; in open
 * loop operations start on the {@link Pacer}'s schedule. What they count and record is the load's {@link LoadState};
 * latencies are taken with {@code System.nanoTime()} into its {@link WorkerStats}.
 */
public final class LocalWorker implements Worker {

    private final LoadState state = new LoadState();
    private final Producers producers = new Producers();
    private final List<BenchmarkConsumer> consumers = new ArrayList<>();
    private final List<Thread> producerThreads = new ArrayList<>();
    private final List<Pacer> pacers = new ArrayList<>();
    private final Receiver callback = new Receiver(state);

    private BenchmarkDriver driver;
    private ScenarioDriver scenarioDriver;
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
        try (OwnerOnlyFile copy = OwnerOnlyFile.write(driverYaml)) {
            driver.initialize(copy.path().toFile(), NullStatsLogger.INSTANCE);
        }
        state.operation = operation;
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
            if (state.operation.kind() == OperationKind.STREAM) {
                futures.add(driver.createTopic(scenarioDriver.streamTargetTopic(topic), partitions));
            }
        }
        await(CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)), "creating topics");
        return topics;
    }

    @Override
    public void createProducers(List<String> topics) throws Exception {
        if (producers.create(driver, topics, state.operation, state::transactionEnded)) {
            state.transactionsReported = true;
        }
    }

    @Override
    public void createConsumers(List<TopicSubscription> subscriptions) throws Exception {
        for (TopicSubscription s : subscriptions) {
            consumers.add(await(driver.createConsumer(s.topic(), s.subscription(), callback), "creating a consumer"));
        }
    }

    @Override
    public void prefill(long messages, byte[] payload) throws Exception {
        producers.prefill(messages, payload);
    }

    @Override
    public void startLoad(LoadSpec spec) {
        state.begin(spec);
        OperationSpec operation = state.operation;
        if (spec.loop() == LoopMode.CLOSED && spec.waitForConsume()) {
            // Seed 001's FetchBench polls only after each commit, until it sees the write: so do the consumers.
            state.gates = consumers.stream()
                    .filter(PollGate.class::isInstance)
                    .map(PollGate.class::cast)
                    .toList();
            state.gates.forEach(PollGate::gate);
        }
        boolean streaming = operation.kind() == OperationKind.STREAM;
        state.recordEndToEnd = !(streaming && spec.messagesPerSecond() == 0);
        if (streaming && spec.messagesPerSecond() == 0) {
            return; // the prefilled source is the input; the consumers do the work
        }
        if (spec.loop() == LoopMode.CLOSED && state.reports == null) {
            // Only the producers' closed loops report through it: a stream's processors have their own queue, and an
            // idle queue would still wake a hundred times a second on the cores the loop shares with the broker.
            state.reports = new ReportQueue("ombtx-worker-reports");
        }
        double perProducerMessages = spec.messagesPerSecond() / producers.all().size();
        double perProducerOperations = perProducerMessages / Math.max(1, streaming ? 1 : spec.messagesPerOperation());
        int threads = SenderThreads.resolve(
                spec.senderThreadsPerProducer() != null ? spec.senderThreadsPerProducer() : senderThreadsSetting,
                spec.loop(),
                operation,
                perProducerOperations,
                Runtime.getRuntime().availableProcessors());
        senderThreadsPerProducer = threads;
        long start = System.nanoTime();
        int cores = Runtime.getRuntime().availableProcessors();
        List<PacedLoop> paced = new ArrayList<>();
        for (int i = 0; i < producers.all().size(); i++) {
            BenchmarkProducer producer = producers.all().get(i);
            if (spec.loop() == LoopMode.CLOSED) {
                // A closed loop blocks on each operation: a thread of its own, as the seeds' loops had.
                pacers.add(null);
                Thread thread = new Thread(() -> produceLoop(producer, spec, !streaming), "producer-" + i);
                thread.setDaemon(true);
                producerThreads.add(thread);
                continue;
            }
            for (int t = 0; t < threads; t++) {
                // Share t of n sends operations t, t + n, ... of the producer's one schedule (see SenderThreads).
                Pacer pacer =
                        new Pacer(perProducerOperations / threads, start + Math.round(t * 1e9 / perProducerOperations));
                pacers.add(pacer);
                String name = threads == 1 ? "producer-" + i : "producer-" + i + "-" + t;
                paced.add(PacedLoop.of(state, producer, pacer, spec, !streaming, name));
            }
        }
        producerThreads.addAll(SharedSenders.of(paced, cores, this::sendersEnded));
        producerThreads.forEach(Thread::start);
    }

    private void produceLoop(BenchmarkProducer producer, LoadSpec spec, boolean countsOperations) {
        ProducerLoop loop = ProducerLoop.of(state, producer, spec, countsOperations);
        RuntimeException failed = null;
        try {
            // One call per operation, so the loop's body is compiled as soon as any method called that often: HotSpot
            // compiles a loop that runs inside one long call only after tens of thousands of iterations, so a closed
            // loop's body ran interpreted for its whole run (measured: ~14 µs more between a commit and the next
            // begin).
            boolean more = true;
            while (more && !state.stopping) {
                more = loop.next();
            }
        } catch (RuntimeException e) {
            failed = e;
        } finally {
            loop.end(); // the last operation's bookkeeping, held for a next one's quiet point
            sendersEnded(failed);
        }
    }

    /** A sending thread ended: with what stopped it, if anything; the consumers poll freely again. */
    private void sendersEnded(RuntimeException failed) {
        if (failed != null) {
            state.failure = "producer stopped: " + failed;
        }
        // The load is over: consumers poll freely again (a drain, or their close, may need it).
        state.gates.forEach(PollGate::ungate);
        state.gates = List.of();
    }

    @Override
    public void run(Command command) throws Exception {
        switch (command) {
            case PROBE_PRODUCERS -> producers.probe();
            case PAUSE_CONSUMERS -> state.paused = true;
            case RESUME_CONSUMERS -> state.paused = false;
            case RESET_STATS -> state.stats.reset();
            case STOP_ALL -> stopAll();
        }
    }

    @Override
    public void adjustRate(double messagesPerSecond) {
        LoadSpec spec = state.load;
        if (spec == null || producers.all().isEmpty()) {
            return;
        }
        double perProducer = messagesPerSecond
                / producers.all().size()
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
        return state.stats.drainInterval();
    }

    @Override
    public Progress progress() {
        if (state.failure == null) {
            String none = state.nothingSucceeded(scenarioDriver != null ? scenarioDriver.firstError() : null);
            if (none != null) {
                state.failure = none;
            }
        }
        long started = state.operation.kind() == OperationKind.STREAM
                ? state.streamOperationIndex.get()
                : state.operationIndex.get();
        long done = state.measuredDone.get();
        LoadSpec running = state.load;
        if (done == 0 && running != null && running.warmupOperations() > 0) {
            state.flipWarmupTally();
        }
        return new Progress(started, done, state.messagesAcked.get(), state.messagesReceived.get(), state.failure);
    }

    private void stopAll() throws InterruptedException {
        state.stopping = true;
        state.paused = false;
        for (Thread thread : producerThreads) {
            thread.interrupt();
        }
        for (Thread thread : producerThreads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        producerThreads.clear();
        // Let sends already under way be acknowledged (or fail) and recorded before the last statistics are taken.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((state.inFlight.get() > 0 || state.fastCompleted.get() < state.fastIssued.get())
                && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        // Producers that wait for their consumer were released by stopping: let the consumer's callbacks for
        // what was written finish too, so the last drain holds their end-to-end latency.
        LoadSpec spec = state.load;
        while (spec != null
                && spec.waitForConsume()
                && !consumers.isEmpty()
                && state.messagesReceived.get() < state.messagesAcked.get()
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
        state.stopping = true;
        if (state.reports != null) {
            state.reports.close();
        }
        producers.close();
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
        consumers.clear();
        driver = null;
    }

    static <T> T await(CompletableFuture<T> future, String what) throws Exception {
        try {
            return future.get(5, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new WorkerException(what + " failed: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new WorkerException(what + " did not finish within 5 minutes");
        }
    }
}

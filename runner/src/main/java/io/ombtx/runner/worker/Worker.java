package io.ombtx.runner.worker;

import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.stats.StatsSnapshot;
import java.util.List;
import java.util.Map;

/**
 * What the coordinator asks of a worker, step by step, as OMB's worker protocol does. {@link LocalWorker} runs it
 * in this process; {@code HttpWorkerClient} forwards it to a remote {@code bin/benchmark-worker}.
 */
public interface Worker extends AutoCloseable {

    /** Creates the driver from its (effective) YAML text and fixes the operation. */
    void initializeDriver(String driverYaml, OperationSpec operation) throws Exception;

    /**
     * Creates {@code count} topics (and, for STREAM, their target topics) and returns the source topic names, which
     * carry a run id the worker draws (OMB's step).
     */
    List<String> createTopics(int count, int partitions) throws Exception;

    /** As {@link #createTopics(int, int)}, with the names carrying the planned run's id. */
    default List<String> createTopics(int count, int partitions, String runId) throws Exception {
        return createTopics(count, partitions);
    }

    void createProducers(List<String> topics) throws Exception;

    void createConsumers(List<TopicSubscription> subscriptions) throws Exception;

    /** Writes {@code messages} messages to the producers' topics as fast as they go (a STREAM source). */
    void prefill(long messages, byte[] payload) throws Exception;

    void startLoad(LoadSpec load) throws Exception;

    /** One of OMB's steps that carry no data. */
    void run(Command command) throws Exception;

    void adjustRate(double messagesPerSecond) throws Exception;

    /** What was recorded since the previous call. */
    StatsSnapshot periodStats() throws Exception;

    /** Running totals since the load started, for stop conditions and progress display. */
    Progress progress() throws Exception;

    Map<String, Object> environment() throws Exception;

    ExactlyOnceReport verifyExactlyOnce(String topic, String subscription) throws Exception;

    /**
     * One step of a client fault on one of this worker's clients, by its index on this worker (the driver's
     * {@link ClientFaults}). A worker that cannot (a stock OMB worker) refuses it.
     */
    default ClientFaults.Report clientFault(ClientFaults.Request request) throws Exception {
        throw new WorkerException("this worker cannot fault its clients");
    }

    /**
     * Starts the live exactly-once check of a STREAM's output ({@code operation.liveCheck}): a read_committed consumer
     * in this worker's driver that judges each output record as it is read, until {@link #stopLiveCheck}.
     */
    default void startLiveCheck(String topic, String subscription) throws Exception {
        throw new WorkerException("this worker cannot run the live exactly-once check");
    }

    /** Stops the live check once it has read the output up to its end, and gives what it saw. */
    default LiveCheckReport stopLiveCheck(String topic, String subscription) throws Exception {
        throw new WorkerException("this worker cannot run the live exactly-once check");
    }

    @Override
    void close();

    /**
     * The worker process's CPU counters now, to measure what it used over the measured phase; null when it cannot
     * say (a stock OMB worker). A worker in this JVM is this process.
     */
    default io.ombtx.runner.stats.CpuMeter.Sample cpuSample() throws Exception {
        return io.ombtx.runner.stats.CpuMeter.sample();
    }

    /**
     * What the client library warned in the worker's process since its driver was initialized, each distinct
     * message once with its count. A worker in this JVM returns none: this process's warnings are counted here.
     */
    default List<io.ombtx.runner.log.ClientWarnings.Summary> clientWarnings() throws Exception {
        return List.of();
    }

    /** OMB's steps that carry no data, each its own endpoint. */
    enum Command {
        /** Each producer sends one message and waits for its ack, so consumers can be seen to be ready. */
        PROBE_PRODUCERS,
        /** Consumers stop taking messages (OMB's backlog mode builds a backlog this way). */
        PAUSE_CONSUMERS,
        RESUME_CONSUMERS,
        /** Forget what was recorded so far (the end of a time-based warm-up). */
        RESET_STATS,
        /** Stop the load; sends under way complete and are recorded. */
        STOP_ALL
    }

    /** A subscription to create on a topic. */
    record TopicSubscription(String topic, String subscription) {}

    /**
     * How {@link Progress#failure()} begins when nothing the load tried has succeeded (every send rejected): the run
     * has failed, not merely ended early.
     */
    String NOTHING_SUCCEEDED = "every operation failed, none succeeded";

    /** Totals since the load started (probes excluded). {@code failure} is set when the load stopped on an error. */
    record Progress(
            long operationsStarted,
            long measuredOperationsDone,
            long messagesSent,
            long messagesReceived,
            String failure) {

        /** Whether the load failed because nothing it tried succeeded ({@link Worker#NOTHING_SUCCEEDED}). */
        public boolean nothingSucceeded() {
            return failure != null && failure.startsWith(NOTHING_SUCCEEDED);
        }

        public Progress plus(Progress other) {
            return new Progress(
                    operationsStarted + other.operationsStarted,
                    measuredOperationsDone + other.measuredOperationsDone,
                    messagesSent + other.messagesSent,
                    messagesReceived + other.messagesReceived,
                    failure != null ? failure : other.failure);
        }
    }
}

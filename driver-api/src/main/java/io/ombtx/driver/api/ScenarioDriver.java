package io.ombtx.driver.api;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Implemented by a {@code BenchmarkDriver} that can run omb-tx scenarios. The runner calls
 * {@link #configureOperation} after {@code initialize} and before creating topics, producers or consumers.
 */
public interface ScenarioDriver {

    /** Fixes what one operation is for the rest of the run; throws IllegalArgumentException if unsupported. */
    void configureOperation(OperationSpec spec);

    /** The topic a STREAM consumer of {@code sourceTopic} writes to; the runner creates it alongside the source. */
    String streamTargetTopic(String sourceTopic);

    /**
     * After a STREAM run: reads the target topic with read_committed and checks that every source record below
     * the group's committed offset appears exactly once, and none above it.
     */
    CompletableFuture<ExactlyOnceReport> verifyExactlyOnce(String sourceTopic, String subscriptionName);

    /**
     * Starts the live check of a STREAM's output ({@code operation.liveCheck}): a read_committed consumer of the
     * target topic, on its own thread, that judges each output record as it reads it, from the topic's beginning,
     * until {@link #stopLiveCheck}. Completes once it is started.
     */
    default CompletableFuture<Void> startLiveCheck(String sourceTopic, String subscriptionName) {
        return CompletableFuture.failedFuture(
                new UnsupportedOperationException("this driver has no live exactly-once check"));
    }

    /**
     * Stops the live check {@link #startLiveCheck} started, once it has read the output up to its last stable
     * offset, and gives what it saw.
     */
    default CompletableFuture<LiveCheckReport> stopLiveCheck(String sourceTopic, String subscriptionName) {
        return CompletableFuture.failedFuture(
                new UnsupportedOperationException("this driver has no live exactly-once check"));
    }

    /** Facts for the result file: client version, broker version, relevant broker settings. Secrets excluded. */
    Map<String, Object> environment();

    /**
     * The first error an operation of this driver met, by its first cause ("RecordTooLargeException: …", the
     * broker's answer, not the "error state" failures that follow from it), or null while none has. Polled by the
     * runner while the load runs: a run in which nothing has succeeded ends failed, naming it.
     */
    default String firstError() {
        return null;
    }
}

package io.ombtx.runner.testdriver;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.ScenarioDriver;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.io.File;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.bookkeeper.stats.StatsLogger;

/**
 * What the runner's in-memory test drivers share: no configuration, topics that need no creating, a consumer that
 * gets nothing, no exactly-once check. A driver says its topic prefix and makes its producers.
 */
abstract class InMemoryScenarioDriver implements BenchmarkDriver, ScenarioDriver {

    @Override
    public void initialize(File configurationFile, StatsLogger statsLogger) {}

    @Override
    public void configureOperation(OperationSpec spec) {}

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscription, ConsumerCallback callback) {
        return CompletableFuture.completedFuture(() -> {});
    }

    @Override
    public String streamTargetTopic(String sourceTopic) {
        return sourceTopic + "-out";
    }

    @Override
    public CompletableFuture<ExactlyOnceReport> verifyExactlyOnce(String sourceTopic, String subscriptionName) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException());
    }

    @Override
    public Map<String, Object> environment() {
        return Map.of();
    }

    @Override
    public void close() {}
}

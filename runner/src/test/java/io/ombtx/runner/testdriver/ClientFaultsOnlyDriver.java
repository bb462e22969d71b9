package io.ombtx.runner.testdriver;

import io.ombtx.driver.api.ClientFaults;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.io.File;
import java.util.concurrent.CompletableFuture;
import org.apache.bookkeeper.stats.StatsLogger;

/** A driver that says it can fault its clients, for planning tests only: it is never run. */
public final class ClientFaultsOnlyDriver implements BenchmarkDriver, ClientFaults {

    @Override
    public CompletableFuture<Report> clientFault(Request request) {
        throw new UnsupportedOperationException("planning only");
    }

    @Override
    public void initialize(File configurationFile, StatsLogger statsLogger) {
        throw new UnsupportedOperationException("planning only");
    }

    @Override
    public String getTopicNamePrefix() {
        return "test";
    }

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions) {
        throw new UnsupportedOperationException("planning only");
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
        throw new UnsupportedOperationException("planning only");
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscriptionName, ConsumerCallback consumerCallback) {
        throw new UnsupportedOperationException("planning only");
    }

    @Override
    public void close() {}
}

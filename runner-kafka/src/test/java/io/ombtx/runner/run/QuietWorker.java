package io.ombtx.runner.run;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Worker;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A worker for the coordinator's tests with no clients behind it: every step succeeds and does nothing, topics are
 * named {@code t-N}, statistics are empty. A test overrides the steps it watches or holds, and says what progress is.
 */
abstract class QuietWorker implements Worker {

    @Override
    public void initializeDriver(String driverYaml, OperationSpec operation) throws Exception {}

    @Override
    public List<String> createTopics(int count, int partitions) throws Exception {
        return IntStream.range(0, count).mapToObj(i -> "t-" + i).toList();
    }

    @Override
    public void createProducers(List<String> topics) throws Exception {}

    @Override
    public void createConsumers(List<TopicSubscription> subscriptions) throws Exception {}

    @Override
    public void prefill(long messages, byte[] payload) throws Exception {}

    @Override
    public void startLoad(LoadSpec load) throws Exception {}

    @Override
    public void run(Command command) throws Exception {}

    @Override
    public void adjustRate(double messagesPerSecond) throws Exception {}

    @Override
    public StatsSnapshot periodStats() throws Exception {
        return new StatsSnapshot();
    }

    @Override
    public Map<String, Object> environment() throws Exception {
        return Map.of();
    }

    @Override
    public ExactlyOnceReport verifyExactlyOnce(String topic, String subscription) throws Exception {
        return new ExactlyOnceReport(0, 0, 0, 0);
    }

    @Override
    public void close() {}
}

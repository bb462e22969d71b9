package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.PlanOptions;
import io.ombtx.runner.plan.PlanText;
import io.ombtx.runner.plan.Planner;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.plan.Topology;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Payloads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan is what runs: a planned run is executed on a worker that records what it is asked, and every value it
 * was asked — run id, topics, producers, subscriptions, the load and its payloads — is what the dry run printed.
 */
class PlanIsWhatRunsTest {

    @TempDir
    Path dir;

    /** Records the set-up it is asked for; the load then fails at once, so the run ends right after it starts. */
    static final class RecordingWorker extends QuietWorker {
        int topicCount;
        int partitions;
        String runId;
        final List<String> producerTopics = new ArrayList<>();
        final List<TopicSubscription> subscriptions = new ArrayList<>();
        LoadSpec load;

        @Override
        public List<String> createTopics(int count, int partitions) {
            throw new AssertionError("the planned run id is passed");
        }

        @Override
        public List<String> createTopics(int count, int partitions, String runId) {
            this.topicCount = count;
            this.partitions = partitions;
            this.runId = runId;
            return IntStream.range(0, count)
                    .mapToObj(i -> "p-" + runId + "-" + i)
                    .toList();
        }

        @Override
        public void createProducers(List<String> topics) {
            producerTopics.addAll(topics);
        }

        @Override
        public void createConsumers(List<TopicSubscription> subscriptions) {
            this.subscriptions.addAll(subscriptions);
        }

        @Override
        public void startLoad(LoadSpec load) {
            this.load = load;
        }

        @Override
        public Progress progress() {
            return new Progress(0, 0, 0, 1_000, "stopped by the test once the load started");
        }
    }

    private RunSpec plan(PlanOptions options) throws Exception {
        Path driver = Files.writeString(
                dir.resolve("driver.yaml"),
                "name: d\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n"
                        + "commonConfig: |\n  bootstrap.servers=h1:9092\n");
        Path workload = Files.writeString(
                dir.resolve("w.yaml"),
                "name: w\ntopics: 2\npartitionsPerTopic: 3\nproducersPerTopic: 2\nsubscriptionsPerTopic: 2\n"
                        + "consumerPerSubscription: 1\nmessageSize: 10\nuseRandomizedPayloads: true\n"
                        + "randomizedPayloadPoolSize: 3\nrandomBytesRatio: 0.5\nkeyDistributor: KEY_ROUND_ROBIN\n"
                        + "warmupOperations: 2\nmeasureOperations: 5\nproducerRate: 1000\n");
        return Planner.plan(List.of(DriverFile.load(driver)), WorkloadLoader.load(workload, null), options)
                .get(0);
    }

    private RecordingWorker execute(RunSpec spec) throws Exception {
        RecordingWorker worker = new RecordingWorker();
        new RunCoordinator(
                        new RunOptions(dir.resolve("out"), null, true),
                        new PrintStream(new ByteArrayOutputStream()),
                        name -> worker,
                        new Interruption())
                .execute(spec, spec.driver(), RunResult.Broker.external(1, "h1:9092"));
        return worker;
    }

    @Test
    void whatExecutesIsWhatTheDryRunPrinted() throws Exception {
        RunSpec spec = plan(PlanOptions.defaults());
        String dryRun = PlanText.describe(List.of(spec));
        RecordingWorker worker = execute(spec);

        assertTrue(dryRun.contains("     run id      " + worker.runId + System.lineSeparator()), dryRun);
        // The topology as executed: topics, producers per topic, subscriptions and consumers per subscription.
        List<String> topics = IntStream.range(0, worker.topicCount)
                .mapToObj(i -> "p-" + worker.runId + "-" + i)
                .toList();
        Map<String, Integer> consumersPerSubscription = new LinkedHashMap<>();
        worker.subscriptions.stream()
                .filter(s -> s.topic().equals(topics.get(0)))
                .forEach(s -> consumersPerSubscription.merge(s.subscription(), 1, Integer::sum));
        Topology executed = new Topology(
                worker.topicCount,
                worker.partitions,
                worker.producerTopics.size() / worker.topicCount,
                List.copyOf(consumersPerSubscription.keySet()),
                consumersPerSubscription.values().iterator().next());
        assertEquals(executed.producerTopics(topics), worker.producerTopics, "producers dealt topic by topic");
        assertEquals(executed.subscriptions(topics), worker.subscriptions, "subscriptions created topic by topic");
        assertTrue(dryRun.contains("     topics      " + PlanText.topics(executed, worker.runId)), dryRun);
        assertEquals(List.of("sub-000-" + worker.runId, "sub-001-" + worker.runId), executed.subscriptionNames());
        // The load as executed, and its payloads.
        assertTrue(dryRun.contains("     start-load  " + PlanText.startLoad(worker.load)), dryRun);
        assertEquals(1000, worker.load.messagesPerSecond());
        List<byte[]> planned = Payloads.of(spec.payloads());
        assertEquals(3, worker.load.payloads().size());
        for (int i = 0; i < planned.size(); i++) {
            assertArrayEquals(planned.get(i), worker.load.payloads().get(i), "payload " + i);
            assertEquals(10, worker.load.payloads().get(i).length);
        }
        assertTrue(dryRun.contains("     payloads    3 payload(s) of 10 byte(s), 50% random (seed 42)"), dryRun);
    }

    @Test
    void theSenderThreadSettingIsPlannedAndSent() throws Exception {
        RunSpec spec = plan(PlanOptions.builder().senderThreadsPerProducer(3).build());
        String dryRun = PlanText.describe(List.of(spec));
        RecordingWorker worker = execute(spec);
        assertEquals(3, worker.load.senderThreadsPerProducer());
        assertTrue(dryRun.contains("     start-load  " + PlanText.startLoad(worker.load)), dryRun);
        assertTrue(dryRun.contains("sender threads per producer 3"), dryRun);
        assertTrue(
                PlanText.describe(List.of(plan(PlanOptions.defaults()))).contains("sender threads per producer auto"));
    }
}

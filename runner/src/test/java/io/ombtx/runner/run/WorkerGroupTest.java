package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.config.KeyDistributorType;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.plan.WorkerAssignment;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Worker;
import io.ombtx.runner.worker.WorkerException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The group executes the plan's assignments: who gets which producers, rates and counts, and in parallel. */
class WorkerGroupTest {

    /** The order in which workers were started. */
    private static final List<Recording> STARTED = java.util.Collections.synchronizedList(new ArrayList<>());

    /** A worker that records what it was asked; {@code rendezvous} makes a step wait for the other workers. */
    private static class Recording implements Worker {
        final List<String> calls = new ArrayList<>();
        final CountDownLatch rendezvous;
        LoadSpec load;
        double rate;
        final long sent;

        Recording(CountDownLatch rendezvous, long sent) {
            this.rendezvous = rendezvous;
            this.sent = sent;
        }

        private synchronized void note(String call) {
            calls.add(call);
        }

        @Override
        public void initializeDriver(String driverYaml, OperationSpec operation) throws Exception {
            note("initialize");
            rendezvous.countDown();
            if (!rendezvous.await(10, TimeUnit.SECONDS)) {
                throw new WorkerException("the other workers were not asked at the same time");
            }
        }

        @Override
        public List<String> createTopics(int count, int partitions) {
            note("createTopics");
            return List.of("t0", "t1", "t2");
        }

        @Override
        public void createProducers(List<String> topics) {
            note("producers " + topics);
        }

        @Override
        public void createConsumers(List<TopicSubscription> subscriptions) {
            note("consumers " + subscriptions.size());
        }

        @Override
        public void prefill(long messages, byte[] payload) {
            note("prefill " + messages);
        }

        @Override
        public void startLoad(LoadSpec spec) {
            load = spec;
            STARTED.add(this);
        }

        @Override
        public void run(Command command) throws Exception {
            note(command.name());
        }

        @Override
        public void adjustRate(double messagesPerSecond) {
            rate = messagesPerSecond;
        }

        @Override
        public StatsSnapshot periodStats() throws Exception {
            StatsSnapshot s = new StatsSnapshot().put(Counter.MESSAGES_SENT, sent);
            s.histogram(Latency.PUBLISH_LATENCY).recordValueWithCount(1000, sent);
            return s;
        }

        @Override
        public Progress progress() {
            return new Progress(sent, sent, sent, 0, null);
        }

        @Override
        public Map<String, Object> environment() {
            return Map.of();
        }

        @Override
        public ExactlyOnceReport verifyExactlyOnce(String topic, String subscription) {
            return new ExactlyOnceReport(1, 0, 0, 0);
        }

        @Override
        public ClientFaults.Report clientFault(ClientFaults.Request request) {
            note(request.step() + " " + request.client() + " " + request.index());
            return new ClientFaults.Report(request.index(), 0, 0, 1, 7, null, null);
        }

        @Override
        public void close() {
            note("close");
        }
    }

    @Test
    void stepsGoToTheWorkersTheyConcernWithThePlannedShares() throws Exception {
        STARTED.clear();
        CountDownLatch together = new CountDownLatch(3);
        Recording a = new Recording(together, 5);
        Recording b = new Recording(together, 7);
        Recording c = new Recording(together, 0);
        try (WorkerGroup group = new WorkerGroup(List.of(
                new WorkerGroup.Member(a, new WorkerAssignment("a", 2, 0, 600, 3, 10, 0)),
                new WorkerGroup.Member(b, new WorkerAssignment("b", 1, 0, 400, 2, 9, 0)),
                new WorkerGroup.Member(c, new WorkerAssignment("c", 0, 4, 0, 5, 0, 0))))) {
            group.initializeDriver("name: d\n", OperationSpec.publish()); // each waits for the others: parallel
            assertEquals(List.of("t0", "t1", "t2"), group.createTopics(3, 1));
            group.createProducers(List.of("t0", "t1", "t2"));
            group.createConsumers(List.of(
                    new Worker.TopicSubscription("t0", "s"),
                    new Worker.TopicSubscription("t1", "s"),
                    new Worker.TopicSubscription("t2", "s"),
                    new Worker.TopicSubscription("t2", "s2")));
            group.run(Worker.Command.PROBE_PRODUCERS);
            group.run(Worker.Command.PAUSE_CONSUMERS);
            group.startLoad(new LoadSpec(
                    LoopMode.OPEN, 1000, List.of(new byte[1]), KeyDistributorType.NO_KEY, 10, 19, 1, false));
            group.adjustRate(2000);
            StatsSnapshot merged = group.periodStats();
            assertEquals(12, merged.counter(Counter.MESSAGES_SENT));
            assertEquals(12, merged.histogram(Latency.PUBLISH_LATENCY).getTotalCount());
            assertEquals(12, group.progress().messagesSent());
        }
        assertSame(c, STARTED.get(0), "the worker that only consumes starts first, so it counts every message");
        assertEquals(java.util.Set.of(a, b), java.util.Set.copyOf(STARTED.subList(1, 3)));
        assertEquals(List.of("initialize", "createTopics", "producers [t0, t2]", "PROBE_PRODUCERS", "close"), a.calls);
        assertEquals(List.of("initialize", "producers [t1]", "PROBE_PRODUCERS", "close"), b.calls);
        assertEquals(List.of("initialize", "consumers 4", "PAUSE_CONSUMERS", "close"), c.calls);
        assertEquals(600, a.load.messagesPerSecond());
        assertEquals(List.of(3L, 10L), List.of(a.load.warmupOperations(), a.load.measureOperations()));
        assertEquals(400, b.load.messagesPerSecond());
        assertEquals(List.of(5L, 0L), List.of(c.load.warmupOperations(), c.load.measureOperations()));
        assertEquals(1000, a.rate);
        assertEquals(1000, b.rate);
        assertEquals(0, c.rate);
    }

    /** As OMB: nothing to tell a worker that only consumes in a plain timed run, unless its consumers do the work. */
    @Test
    void aConsumerOnlyWorkerIsSentALoadOnlyWhenItsConsumersCountOperations() throws Exception {
        for (OperationSpec operation : List.of(
                OperationSpec.publish(),
                new OperationSpec(io.ombtx.driver.api.OperationKind.STREAM, true, 1, 1, false, true))) {
            Recording producer = new Recording(new CountDownLatch(0), 0);
            Recording consumer = new Recording(new CountDownLatch(0), 0);
            try (WorkerGroup group = new WorkerGroup(List.of(
                    new WorkerGroup.Member(producer, new WorkerAssignment("p", 1, 0, 1000, 0, 0, 0)),
                    new WorkerGroup.Member(consumer, new WorkerAssignment("c", 0, 1, 0, 0, 0, 0))))) {
                group.initializeDriver("name: d\n", operation);
                group.startLoad(new LoadSpec(
                        LoopMode.OPEN, 1000, List.of(new byte[1]), KeyDistributorType.NO_KEY, 0, 0, 1, false));
                group.stopInitialized();
            }
            assertEquals(1000, producer.load.messagesPerSecond());
            if (operation.kind() == io.ombtx.driver.api.OperationKind.STREAM) {
                assertEquals(0, consumer.load.messagesPerSecond(), "its consumers run the operations");
                assertEquals(List.of("initialize", "STOP_ALL", "close"), consumer.calls);
            } else {
                assertEquals(null, consumer.load, "no zero-rate load for a plain timed run");
                assertEquals(
                        List.of("initialize", "RESET_STATS", "STOP_ALL", "close"),
                        consumer.calls,
                        "its probe receptions are dropped instead, and it is stopped like every other");
            }
            assertEquals(List.of("initialize", "STOP_ALL", "close"), producer.calls);
        }
    }

    @Test
    void aDealThatDisagreesWithThePlanIsABugNotASilentChange() {
        Recording a = new Recording(new CountDownLatch(0), 0);
        try (WorkerGroup group =
                new WorkerGroup(List.of(new WorkerGroup.Member(a, new WorkerAssignment("a", 2, 0, 0, 0, 0, 0))))) {
            IllegalStateException e =
                    assertThrows(IllegalStateException.class, () -> group.createProducers(List.of("t0")));
            assertTrue(e.getMessage().contains("planned 2 item(s) but is dealt 1"), e.getMessage());
        }
    }

    @Test
    void aFailingWorkerFailsTheStepWithItsOwnError() {
        WorkerException boom = new WorkerException("worker b is not reachable");
        Recording a = new Recording(new CountDownLatch(0), 0);
        Worker failing = new Recording(new CountDownLatch(0), 0) {
            @Override
            public void run(Command command) throws WorkerException {
                throw boom;
            }
        };
        try (WorkerGroup group = new WorkerGroup(List.of(
                new WorkerGroup.Member(a, new WorkerAssignment("a", 1, 0, 0, 0, 0, 0)),
                new WorkerGroup.Member(failing, new WorkerAssignment("b", 1, 0, 0, 0, 0, 0))))) {
            assertSame(boom, assertThrows(WorkerException.class, () -> group.run(Worker.Command.STOP_ALL)));
            // A period some workers cannot report keeps what the others reported.
            Worker silent = new Recording(new CountDownLatch(0), 0) {
                @Override
                public StatsSnapshot periodStats() throws WorkerException {
                    throw boom;
                }
            };
            try (WorkerGroup mixed = new WorkerGroup(List.of(
                    new WorkerGroup.Member(
                            new Recording(new CountDownLatch(0), 4), new WorkerAssignment("a", 1, 0, 0, 0, 0, 0)),
                    new WorkerGroup.Member(silent, new WorkerAssignment("b", 1, 0, 0, 0, 0, 0))))) {
                WorkerGroup.PartialStats partial = assertThrows(WorkerGroup.PartialStats.class, mixed::periodStats);
                assertEquals(4, partial.reported().counter(Counter.MESSAGES_SENT));
                assertSame(boom, partial.getCause());
            }
        }
    }

    /**
     * Client {@code i} of the run is client {@code i / n} of worker {@code i % n}, as consumers and producers are dealt
     * round-robin; an added processor takes the next index and is dealt the same way; reports carry the run's index.
     */
    @Test
    void aClientFaultGoesToTheWorkerThatRunsTheClient() throws Exception {
        CountDownLatch none = new CountDownLatch(0);
        Recording producer = new Recording(none, 0);
        Recording b = new Recording(none, 0);
        Recording c = new Recording(none, 0);
        try (WorkerGroup group = new WorkerGroup(List.of(
                new WorkerGroup.Member(producer, new WorkerAssignment("a", 2, 0, 0, 0, 0, 0)),
                new WorkerGroup.Member(b, new WorkerAssignment("b", 0, 2, 0, 0, 0, 0)),
                new WorkerGroup.Member(c, new WorkerAssignment("c", 0, 1, 0, 0, 0, 0))))) {
            group.createConsumers(List.of(
                    new Worker.TopicSubscription("t", "s"),
                    new Worker.TopicSubscription("t", "s"),
                    new Worker.TopicSubscription("t", "s")));
            ClientFaults.Report killed = group.clientFault(new ClientFaults.Request(
                    "faults[0]", ClientFaults.Client.STREAM_PROCESSOR, 2, ClientFaults.Step.KILL));
            assertEquals(2, killed.index());
            assertEquals(7L, killed.reprocessedRecords());
            ClientFaults.Report added = group.clientFault(new ClientFaults.Request(
                    "faults[1]", ClientFaults.Client.STREAM_PROCESSOR, -1, ClientFaults.Step.ADD));
            assertEquals(3, added.index(), "the fourth processor of the run");
            group.clientFault(new ClientFaults.Request(
                    "faults[2]", ClientFaults.Client.TRANSACTIONAL_PRODUCER, 1, ClientFaults.Step.STOP));
            assertEquals(List.of("consumers 2", "KILL STREAM_PROCESSOR 1"), b.calls);
            assertEquals(List.of("consumers 1", "ADD STREAM_PROCESSOR 1"), c.calls);
            assertEquals(List.of("STOP TRANSACTIONAL_PRODUCER 1"), producer.calls);
        }
    }
}

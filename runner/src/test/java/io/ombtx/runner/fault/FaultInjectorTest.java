package io.ombtx.runner.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.ClientFaults;
import io.ombtx.runner.config.Fault;
import io.ombtx.runner.config.FaultAction;
import io.ombtx.runner.config.FaultTarget;
import io.ombtx.runner.result.ResultSchema;
import io.ombtx.runner.result.RunResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The injector's timing and bookkeeping, with a fake cluster and a fake control. */
class FaultInjectorTest {

    private static final List<BrokerControl.Broker> BROKERS = List.of(
            new BrokerControl.Broker(1, "h1", 9092),
            new BrokerControl.Broker(2, "h2", 9092),
            new BrokerControl.Broker(3, "h3", 9092));

    /** Every broker is there; a role resolves to broker 2. */
    private static final class FakeCluster implements FaultCluster {
        @Override
        public List<BrokerControl.Broker> brokers() {
            return BROKERS;
        }

        @Override
        public FaultCluster.Resolved resolve(Fault fault, List<BrokerControl.Broker> atStart) {
            return fault.target() == FaultTarget.BROKER
                    ? new FaultCluster.Resolved(atStart.get(fault.brokerIndex()).nodeId(), null)
                    : new FaultCluster.Resolved(2, "leader of t-0");
        }

        @Override
        public void awaitServing(int nodeId) {}

        @Override
        public void close() {}
    }

    /** Records what it was asked to do; fails the injection when told to. */
    private static final class FakeControl implements BrokerControl {
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());
        volatile boolean fail;

        @Override
        public void inject(FaultAction action, Broker broker) {
            if (fail) {
                throw new IllegalStateException("boom");
            }
            calls.add(action.key() + " " + broker.nodeId());
        }

        @Override
        public void recover(FaultAction action, Broker broker) {
            calls.add(action.recovery() + " " + broker.nodeId());
        }

        @Override
        public String describe() {
            return "fake";
        }
    }

    private static Fault at(int position, long atMillis, Long recoverMillis) {
        return new Fault(
                position,
                FaultAction.KILL,
                FaultTarget.PARTITION_LEADER,
                null,
                0,
                Duration.ofMillis(atMillis),
                null,
                recoverMillis == null ? null : Duration.ofMillis(recoverMillis),
                null);
    }

    /** Polls as the measurement loop does, every 10 ms, for {@code millis}. */
    private static void run(FaultInjector injector, long start, long millis, long operations) throws Exception {
        long end = start + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            injector.poll(System.nanoTime(), operations);
            Thread.sleep(10);
        }
    }

    /** What became of the faults, checked to be a valid {@code faults} of a result file. */
    private static List<RunResult.FaultEvent> finished(FaultInjector injector, Duration budget) {
        List<RunResult.FaultEvent> events = injector.finish(budget);
        ResultSchema.assertValidAs("faults", events);
        return events;
    }

    private static List<RunResult.FaultEvent> finished(FaultInjector injector, Duration budget, boolean recover) {
        List<RunResult.FaultEvent> events = injector.finish(budget, recover);
        ResultSchema.assertValidAs("faults", events);
        return events;
    }

    @Test
    void aFaultIsInjectedWhenDueAndRecoveredAfterItsDelay() throws Exception {
        FakeControl control = new FakeControl();
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        FaultInjector injector = new FaultInjector(List.of(at(0, 100, 200L)), control, new FakeCluster(), log::add);
        long start = System.nanoTime();
        injector.poll(start + TimeUnit.SECONDS.toNanos(5), 0);
        assertTrue(control.calls.isEmpty(), "nothing before the measurement starts");
        injector.measurementStarted(start);
        run(injector, start, 600, 0);
        RunResult.FaultEvent event = finished(injector, Duration.ofSeconds(10)).get(0);
        assertEquals(List.of("kill 2", "restart 2"), control.calls);
        assertEquals(2, event.brokerId());
        assertEquals("h2:9092", event.broker());
        assertEquals("leader of t-0", event.resolvedVia());
        assertTrue(event.injectedAtSeconds() >= 0.1 && event.injectedAtSeconds() < 0.5, event.toString());
        // Both are rounded to the millisecond (0.101 + 0.2 > 0.301 in doubles): the exact span is the epochs' below.
        assertTrue(event.recoveredAtSeconds() - event.injectedAtSeconds() >= 0.2 - 0.001, event.toString());
        assertTrue(event.rejoinedAtSeconds() >= event.recoveredAtSeconds(), event.toString());
        assertTrue(event.recoveredEpochMillis() - event.injectedEpochMillis() >= 200, event.toString());
        assertEquals(RunResult.FaultEvent.Recovery.RESTART, event.recovery());
        assertEquals(0.2, event.recoverAfterSeconds());
        assertNull(event.error());
        assertNull(event.note());
        assertLines(
                List.of(
                        "Fault faults\\[0\\]: killed broker 2 \\(h2:9092\\), leader of t-0 at \\d+\\.\\d s",
                        "Fault faults\\[0\\]: broker 2 restarted at \\d+\\.\\d s, serving again at \\d+\\.\\d s"),
                log);
    }

    /** Each of {@code patterns} matches one line of {@code log}, in order, and nothing else was logged. */
    private static void assertLines(List<String> patterns, List<String> log) {
        assertEquals(patterns.size(), log.size(), log.toString());
        for (int i = 0; i < patterns.size(); i++) {
            assertTrue(log.get(i).matches(patterns.get(i)), log.get(i) + " does not match " + patterns.get(i));
        }
    }

    @Test
    void aCountedFaultWaitsForItsOperations() throws Exception {
        FakeControl control = new FakeControl();
        Fault fault = new Fault(0, FaultAction.PAUSE, FaultTarget.BROKER, 2, null, null, 5L, null, null);
        FaultInjector injector = new FaultInjector(List.of(fault), control, new FakeCluster(), line -> {});
        long start = System.nanoTime();
        injector.measurementStarted(start);
        run(injector, start, 100, 4);
        assertTrue(control.calls.isEmpty());
        run(injector, System.nanoTime(), 100, 5);
        RunResult.FaultEvent event = finished(injector, Duration.ofSeconds(10)).get(0);
        assertEquals(List.of("pause 3"), control.calls, "index 2 is the third broker by node id");
        assertEquals(5L, event.afterOperations());
        assertNull(event.recovery());
        assertNull(event.recoveredEpochMillis());
    }

    @Test
    void theEndOfTheMeasurementBringsRestartsForwardAndDropsFaultsNotYetDue() throws Exception {
        FakeControl control = new FakeControl();
        FaultInjector injector = new FaultInjector(
                List.of(at(0, 0, 60_000L), at(1, 60_000, null)), control, new FakeCluster(), line -> {});
        long start = System.nanoTime();
        injector.measurementStarted(start);
        run(injector, start, 200, 0);
        List<RunResult.FaultEvent> events = finished(injector, Duration.ofSeconds(10));
        assertEquals(List.of("kill 2", "restart 2"), control.calls);
        assertEquals(
                "restart brought forward to the end of the measurement",
                events.get(0).note());
        assertNotNull(events.get(0).rejoinedEpochMillis());
        assertEquals("not injected: the measurement ended first", events.get(1).note());
        assertNull(events.get(1).injectedEpochMillis());
    }

    @Test
    void aFailedInjectionIsRecordedAndNotRecovered() throws Exception {
        FakeControl control = new FakeControl();
        control.fail = true;
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        FaultInjector injector = new FaultInjector(List.of(at(0, 0, 100L)), control, new FakeCluster(), log::add);
        long start = System.nanoTime();
        injector.measurementStarted(start);
        run(injector, start, 300, 0);
        RunResult.FaultEvent event = finished(injector, Duration.ofSeconds(10)).get(0);
        assertEquals("injecting failed: boom", event.error());
        assertTrue(control.calls.isEmpty());
        assertNull(event.recoveredEpochMillis());
        assertTrue(log.contains("Fault faults[0]: injecting failed: boom"), log.toString());
    }

    @Test
    void aRunEndedEarlyOnAClusterAboutToCloseRestartsNothing() throws Exception {
        FakeControl control = new FakeControl();
        FaultInjector injector = new FaultInjector(List.of(at(0, 0, 60_000L)), control, new FakeCluster(), line -> {});
        long start = System.nanoTime();
        injector.measurementStarted(start);
        run(injector, start, 200, 0);
        RunResult.FaultEvent event =
                finished(injector, Duration.ofSeconds(10), false).get(0);
        assertEquals(List.of("kill 2"), control.calls);
        assertEquals("no restart: the run ended early", event.note());
        assertNull(event.recoveredEpochMillis());
    }

    /** Records the client fault steps it is asked for and answers as a driver would. */
    private static final class FakeClients implements ClientControl {
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());

        @Override
        public ClientFaults.Report clientFault(ClientFaults.Request request) {
            calls.add(request.fault() + " " + request.step() + " " + request.client() + " " + request.index());
            return switch (request.step()) {
                case ADD -> new ClientFaults.Report(3, 0, 0, 0, 0, null, null);
                case REPORT -> new ClientFaults.Report(request.index(), 1, 0, 1, 10, 2_345L, null);
                default -> new ClientFaults.Report(request.index(), 0, 0, 1, 10, null, null);
            };
        }
    }

    @Test
    void aClientFaultGoesToTheClientsAndItsRecordCarriesWhatTheDriverCounted() throws Exception {
        FakeControl brokers = new FakeControl();
        FakeClients clients = new FakeClients();
        Fault pause = new Fault(
                0,
                FaultAction.PAUSE,
                FaultTarget.STREAM_PROCESSOR,
                null,
                null,
                Duration.ofMillis(50),
                null,
                Duration.ofMillis(100),
                1);
        Fault add = new Fault(
                1, FaultAction.ADD, FaultTarget.STREAM_PROCESSOR, null, null, Duration.ofMillis(60), null, null, null);
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        FaultInjector injector = new FaultInjector(List.of(pause, add), brokers, clients, new FakeCluster(), log::add);
        long start = System.nanoTime();
        injector.measurementStarted(start);
        run(injector, start, 1000, 0);
        List<RunResult.FaultEvent> events = finished(injector, Duration.ofSeconds(10));
        assertTrue(brokers.calls.isEmpty(), "no broker was touched");
        assertEquals(
                List.of(
                        "faults[0] PAUSE STREAM_PROCESSOR 1",
                        "faults[0] RESUME STREAM_PROCESSOR 1",
                        "faults[0] REPORT STREAM_PROCESSOR 1"),
                clients.calls.stream().filter(c -> c.startsWith("faults[0]")).toList());
        assertEquals(
                List.of("faults[1] ADD STREAM_PROCESSOR -1"),
                clients.calls.stream().filter(c -> c.startsWith("faults[1]")).toList(),
                "an add has no recovery and nothing to report");
        RunResult.FaultEvent zombie = events.get(0);
        assertNull(zombie.error());
        assertEquals(1, zombie.index());
        assertEquals(RunResult.FaultEvent.Recovery.RESUME, zombie.recovery());
        assertNull(zombie.brokerId());
        assertEquals(1, zombie.fencings());
        assertEquals(0, zombie.zombieCommits());
        assertEquals(1, zombie.abortedTransactions());
        assertEquals(10L, zombie.reprocessedRecords());
        assertEquals(2.345, zombie.stallSeconds());
        assertTrue(zombie.recoveredAtSeconds() - zombie.injectedAtSeconds() >= 0.1 - 0.001, zombie.toString());
        RunResult.FaultEvent added = events.get(1);
        assertEquals(3, added.index(), "the driver's answer names the new processor");
        assertNull(added.abortedTransactions());
        assertNull(added.recovery());
        assertTrue(
                log.stream().anyMatch(l -> l.startsWith("Fault faults[1]: added stream-processor 3 at ")),
                log.toString());
        assertLines(
                List.of(
                        "Fault faults\\[0\\]: paused stream-processor 1 at \\d+\\.\\d s",
                        "Fault faults\\[0\\]: stream-processor 1 replaced, the zombie resumed at \\d+\\.\\d s, the new"
                                + " instance ready at \\d+\\.\\d s(, the zombie fenced)?"),
                log.stream().filter(l -> l.startsWith("Fault faults[0]")).toList());
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.BrokerProfile;
import io.ombtx.broker.junit.EmbeddedKafkaExtension;
import io.ombtx.runner.Main;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.worker.WorkerServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client faults end to end, as Kafka's own exactly-once system tests bounce their copiers: through the runner, its
 * worker and the driver, on three brokers (replication factor 3, min ISR 2, the transaction log replicated 3 times).
 * A stream processor killed (abandoned mid-transaction), stopped (aborted and closed) or paused as a zombie, each
 * replaced by a new instance with the same transactional id; a transactional producer of WRITE killed and paused;
 * a group of processors losing one and gaining one. Every fault cuts exactly one transaction of one record, so the
 * counts are exact; the exactly-once check passes: 0 duplicated, 0 missing.
 */
@Tag("integration")
class ClientFaultsTest {

    @RegisterExtension
    static final EmbeddedKafkaExtension kafka =
            new EmbeddedKafkaExtension().brokers(3).profile(BrokerProfile.MAX_CONSISTENCY);

    @TempDir
    Path dir;

    private static final String STREAM =
            """
            name: %s
            topics: 1
            partitionsPerTopic: %d
            messageSize: 6
            producersPerTopic: 1
            subscriptionsPerTopic: 1
            consumerPerSubscription: %d
            loop: open
            producerRate: 50
            reportingIntervalSeconds: 1
            operation: {kind: STREAM, transactional: true, messagesPerOperation: 1, verifyExactlyOnce: true}
            warmupDurationSeconds: 2
            testDurationSeconds: 20
            faults:
            """;

    private record Run(RunResult result, String log) {}

    private Run run(String workloadText, String... flags) throws Exception {
        Path driver = dir.resolve("driver.yaml");
        Files.writeString(
                driver,
                """
                name: kafka-tx-three
                driverClass: io.ombtx.driver.kafka.KafkaTxBenchmarkDriver
                replicationFactor: 3
                topicConfig: |
                  min.insync.replicas=2
                commonConfig: |
                  bootstrap.servers=%s
                producerConfig: |
                  acks=all
                  linger.ms=0
                  retry.backoff.ms=0
                consumerConfig: |
                  auto.offset.reset=earliest
                  enable.auto.commit=false
                """
                        .formatted(kafka.bootstrapServers()));
        Path workload = dir.resolve("workload.yaml");
        Files.writeString(workload, workloadText);
        Path result = dir.resolve("result.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> args = new java.util.ArrayList<>(List.of("-d", driver.toString(), "-o", result.toString()));
        args.addAll(List.of(flags));
        args.add(workload.toString());
        int code =
                Main.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        RunResult r = ResultReader.read(result);
        assertEquals(RunResult.Status.COMPLETE, r.status(), log);
        return new Run(r, log);
    }

    private static String stream(String name, int partitions, int processors, String faults) {
        return STREAM.formatted(name, partitions, processors) + faults;
    }

    /**
     * A group's processors poll one transaction's records at a time, so each rejoins a rebalance within one
     * transaction even when it lags (on a busy machine a poll of 500 records is 500 transactions before the next).
     * Its records are keyed, so every partition, and so every processor, has input from the start: unkeyed, the
     * producer writes batch.size bytes (16 KiB, some 6 s here) to one partition before the next, and a client fault
     * armed on a processor without input is carried out between transactions (IdleClientFaultTest), cutting none.
     */
    private static String group(String name, int partitions, int processors, String faults) {
        return stream(name, partitions, processors, faults)
                + "keyDistributor: KEY_ROUND_ROBIN\n"
                + "driverOverrides:\n  consumerConfig: |\n    max.poll.records=1\n";
    }

    private static void assertExactlyOnce(Run run) {
        RunResult.ExactlyOnce check = run.result().exactlyOnce();
        assertNotNull(check, run.log());
        assertTrue(check.checked() > 0, check.toString());
        assertEquals(0, check.duplicated(), check.toString());
        assertEquals(0, check.missing(), check.toString());
        assertTrue(check.passed(), check.toString());
    }

    /** The fault cut one transaction of one record and its client came back after {@code recoverAfter} seconds. */
    private static void assertOneTransactionCut(RunResult.FaultEvent f, double recoverAfter, String log) {
        assertNull(f.error(), log);
        assertEquals(0, f.index(), log);
        assertEquals(1, f.abortedTransactions(), log);
        assertEquals(1L, f.reprocessedRecords(), log);
        assertEquals(0, f.zombieCommits(), log);
        // Both are rounded to the millisecond: compared in whole milliseconds (as doubles, 3.028 + 4.0 > 7.028).
        assertTrue(
                Math.round(f.recoveredAtSeconds() * 1000)
                        >= Math.round(f.injectedAtSeconds() * 1000) + Math.round(recoverAfter * 1000),
                log);
        assertNotNull(f.stallSeconds(), "the new instance committed: " + log);
        assertTrue(f.stallSeconds() >= recoverAfter, "stall " + f.stallSeconds());
    }

    @Test
    void aKilledStreamProcessorIsReplacedAndItsOpenTransactionIsAbortedByTheNewInstance() throws Exception {
        Run run = run(stream(
                "client-kill",
                3,
                1,
                "  - {action: kill, target: stream-processor, index: 0, at: 4s, restartAfter: 2s}\n"));
        RunResult.FaultEvent kill = run.result().faults().get(0);
        assertEquals(RunResult.FaultEvent.Action.KILL, kill.action());
        assertEquals(RunResult.FaultEvent.Target.STREAM_PROCESSOR, kill.target());
        assertEquals(RunResult.FaultEvent.Recovery.RESTART, kill.recovery());
        assertOneTransactionCut(kill, 2.0, run.log());
        assertEquals(0, kill.fencings(), run.log());
        assertNull(kill.note(), run.log());
        assertTrue(run.log().contains("Fault faults[0]: killed stream-processor 0 at "), run.log());
        assertExactlyOnce(run);
    }

    @Test
    void aStoppedStreamProcessorAbortsItsTransactionClosesAndIsRestarted() throws Exception {
        Run run = run(stream(
                "client-stop", 3, 1, "  - {action: stop, target: stream-processor, at: 4s, restartAfter: 2s}\n"));
        RunResult.FaultEvent stop = run.result().faults().get(0);
        assertEquals(RunResult.FaultEvent.Action.STOP, stop.action());
        assertOneTransactionCut(stop, 2.0, run.log());
        assertEquals(0, stop.fencings(), run.log());
        assertNull(stop.note(), "the abort succeeded: " + run.log());
        assertExactlyOnce(run);
    }

    @Test
    void aPausedStreamProcessorIsAZombieThatIsFencedAndNeverCommits() throws Exception {
        Run run = run(stream(
                "client-zombie", 3, 1, "  - {action: pause, target: stream-processor, at: 4s, resumeAfter: 3s}\n"));
        RunResult.FaultEvent pause = run.result().faults().get(0);
        assertEquals(RunResult.FaultEvent.Action.PAUSE, pause.action());
        assertEquals(RunResult.FaultEvent.Recovery.RESUME, pause.recovery());
        assertOneTransactionCut(pause, 3.0, run.log());
        assertEquals(1, pause.fencings(), "the resumed zombie's commit was fenced: " + run.log());
        assertNull(pause.note(), run.log());
        assertTrue(run.log().contains("the zombie fenced"), run.log());
        // The zombie's record, sent before it was held, was aborted by the new instance: 0 duplicated.
        assertExactlyOnce(run);
    }

    @Test
    void aTransactionalProducerKilledOrPausedRunsItsOperationAgainOnTheNextInstance() throws Exception {
        Run run = run(
                """
                name: producer-faults
                topics: 1
                partitionsPerTopic: 2
                messageSize: 6
                producersPerTopic: 1
                subscriptionsPerTopic: 0
                loop: closed
                reportingIntervalSeconds: 1
                operation: {kind: WRITE, transactional: true, messagesPerOperation: 3, partitionsPerOperation: 2}
                warmupDurationSeconds: 2
                testDurationSeconds: 16
                faults:
                  - {action: pause, target: transactional-producer, at: 3s, resumeAfter: 2s}
                  - {action: kill, target: transactional-producer, at: 9s, restartAfter: 2s}
                """);
        List<RunResult.FaultEvent> faults = run.result().faults();
        RunResult.FaultEvent pause = faults.get(0);
        RunResult.FaultEvent kill = faults.get(1);
        for (RunResult.FaultEvent f : faults) {
            assertNull(f.error(), run.log());
            assertEquals(RunResult.FaultEvent.Target.TRANSACTIONAL_PRODUCER, f.target());
            assertEquals(0, f.index());
            assertEquals(1, f.abortedTransactions(), run.log());
            assertEquals(3L, f.reprocessedRecords(), "the operation's 3 records sent again: " + run.log());
            assertEquals(0, f.zombieCommits(), run.log());
            assertNotNull(f.stallSeconds(), run.log());
        }
        assertEquals(1, pause.fencings(), run.log());
        assertEquals(0, kill.fencings(), run.log());
        assertTrue(pause.stallSeconds() >= 2.0, "stall " + pause.stallSeconds());
        assertTrue(kill.stallSeconds() >= 2.0, "stall " + kill.stallSeconds());
        assertEquals(0, run.result().counts().failed(), "a cut operation is run again, not failed: " + run.log());
    }

    /**
     * Group mode, as Kafka's group_mode_transactions_test: three processors in one group over nine partitions; one
     * leaves cleanly (a rebalance while the others are in their transactions), then one joins (another).
     */
    @Test
    void aGroupOfProcessorsLosingOneAndGainingOneStaysExactlyOnce() throws Exception {
        Run run = run(
                group(
                        "group",
                        9,
                        3,
                        """
                  - {action: remove, target: stream-processor, index: 1, at: 4s}
                  - {action: add, target: stream-processor, at: 9s}
                """));
        List<RunResult.FaultEvent> faults = run.result().faults();
        RunResult.FaultEvent remove = faults.get(0);
        RunResult.FaultEvent add = faults.get(1);
        assertNull(remove.error(), run.log());
        assertNull(add.error(), run.log());
        assertEquals(RunResult.FaultEvent.Action.REMOVE, remove.action());
        assertEquals(1, remove.index());
        assertEquals(RunResult.FaultEvent.Action.ADD, add.action());
        assertEquals(3, add.index(), "the added processor takes the next index");
        assertNull(remove.recovery());
        assertNull(add.abortedTransactions(), "add and remove carry no fault counts");
        assertTrue(run.log().contains("Fault faults[1]: added stream-processor 3 at "), run.log());
        assertExactlyOnce(run);
    }

    /**
     * Group mode on distributed workers: with three workers and {@code -x}, the first produces and the other two run
     * the processors, dealt round-robin (processors 0 and 2 on the second worker, 1 on the third); each fault reaches
     * the worker that runs its processor, and the added one (index 3) goes to the third worker.
     */
    @Test
    void processorsOnSeveralWorkersAreFaultedWhereTheyRun() throws Exception {
        try (WorkerServer first = new WorkerServer("127.0.0.1", 0).start();
                WorkerServer second = new WorkerServer("127.0.0.1", 0).start();
                WorkerServer third = new WorkerServer("127.0.0.1", 0).start()) {
            String workers = "http://127.0.0.1:" + first.port() + ",http://127.0.0.1:" + second.port()
                    + ",http://127.0.0.1:" + third.port();
            Run run = run(
                    group(
                            "distributed-group",
                            6,
                            3,
                            """
                              - {action: kill, target: stream-processor, index: 1, at: 3s, restartAfter: 2s}
                              - {action: remove, target: stream-processor, index: 2, at: 9s}
                              - {action: add, target: stream-processor, at: 12s}
                            """),
                    "-w",
                    workers,
                    "-x");
            List<RunResult.FaultEvent> faults = run.result().faults();
            for (RunResult.FaultEvent f : faults) {
                assertNull(f.error(), run.log());
            }
            RunResult.FaultEvent kill = faults.get(0);
            assertEquals(1, kill.index());
            assertEquals(1, kill.abortedTransactions(), run.log());
            assertEquals(1L, kill.reprocessedRecords(), run.log());
            assertNotNull(kill.stallSeconds(), run.log());
            assertEquals(2, faults.get(1).index());
            assertEquals(3, faults.get(2).index());
            assertExactlyOnce(run);
        }
    }

    /** The example workloads in workloads/eos/ plan with the tuned driver, in both profiles, as documented. */
    @Test
    void theShippedClientFaultWorkloadsPlanOnThreeEmbeddedBrokers() throws Exception {
        Path home = io.ombtx.runner.OmbTxHome.locate();
        List<Path> files;
        try (var list = Files.list(home.resolve("workloads/eos"))) {
            // The client-fault cells; the broker-bounce cells (tx-streaming-broker-*) are EosMatrixSuiteTest's.
            files = list.filter(f -> f.toString().endsWith(".yaml"))
                    .filter(f -> !f.getFileName().toString().startsWith("tx-streaming-broker-"))
                    .sorted()
                    .toList();
        }
        assertEquals(
                List.of(
                        "tx-streaming-client-bounce.yaml",
                        "tx-streaming-client-kill-aborts.yaml",
                        "tx-streaming-client-kill.yaml",
                        "tx-streaming-group-aborts.yaml",
                        "tx-streaming-group.yaml",
                        "tx-streaming-zombie.yaml"),
                files.stream().map(f -> f.getFileName().toString()).toList());
        for (String profile : new String[] {"quick", "full"}) {
            for (Path file : files) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int code = Main.run(
                        new String[] {
                            "-d",
                            home.resolve("driver-kafka-tx/kafka-tx-tuned.yaml").toString(),
                            "--dry-run",
                            "--profile",
                            profile,
                            file.toString()
                        },
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        System.err);
                String plan = out.toString(StandardCharsets.UTF_8);
                assertEquals(0, code, plan);
                assertTrue(plan.contains("embedded Kafka, 3 broker(s)"), plan);
                assertTrue(plan.contains("fault       faults[0]: "), plan);
                assertTrue(plan.contains(", exactly-once check"), plan);
                if (profile.equals("quick")) {
                    assertTrue(plan.contains("measure 40 s"), plan);
                }
                String header = Files.readString(file);
                assertTrue(
                        header.startsWith("# " + file.getFileName().toString().replace(".yaml", "") + " — "),
                        file.toString());
                assertTrue(header.contains("What to expect"), file.toString());
                assertTrue(header.contains("verifyExactlyOnce: true"), file.toString());
                assertTrue(header.contains("brokerProfile: max-consistency"), file.toString());
            }
        }
    }
}

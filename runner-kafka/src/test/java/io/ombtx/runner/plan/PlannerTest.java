package io.ombtx.runner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.cluster.BrokerNeeds;
import io.ombtx.runner.cluster.BrokerPlan;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Planning resolves every decision a run depends on, before anything starts. */
class PlannerTest {

    private static final String SPI_DRIVER = "io.ombtx.runner.testdriver.SpiOnlyKafkaDriver";

    @TempDir
    Path dir;

    private DriverFile driver(String yaml) throws Exception {
        return DriverFile.load(Files.writeString(dir.resolve("driver.yaml"), yaml));
    }

    private Workload workload(String yaml) throws Exception {
        String base = "messageSize: 100\n" + (yaml.contains("Operations") ? "" : "testDurationMinutes: 1\n");
        return WorkloadLoader.load(Files.writeString(dir.resolve("w.yaml"), base + yaml), null)
                .get(0);
    }

    private static PlanOptions workers(boolean extra, String... urls) {
        return PlanOptions.builder()
                .workerUrls(List.of(urls))
                .extraConsumers(extra)
                .build();
    }

    @Test
    void oneLocalWorkerDoesEverything() throws Exception {
        RunSpec run = Planner.plan(
                        List.of(driver("name: d\ndriverClass: " + SPI_DRIVER + "\n")),
                        List.of(workload("name: w\ntopics: 2\nproducerRate: 3000\n")),
                        PlanOptions.defaults())
                .get(0);
        assertEquals(List.of(new WorkerAssignment(WorkerAssignment.LOCAL, 2, 2, 3000, 0, 0, 0)), run.workers());
        assertEquals(3000, run.initialRate());
        assertFalse(run.findMaximumRate());
        assertTrue(run.broker().embedded());
        assertEquals(1, run.broker().brokers());
        assertEquals(10, run.reportingIntervalSeconds());
    }

    /**
     * What a run needs of the broker, blamed where it was asked for: a transactional STREAM's group metadata (not a
     * naive one's, not a WRITE's offsets, whose group metadata has no member), the consumer group protocol from the
     * workload or the driver's file, transaction version 2 from the workload or the flag.
     */
    @Test
    void eachRunSaysWhatItNeedsOfTheBrokerAndWhoAsked() throws Exception {
        DriverFile plain = driver("name: d\ndriverClass: " + SPI_DRIVER + "\n");
        String stream = "name: s\noperation: {kind: STREAM, transactional: %s}\nsubscriptionsPerTopic: 1\n"
                + "producerRate: 100\n";
        assertEquals(
                List.of(new BrokerNeeds.Need(
                        BrokerNeeds.Capability.GROUP_METADATA,
                        dir.resolve("w.yaml").toString(),
                        "operation",
                        "a transactional STREAM (sendOffsetsToTransaction with the consumer's group metadata)",
                        "use a broker that serves it (Kafka 2.5 and later)")),
                needs(plain, stream.formatted("true"), PlanOptions.defaults()));
        assertEquals(List.of(), needs(plain, stream.formatted("false"), PlanOptions.defaults()));
        String offsets =
                "name: w\noperation: {kind: WRITE, transactional: true, sendOffsets: true}\nproducerRate: 100\n";
        assertEquals(List.of(), needs(plain, offsets, PlanOptions.defaults()));

        List<BrokerNeeds.Need> consumer = needs(
                driver("name: d\ndriverClass: " + SPI_DRIVER + "\nconsumerConfig: |\n  group.protocol=consumer\n"),
                "name: w\ntransactionVersion: 2\nproducerRate: 100\n",
                PlanOptions.defaults());
        assertEquals(
                List.of(BrokerNeeds.Capability.CONSUMER_GROUP_PROTOCOL, BrokerNeeds.Capability.TRANSACTION_V2),
                consumer.stream().map(BrokerNeeds.Need::capability).toList());
        assertEquals(
                List.of(
                        dir.resolve("driver.yaml") + " consumerConfig.group.protocol",
                        dir.resolve("w.yaml") + " transactionVersion"),
                consumer.stream().map(n -> n.file() + " " + n.key()).toList());
        List<BrokerNeeds.Need> flag = needs(
                plain,
                "name: w\ngroupProtocol: consumer\nproducerRate: 100\n",
                PlanOptions.builder().transactionVersion(2).build());
        assertEquals(
                List.of(dir.resolve("w.yaml") + " groupProtocol", "null --transaction-version"),
                flag.stream().map(n -> n.file() + " " + n.key()).toList());
    }

    private List<BrokerNeeds.Need> needs(DriverFile driver, String workload, PlanOptions options) throws Exception {
        return Planner.plan(List.of(driver), List.of(workload(workload)), options)
                .get(0)
                .brokerNeeds();
    }

    @Test
    void severalWorkersSplitAsOmbDoesAndOnlyWorkersWithWorkShareTheRate() throws Exception {
        Workload w = workload("name: w\ntopics: 1\nproducersPerTopic: 1\nproducerRate: 1000\n");
        List<WorkerAssignment> four = Planner.plan(
                        List.of(driver("name: d\ndriverClass: " + SPI_DRIVER + "\n")),
                        List.of(w),
                        workers(false, "http://a", "http://b", "http://c", "http://d"))
                .get(0)
                .workers();
        // The first half produce, the rest consume; of two producing workers only one gets the single producer.
        assertEquals(
                List.of(
                        new WorkerAssignment("http://a", 1, 0, 1000, 0, 0, 0),
                        new WorkerAssignment("http://c", 0, 1, 0, 0, 0, 0)),
                four);
    }

    @Test
    void extraConsumersGiveTwoThirdsOfTheWorkersToConsumers() throws Exception {
        Workload w = workload("name: w\ntopics: 6\nproducerRate: 600\n");
        List<String> six = List.of("a", "b", "c", "d", "e", "f");
        List<WorkerAssignment> plain = Planner.assign(w, six, false, 600);
        List<WorkerAssignment> extra = Planner.assign(w, six, true, 600);
        assertEquals(
                List.of(2, 2, 2, 0, 0, 0),
                plain.stream().map(WorkerAssignment::producers).toList());
        assertEquals(
                List.of(0, 0, 0, 2, 2, 2),
                plain.stream().map(WorkerAssignment::consumers).toList());
        assertEquals(
                List.of(3, 3, 0, 0, 0, 0),
                extra.stream().map(WorkerAssignment::producers).toList());
        assertEquals(
                List.of(0, 0, 2, 2, 1, 1),
                extra.stream().map(WorkerAssignment::consumers).toList());
        assertEquals(
                List.of(300.0, 300.0, 0.0, 0.0, 0.0, 0.0),
                extra.stream().map(WorkerAssignment::publishRate).toList());
    }

    @Test
    void countsAreSplitOverTheWorkersThatOperate() throws Exception {
        Workload w = workload("name: w\ntopics: 2\nloop: closed\nwarmupOperations: 5\nmeasureOperations: 11\n");
        List<WorkerAssignment> a = Planner.plan(
                        List.of(driver("name: d\ndriverClass: " + SPI_DRIVER + "\n")),
                        List.of(w),
                        workers(false, "p1", "p2", "c1", "c2"))
                .get(0)
                .workers();
        assertEquals(
                List.of(3L, 2L, 3L, 2L),
                a.stream().map(WorkerAssignment::warmupOperations).toList());
        assertEquals(
                List.of(6L, 5L, 0L, 0L),
                a.stream().map(WorkerAssignment::measureOperations).toList());
        assertEquals(
                List.of(0.0, 0.0, 0.0, 0.0),
                a.stream().map(WorkerAssignment::publishRate).toList(),
                "closed loop");
    }

    @Test
    void waitForConsumeKeepsProducerAndConsumerOnTheFirstWorker() throws Exception {
        Workload w = workload("name: w\nloop: closed\nmeasureOperations: 10\noperation:\n  kind: WRITE\n"
                + "  waitForConsume: true\n");
        RunSpec run = Planner.plan(
                        List.of(driver("name: d\ndriverClass: " + SPI_DRIVER + "\n")),
                        List.of(w),
                        workers(false, "a", "b"))
                .get(0);
        assertEquals(List.of(new WorkerAssignment("a", 1, 1, 0, 0, 10, 0)), run.workers());
        assertTrue(run.workerNote().contains("the other 1 stay idle"), run.workerNote());
    }

    @Test
    void aDriverClassThatIsNotThereOrNotADriverFailsWhilePlanning() throws Exception {
        Workload w = workload("name: w\n");
        ConfigException missing = assertThrows(
                ConfigException.class,
                () -> Planner.plan(
                        List.of(driver("name: d\ndriverClass: no.such.Driver\n")), List.of(w), PlanOptions.defaults()));
        assertEquals("driverClass", missing.key());
        assertTrue(
                missing.getMessage()
                        .startsWith(dir.resolve("driver.yaml") + ": key 'driverClass': class"
                                + " no.such.Driver is not on the class path"),
                missing.getMessage());
        ConfigException notDriver = assertThrows(
                ConfigException.class,
                () -> Planner.plan(
                        List.of(driver("name: d\ndriverClass: java.lang.String\n")),
                        List.of(w),
                        PlanOptions.defaults()));
        assertTrue(notDriver.getMessage().contains("java.lang.String is not an OMB driver"), notDriver.getMessage());
        // Remote workers load the driver themselves: a class this JVM lacks is theirs to find.
        RunSpec remote = Planner.plan(
                        List.of(driver("name: d\ndriverClass: no.such.Driver\n")),
                        List.of(w),
                        workers(false, "http://a"))
                .get(0);
        assertFalse(remote.driverChecked());
    }

    @Test
    void theMaximumRateIsSearchedForOnlyInATimeBasedRun() throws Exception {
        DriverFile d = driver("name: d\ndriverClass: " + SPI_DRIVER + "\n");
        RunSpec timed = Planner.plan(
                        List.of(d), List.of(workload("name: w\nproducerRate: 0\n")), PlanOptions.defaults())
                .get(0);
        assertTrue(timed.findMaximumRate());
        assertEquals(Planner.MAX_RATE_SEARCH_START, timed.initialRate());
        Workload counted = workload("name: w\nproducerRate: 0\nwarmupOperations: 10\nmeasureOperations: 100\n");
        ConfigException e = assertThrows(
                ConfigException.class, () -> Planner.plan(List.of(d), List.of(counted), PlanOptions.defaults()));
        assertEquals("producerRate", e.key());
        assertTrue(
                e.getMessage()
                        .startsWith(dir.resolve("w.yaml") + ": key 'producerRate': 0 (search for the maximum"
                                + " sustainable rate) needs a time-based run"),
                e.getMessage());
    }

    @Test
    void replicationFactorsTheEmbeddedClusterCannotHostFailWhilePlanning() throws Exception {
        Workload w = workload("name: w\n");
        assertEquals(
                3,
                Planner.plan(
                                List.of(driver("name: d\ndriverClass: " + SPI_DRIVER + "\nreplicationFactor: 3\n")),
                                List.of(w),
                                PlanOptions.defaults())
                        .get(0)
                        .broker()
                        .brokers());
        ConfigException fifty = assertThrows(
                ConfigException.class,
                () -> Planner.plan(
                        List.of(driver("name: d\ndriverClass: " + SPI_DRIVER + "\nreplicationFactor: 50\n")),
                        List.of(w),
                        PlanOptions.defaults()));
        assertEquals("replicationFactor", fifty.key());
        for (String bad : new String[] {"0", "-1", "2.5", "three"}) {
            ConfigException e = assertThrows(
                    ConfigException.class,
                    () -> driver("name: d\ndriverClass: " + SPI_DRIVER + "\nreplicationFactor: " + bad + "\n"),
                    bad);
            assertEquals("replicationFactor", e.key(), bad);
        }
    }

    @Test
    void aWorkloadsBrokerCountBelowTheReplicationFactorFailsAsTheFlagDoes() throws Exception {
        DriverFile rf3 = driver("name: d\ndriverClass: " + SPI_DRIVER + "\nreplicationFactor: 3\n");
        Workload one = workload("name: w\nbrokers: 1\n");
        ConfigException fromKey = assertThrows(
                ConfigException.class, () -> Planner.plan(List.of(rf3), List.of(one), PlanOptions.defaults()));
        assertEquals(dir.resolve("w.yaml").toString(), fromKey.file());
        assertEquals("brokers", fromKey.key());
        assertEquals(
                "1 broker(s), below the replication factor 3 of " + dir.resolve("driver.yaml")
                        + " (replicationFactor): set brokers: 3 or more, or use a driver with a lower replication factor",
                fromKey.problem());
        ConfigException fromFlag = assertThrows(
                ConfigException.class,
                () -> Planner.plan(
                        List.of(rf3),
                        List.of(workload("name: w\n")),
                        PlanOptions.builder().brokers(1).build()));
        assertEquals("replicationFactor", fromFlag.key(), "the flag's rule, as before");

        // --brokers wins over the workload's count (the larger of the two runs), so the key is not in question then.
        assertEquals(
                3,
                Planner.plan(
                                List.of(rf3),
                                List.of(one),
                                PlanOptions.builder().brokers(3).build())
                        .get(0)
                        .broker()
                        .brokers());
        // A workload that does not say how many brokers gets as many as the replication factor needs.
        assertEquals(
                3,
                Planner.plan(List.of(rf3), List.of(workload("name: w\n")), PlanOptions.defaults())
                        .get(0)
                        .broker()
                        .brokers());
    }

    @Test
    void theDryRunShowsTheEffectiveDriverSettingsWithSecretsRedacted() throws Exception {
        DriverFile d = driver("name: d\ndriverClass: " + SPI_DRIVER + "\nproducerConfig: |\n  acks=1\n"
                + "  # a comment\n  linger.ms=5\ncommonConfig: |\n  sasl.jaas.config=x required password=\"p\";\n");
        Workload w = workload("name: w\ndriverOverrides:\n  producerConfig: |\n    acks=all\n");
        String text = PlanText.describe(Planner.plan(List.of(d), List.of(w), PlanOptions.defaults()));
        assertTrue(
                text.contains("settings    replicationFactor 1; commonConfig: sasl.jaas.config=<redacted>;"
                        + " producerConfig: acks=all, linger.ms=5"),
                text);
        assertFalse(text.contains("password"), text);
    }

    @Test
    void anExternalClusterIsNamedAndNothingIsStartedForIt() throws Exception {
        RunSpec run = Planner.plan(
                        List.of(driver("name: d\ndriverClass: " + SPI_DRIVER
                                + "\ncommonConfig: |\n  bootstrap.servers=h1:9092\n")),
                        List.of(workload("name: w\n")),
                        PlanOptions.defaults())
                .get(0);
        assertFalse(run.broker().embedded());
        assertEquals("h1:9092", run.broker().bootstrapServers());
        assertNull(run.broker().profile());
    }

    @Test
    void theDryRunPrintsWhatEachWorkerWillDo() throws Exception {
        List<RunSpec> plan = Planner.plan(
                List.of(driver("name: d\ndriverClass: " + SPI_DRIVER + "\n")),
                List.of(workload("name: w\ntopics: 2\nproducerRate: 1000\n")),
                workers(false, "http://a", "http://b"));
        String text = PlanText.describe(plan);
        assertTrue(text.contains("worker      http://a: 2 producer(s), 0 consumer(s), 1000 msg/s"), text);
        assertTrue(
                text.contains("settings    replicationFactor 1\n")
                        || text.contains("settings    replicationFactor 1\r\n"),
                text);
        assertTrue(text.contains("worker      http://b: 0 producer(s), 2 consumer(s)"), text);
    }

    @Test
    void theBrokerVersionAndTransactionVersionComeFromTheFlagElseTheWorkloadAndShowInTheDryRun() throws Exception {
        DriverFile d = driver("name: d\ndriverClass: " + SPI_DRIVER + "\n");
        Workload w = workload("name: w\nbrokerVersion: 3.9.1\n");
        BrokerPlan fromWorkload = Planner.plan(List.of(d), List.of(w), PlanOptions.defaults())
                .get(0)
                .broker();
        assertEquals("3.9.1", fromWorkload.brokerVersion());
        assertNull(fromWorkload.transactionVersion());

        PlanOptions flags = PlanOptions.builder()
                .brokerVersion("4.1.1")
                .transactionVersion(1)
                .build();
        List<RunSpec> plan = Planner.plan(List.of(d), List.of(w), flags);
        assertEquals("4.1.1", plan.get(0).broker().brokerVersion(), "--broker-version beats the workload's");
        assertEquals(1, plan.get(0).broker().transactionVersion());
        assertTrue(
                PlanText.describe(plan).contains("kafka       4.1.1 (KRaft, transaction.version 1)"),
                PlanText.describe(plan));

        String zk = PlanText.describe(
                Planner.plan(List.of(d), List.of(workload("name: w\nbrokerVersion: 2.8.2\n")), PlanOptions.defaults()));
        assertTrue(zk.contains("kafka       2.8.2 (ZooKeeper, no transaction.version: pre-KIP-890 transactions)"), zk);
        assertTrue(PlanText.describe(Planner.plan(List.of(d), List.of(workload("name: w\n")), PlanOptions.defaults()))
                .contains("(KRaft, default, the broker's default transaction.version)"));
    }

    @Test
    void aTransactionVersionOnAReleaseWithoutItIsBlamedOnWhereItWasChosen() throws Exception {
        DriverFile d = driver("name: d\ndriverClass: " + SPI_DRIVER + "\n");
        ConfigException inWorkload = assertThrows(
                ConfigException.class,
                () -> Planner.plan(
                        List.of(d),
                        List.of(workload("name: w\nbrokerVersion: 2.8.2\ntransactionVersion: 2\n")),
                        PlanOptions.defaults()));
        assertEquals("transactionVersion", inWorkload.key());
        assertTrue(
                inWorkload.getMessage().contains("Kafka 2.8.2 has no transaction.version feature"),
                inWorkload.getMessage());
        PlanOptions flag = PlanOptions.builder().transactionVersion(2).build();
        io.ombtx.runner.config.UsageException onFlag = assertThrows(
                io.ombtx.runner.config.UsageException.class,
                () -> Planner.plan(List.of(d), List.of(workload("name: w\nbrokerVersion: 3.9.1\n")), flag));
        assertTrue(
                onFlag.getMessage().startsWith("--transaction-version 2: Kafka 3.9.1 has no transaction.version"),
                onFlag.getMessage());
        // The reader keeps the text; the planner, which knows the broker system, refuses a release it lacks.
        ConfigException badVersion = assertThrows(
                ConfigException.class,
                () -> Planner.plan(
                        List.of(d), List.of(workload("name: w\nbrokerVersion: 2.8\n")), PlanOptions.defaults()));
        assertEquals("brokerVersion", badVersion.key());
        assertThrows(
                ConfigException.class,
                () -> Planner.plan(
                        List.of(d), List.of(workload("name: w\nbrokerVersion: 1.1.0\n")), PlanOptions.defaults()));
        assertThrows(ConfigException.class, () -> workload("name: w\ntransactionVersion: 3\n"));
    }

    @Test
    void faultsAreCheckedAgainstTheBrokersAndTheirReach() throws Exception {
        DriverFile embedded = driver("name: d\ndriverClass: " + SPI_DRIVER + "\n");
        String kill = "name: w\nbrokers: 3\nfaults: [{action: kill, target: %s, at: 1s}]\n";
        RunSpec fine = Planner.plan(List.of(embedded), List.of(workload(kill.formatted("2"))), PlanOptions.defaults())
                .get(0);
        assertNull(fine.faultCommand(), "embedded brokers need no hook");
        ConfigException beyond = assertThrows(
                ConfigException.class,
                () -> Planner.plan(List.of(embedded), List.of(workload(kill.formatted("3"))), PlanOptions.defaults()));
        assertEquals("faults[0].target", beyond.key());
        assertTrue(beyond.getMessage().contains("3 broker(s), indexes 0 to 2"), beyond.getMessage());

        ConfigException only = assertThrows(
                ConfigException.class,
                () -> Planner.plan(
                        List.of(embedded),
                        List.of(workload("name: w\nfaults: [{action: stop, target: 0, at: 1s}]\n")),
                        PlanOptions.defaults()));
        assertEquals("faults[0]", only.key());
        assertTrue(only.getMessage().contains("add restartAfter"), only.getMessage());
        Planner.plan(
                List.of(embedded),
                List.of(workload("name: w\nfaults: [{action: stop, target: 0, at: 1s," + " restartAfter: 2s}]\n")),
                PlanOptions.defaults());

        DriverFile external =
                driver("name: d\ndriverClass: " + SPI_DRIVER + "\ncommonConfig: |\n" + "  bootstrap.servers=h1:9092\n");
        ConfigException noHook = assertThrows(
                ConfigException.class,
                () -> Planner.plan(
                        List.of(external),
                        List.of(workload(kill.formatted("partition-leader"))),
                        PlanOptions.defaults()));
        assertEquals("faults", noHook.key());
        assertTrue(noHook.getMessage().contains("--fault-command"), noHook.getMessage());
        PlanOptions hook =
                PlanOptions.builder().faultCommand("ssh {host} f {action}").build();
        RunSpec reached = Planner.plan(List.of(external), List.of(workload(kill.formatted("partition-leader"))), hook)
                .get(0);
        assertEquals("ssh {host} f {action}", reached.faultCommand());
        assertTrue(
                PlanText.describe(List.of(reached))
                        .contains(
                                "fault       faults[0]: kill partition-leader (partition 0 of the first topic) at 1 s, no restart during"
                                        + " the run (through --fault-command)"),
                PlanText.describe(List.of(reached)));
    }

    @Test
    void clientFaultsNeedADriverThatCanFaultItsClientsButNoBrokerControl() throws Exception {
        String zombie =
                "name: w\npartitionsPerTopic: 3\noperation: {kind: STREAM, transactional: true, prefillMessages: 1000}\n"
                        + "faults: [{action: pause, target: stream-processor, at: 1s, resumeAfter: 2s}]\n";
        ConfigException spiOnly = assertThrows(
                ConfigException.class,
                () -> Planner.plan(
                        List.of(driver("name: d\ndriverClass: " + SPI_DRIVER + "\n")),
                        List.of(workload(zombie)),
                        PlanOptions.defaults()));
        assertEquals("faults[0].target", spiOnly.key());
        assertTrue(spiOnly.getMessage().contains("cannot fault its clients"), spiOnly.getMessage());

        // An external cluster without --fault-command: client faults act through the workers' drivers.
        DriverFile external = driver("name: d\ndriverClass: io.ombtx.runner.testdriver.ClientFaultsOnlyDriver\n"
                + "commonConfig: |\n  bootstrap.servers=h1:9092\n");
        RunSpec planned = Planner.plan(List.of(external), List.of(workload(zombie)), PlanOptions.defaults())
                .get(0);
        assertNull(planned.faultCommand());
        assertTrue(
                PlanText.describe(List.of(planned))
                        .contains(
                                "fault       faults[0]: pause stream-processor 0 at 1 s, resume after 2 s (the client,"
                                        + " through its worker's driver)"),
                PlanText.describe(List.of(planned)));
    }
}

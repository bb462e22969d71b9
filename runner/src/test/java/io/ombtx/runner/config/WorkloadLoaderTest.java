package io.ombtx.runner.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.AwaitAcks;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.YamlFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadLoaderTest {

    private static List<Workload> load(String yaml) {
        return load(yaml, null);
    }

    private static List<Workload> load(String yaml, String profile) {
        return WorkloadLoader.expand("w.yaml", Path.of("."), (ObjectNode) YamlFiles.parse("w.yaml", yaml), profile);
    }

    private static ConfigException error(String yaml) {
        return assertThrows(ConfigException.class, () -> load(yaml));
    }

    @Test
    void readsAnOmbWorkloadWithOmbDefaults() {
        Workload w =
                load("""
                name: omb
                topics: 1
                partitionsPerTopic: 16
                messageSize: 1024
                subscriptionsPerTopic: 1
                producersPerTopic: 1
                consumerPerSubscription: 1
                producerRate: 50000
                testDurationMinutes: 15
                """)
                        .get(0);
        assertEquals(16, w.partitionsPerTopic());
        assertEquals(50_000, w.producerRate());
        assertEquals(Duration.ofMinutes(15), w.testDuration());
        assertEquals(Duration.ofMinutes(1), w.warmupDuration(), "OMB warms up for a minute unless told otherwise");
        assertEquals(LoopMode.OPEN, w.loop());
        assertEquals(OperationKind.PUBLISH, w.operation().kind());
        assertEquals(KeyDistributorType.NO_KEY, w.keyDistributor());
    }

    @Test
    void unknownKeyIsNamedWithASuggestion() {
        ConfigException e = error("name: x\nmessageSize: 10\ntestDurationMinutes: 1\npartitionPerTopic: 2\n");
        assertEquals("partitionPerTopic", e.key());
        assertTrue(e.getMessage().contains("did you mean 'partitionsPerTopic'"), e.getMessage());
        assertTrue(e.getMessage().startsWith("w.yaml: "), e.getMessage());
    }

    @Test
    void unknownNestedKeyIsNamedWithItsPath() {
        ConfigException e = error(
                "name: x\nmessageSize: 10\ntestDurationMinutes: 1\noperation: {kind: WRITE, transactionl: true}\n");
        assertEquals("operation.transactionl", e.key());
        assertTrue(e.getMessage().contains("did you mean 'transactional'"), e.getMessage());
    }

    @Test
    void wrongTypeSaysWhatWasExpected() {
        ConfigException e = error("name: x\nmessageSize: 10\ntestDurationMinutes: 1\ntopics: two\n");
        assertEquals("topics", e.key());
        assertTrue(e.getMessage().contains("expected a whole number, got 'two'"), e.getMessage());
    }

    @Test
    void zeroPartitionsIsImpossible() {
        ConfigException e = error("name: x\nmessageSize: 10\ntestDurationMinutes: 1\npartitionsPerTopic: 0\n");
        assertEquals("partitionsPerTopic", e.key());
        assertTrue(e.getMessage().contains("from 1 to"), e.getMessage());
    }

    @Test
    void payloadFileMustMatchMessageSize(@TempDir Path dir) throws Exception {
        Path payload = Files.write(dir.resolve("payload-100b.data"), new byte[100]);
        ConfigException e = error("name: x\nmessageSize: 1024\ntestDurationMinutes: 1\npayloadFile: " + payload + "\n");
        assertEquals("payloadFile", e.key());
        assertTrue(e.getMessage().contains("is 100 bytes but messageSize is 1024"), e.getMessage());
        Workload ok = load("name: x\nmessageSize: 100\ntestDurationMinutes: 1\npayloadFile: " + payload + "\n")
                .get(0);
        assertEquals(payload, ok.payloadFile());
    }

    @Test
    void aListExpandsIntoOneRunPerValueNamedAfterIt() {
        List<Workload> runs = load(
                """
                name: rps-sweep
                messageSize: 78
                producerRate: [1000, 5000, 10000]
                measureMessages: 100
                """);
        assertEquals(
                List.of("rps-sweep-1000", "rps-sweep-5000", "rps-sweep-10000"),
                runs.stream().map(Workload::name).toList());
        assertEquals(5000, runs.get(1).producerRate());
        assertEquals("rps-sweep", runs.get(1).sweep().sweepName());
        assertEquals("producerRate", runs.get(1).sweep().parameter());
        assertEquals("5000", runs.get(1).sweep().value());
    }

    @Test
    void aListOnAFieldThatCannotBeSweptIsAnError() {
        ConfigException e = error("name: x\nmessageSize: 10\ntestDurationMinutes: 1\nkeyDistributor: [NO_KEY]\n");
        assertEquals("keyDistributor", e.key());
    }

    @Test
    void aProfileOverridesCountsAndMergesBlocks() {
        String yaml =
                """
                name: tx
                messageSize: 10
                loop: closed
                operation: {kind: WRITE, transactional: true, messagesPerOperation: 2, partitionsPerOperation: 1}
                warmupOperations: 1000
                measureOperations: 1000
                profiles:
                  quick: {warmupOperations: 10, measureOperations: 50, operation: {messagesPerOperation: 1}}
                """;
        Workload full = load(yaml).get(0);
        Workload quick = load(yaml, "quick").get(0);
        assertEquals(1000, full.measureOperations());
        assertEquals(50, quick.measureOperations());
        assertEquals(1, quick.operation().messagesPerOperation());
        assertTrue(quick.operation().transactional(), "the profile merges into the operation block");
    }

    @Test
    void aProfileGivenAsAnAliasIsTheAnchoredProfile() {
        String yaml =
                """
                name: tx
                messageSize: 10
                measureOperations: 1000
                profiles:
                  quick: &short {measureOperations: 50}
                  ci: *short
                """;
        assertEquals(50, load(yaml, "ci").get(0).measureOperations());
    }

    @Test
    void profileMistakesAreFoundWhetherChosenOrNotAndNamedWithTheProfile() {
        String base = "name: f\nmessageSize: 10\nmeasureOperations: 10\n";
        ConfigException unchosen = error(base + "profiles: {full: {operation: {kind: WRITE, transactionl: true}}}\n");
        assertEquals("profiles.full.operation.transactionl", unchosen.key());
        ConfigException chosen = assertThrows(
                ConfigException.class, () -> load(base + "profiles: {quick: {partitionsPerTopic: 0}}\n", "quick"));
        assertEquals("profiles.quick.partitionsPerTopic", chosen.key());
        ConfigException baseMistake = error(base + "partitionsPerTopic: 0\nprofiles: {quick: {topics: 2}}\n");
        assertEquals("partitionsPerTopic", baseMistake.key());
    }

    @Test
    void profilesNotGivenAsAMappingAreAnErrorWithOrWithoutAProfileChosen() {
        String base = "name: f\nmessageSize: 10\nmeasureOperations: 10\n";
        for (String profiles : List.of("profiles:\n  - quick\n", "profiles: quick\n")) {
            for (String chosen : java.util.Arrays.asList(null, "quick")) {
                ConfigException e =
                        assertThrows(ConfigException.class, () -> load(base + profiles, chosen), profiles + chosen);
                assertEquals("profiles", e.key(), e.getMessage());
                assertTrue(e.problem().startsWith("expected a mapping of profile name to overrides"), e.getMessage());
            }
        }
    }

    @Test
    void measureMessagesBecomesOperations() {
        Workload w =
                load("""
                name: bulk
                messageSize: 10
                loop: closed
                operation: {kind: WRITE, messagesPerOperation: 100}
                warmupMessages: 1000
                measureMessages: 10000
                """)
                        .get(0);
        assertEquals(10, w.warmupOperations());
        assertEquals(100, w.measureOperations());
        ConfigException e = error(
                "name: b\nmessageSize: 10\nloop: closed\noperation: {kind: WRITE, messagesPerOperation: 3}\nmeasureMessages: 10\n");
        assertEquals("measureMessages", e.key());
    }

    @Test
    void closedLoopWithARateIsContradictory() {
        ConfigException e = error("name: x\nmessageSize: 10\nloop: closed\nproducerRate: 100\nmeasureOperations: 5\n");
        assertEquals("producerRate", e.key());
    }

    @Test
    void aLatencyTargetBoundsOnlyTheSearchForTheMaximumRate() {
        String search = "name: x\nmessageSize: 10\ntestDurationMinutes: 1\nproducerRate: 0\n";
        assertEquals(0, load(search).get(0).load().latencyTargetP99Millis());
        assertEquals(
                25.5,
                load(search + "latencyTarget: {p99Ms: 25.5}\n").get(0).load().latencyTargetP99Millis());
        assertEquals(
                "latencyTarget.p99Ms", error(search + "latencyTarget: {}\n").key());
        assertEquals(
                "latencyTarget.p99Ms",
                error(search + "latencyTarget: {p99Ms: 0}\n").key());
        assertEquals(
                "latencyTarget.p99", error(search + "latencyTarget: {p99: 5}\n").key());
        assertEquals("latencyTarget", error(search + "latencyTarget: 50\n").key());
        String fixed = "name: x\nmessageSize: 10\ntestDurationMinutes: 1\nproducerRate: 100\n";
        ConfigException atARate = error(fixed + "latencyTarget: {p99Ms: 50}\n");
        assertEquals("latencyTarget", atARate.key());
        assertTrue(atARate.problem().contains("producerRate: 0"), atARate.problem());
        assertEquals(
                "latencyTarget",
                error(search + "operation: {kind: STREAM}\nlatencyTarget: {p99Ms: 50}\n")
                        .key());
        // A transactional PUBLISH cut by time alone lasts its commit interval (100 ms by default) at any rate.
        String tx = search + "operation: {kind: PUBLISH, transactional: true";
        ConfigException underTheInterval = error(tx + "}\nlatencyTarget: {p99Ms: 60}\n");
        assertEquals("latencyTarget.p99Ms", underTheInterval.key());
        assertTrue(underTheInterval.problem().contains("commitIntervalMs (100 ms)"), underTheInterval.problem());
        assertTrue(underTheInterval.problem().contains("cannot be 60 ms or less"), underTheInterval.problem());
        assertEquals(
                150, load(tx + "}\nlatencyTarget: {p99Ms: 150}\n").get(0).load().latencyTargetP99Millis());
        assertEquals(
                60,
                load(tx + ", commitIntervalMs: 20}\nlatencyTarget: {p99Ms: 60}\n")
                        .get(0)
                        .load()
                        .latencyTargetP99Millis());
        assertEquals(
                60,
                load(tx + ", messagesPerTransaction: 10}\nlatencyTarget: {p99Ms: 60}\n")
                        .get(0)
                        .load()
                        .latencyTargetP99Millis(),
                "a count bound closes transactions sooner at a high enough rate");
    }

    @Test
    void aRunLengthIsRequiredAndOnlyOneKind() {
        assertEquals("testDurationMinutes", error("name: x\nmessageSize: 10\n").key());
        assertEquals(
                "testDurationSeconds",
                error("name: x\nmessageSize: 10\ntestDurationSeconds: 5\nmeasureOperations: 5\n")
                        .key());
    }

    @Test
    void streamingNeedsEnoughPrefilledInput() {
        ConfigException e = error(
                """
                name: s
                messageSize: 10
                loop: closed
                operation: {kind: STREAM, transactional: true, prefillMessages: 100}
                warmupOperations: 50
                measureOperations: 100
                """);
        assertEquals("operation.prefillMessages", e.key());
        assertTrue(e.getMessage().contains("150 records"), e.getMessage());
    }

    @Test
    void sendOffsetsOnlyExistsInATransaction() {
        ConfigException e =
                error("name: x\nmessageSize: 0\nloop: closed\noperation: {kind: SEND_OFFSETS}\nmeasureOperations: 5\n");
        assertEquals("operation.transactional", e.key());
    }

    private static final String WRITE = "name: x\nmessageSize: 10\nloop: closed\nmeasureOperations: 5\n";

    @Test
    void theOrderOfTheAckWaitIsReadIntoTheOperationSpec() {
        Workload w = load(WRITE + "operation: {kind: WRITE, transactional: true, awaitAcks: before-commit}\n")
                .get(0);
        assertEquals(AwaitAcks.BEFORE_COMMIT, w.operation().awaitAcks());
    }

    @Test
    void aTransactionalOperationWithoutAnOrderGetsTheSeedsOrderAndAPlainOneNone() {
        assertEquals(
                AwaitAcks.AFTER_COMMIT,
                load(WRITE + "operation: {kind: WRITE, transactional: true}\n")
                        .get(0)
                        .operation()
                        .awaitAcks());
        assertEquals(
                null,
                load(WRITE + "operation: {kind: WRITE}\n").get(0).operation().awaitAcks());
    }

    @Test
    void theAbortRatioAndItsSeedAreReadIntoTheOperationSpec() {
        Workload w = load(WRITE
                        + "operation: {kind: STREAM, transactional: true, prefillMessages: 10, abortRatio: 0.3, abortSeed: 7}\n")
                .get(0);
        assertEquals(0.3, w.operation().abortRatio());
        assertEquals(7, w.operation().abortSeed());
        Workload seeded = load(WRITE + "operation: {kind: WRITE, transactional: true, abortRatio: 1}\n")
                .get(0);
        assertEquals(1.0, seeded.operation().abortRatio());
        assertEquals(OperationReader.DEFAULT_ABORT_SEED, seeded.operation().abortSeed(), "a fixed seed by default");
        Workload none =
                load(WRITE + "operation: {kind: WRITE, transactional: true}\n").get(0);
        assertEquals(0.0, none.operation().abortRatio());
        assertEquals(0, none.operation().abortSeed());
    }

    @Test
    void anAbortRatioOutsideZeroToOneOrOnAPlainOperationIsAnError() {
        ConfigException above = error(WRITE + "operation: {kind: WRITE, transactional: true, abortRatio: 1.01}\n");
        assertEquals("operation.abortRatio", above.key());
        assertTrue(above.getMessage().startsWith("w.yaml: "), above.getMessage());
        assertEquals(
                "operation.abortRatio",
                error(WRITE + "operation: {kind: WRITE, transactional: true, abortRatio: -0.5}\n")
                        .key());
        ConfigException plain = error(WRITE + "operation: {kind: STREAM, abortRatio: 0.3}\n");
        assertEquals("operation.abortRatio", plain.key());
        assertTrue(plain.getMessage().contains("only a transaction can be aborted on purpose"), plain.getMessage());
    }

    @Test
    void aTransactionalPublishIsCutIntoTransactionsAsTheWorkloadSaysWithAHundredMillisecondsByDefault() {
        Workload cut = load(WRITE
                        + "operation: {kind: PUBLISH, transactional: true, messagesPerTransaction: 50,"
                        + " commitIntervalMs: 20}\n")
                .get(0);
        assertTrue(cut.operation().cutsTransactions());
        assertEquals(50, cut.operation().messagesPerTransaction());
        assertEquals(20, cut.operation().commitIntervalMs());
        Workload byDefault = load(WRITE + "operation: {kind: PUBLISH, transactional: true}\n")
                .get(0);
        assertEquals(0, byDefault.operation().messagesPerTransaction(), "no message bound unless said");
        assertEquals(
                OperationReader.DEFAULT_COMMIT_INTERVAL_MS,
                byDefault.operation().commitIntervalMs());
        Workload plain = load(WRITE + "operation: {kind: PUBLISH}\n").get(0);
        assertFalse(plain.operation().cutsTransactions());
        assertEquals(0, plain.operation().commitIntervalMs());
    }

    @Test
    void producerChurnTakesATransactionalProducerAndNothingElse() {
        assertEquals(
                3,
                load(WRITE + "operation: {kind: WRITE, transactional: true, transactionsPerProducer: 3}\n")
                        .get(0)
                        .operation()
                        .transactionsPerProducer());
        assertEquals(
                1,
                load(WRITE + "operation: {kind: PUBLISH, transactional: true, transactionsPerProducer: 1}\n")
                        .get(0)
                        .operation()
                        .transactionsPerProducer());
        assertEquals(
                0,
                load(WRITE + "operation: {kind: WRITE, transactional: true}\n")
                        .get(0)
                        .operation()
                        .transactionsPerProducer(),
                "no churn unless said");
        ConfigException plain = error(WRITE + "operation: {kind: WRITE, transactionsPerProducer: 3}\n");
        assertEquals("operation.transactionsPerProducer", plain.key());
        assertTrue(plain.getMessage().contains("set transactional: true"), plain.getMessage());
        ConfigException stream =
                error(WRITE + "operation: {kind: STREAM, transactional: true, transactionsPerProducer: 3}\n");
        assertEquals("operation.transactionsPerProducer", stream.key());
        assertTrue(stream.getMessage().contains("a STREAM's processors keep"), stream.getMessage());
        ConfigException zero =
                error(WRITE + "operation: {kind: WRITE, transactional: true, transactionsPerProducer: 0}\n");
        assertEquals("operation.transactionsPerProducer", zero.key());
    }

    @Test
    void aTransactionCutOnAnythingButATransactionalPublishIsAnError() {
        ConfigException write = error(WRITE + "operation: {kind: WRITE, transactional: true, commitIntervalMs: 50}\n");
        assertEquals("operation.commitIntervalMs", write.key());
        assertTrue(write.getMessage().contains("size it with messagesPerOperation"), write.getMessage());
        ConfigException plain = error(WRITE + "operation: {kind: PUBLISH, messagesPerTransaction: 10}\n");
        assertEquals("operation.messagesPerTransaction", plain.key());
        ConfigException zero =
                error(WRITE + "operation: {kind: PUBLISH, transactional: true, messagesPerTransaction: 0}\n");
        assertEquals("operation.messagesPerTransaction", zero.key());
        assertTrue(zero.getMessage().contains("expected a value"), zero.getMessage());
        ConfigException perOperation =
                error(WRITE + "operation: {kind: PUBLISH, transactional: true, messagesPerOperation: 10}\n");
        assertEquals("operation.messagesPerOperation", perOperation.key());
        assertTrue(perOperation.getMessage().contains("messagesPerTransaction"), perOperation.getMessage());
    }

    @Test
    void anOrderOnANonTransactionalOperationIsAnError() {
        ConfigException e = error(WRITE + "operation: {kind: WRITE, awaitAcks: after-commit}\n");
        assertEquals("operation.awaitAcks", e.key());
        assertTrue(e.getMessage().startsWith("w.yaml: "), e.getMessage());
        assertTrue(e.getMessage().contains("only a transactional operation"), e.getMessage());
    }

    @Test
    void anUnknownOrderIsNamedWithASuggestion() {
        ConfigException e = error(WRITE + "operation: {kind: WRITE, transactional: true, awaitAcks: after-comit}\n");
        assertEquals("operation.awaitAcks", e.key());
        assertTrue(e.getMessage().contains("did you mean 'after-commit'"), e.getMessage());
        assertTrue(e.getMessage().contains("before-send-offsets | before-commit | after-commit"), e.getMessage());
    }

    @Test
    void aNaiveStreamHasNoSendOffsetsToWaitBefore() {
        ConfigException e = error(
                """
                name: x
                messageSize: 10
                loop: closed
                operation: {kind: STREAM, prefillMessages: 10, awaitAcks: before-send-offsets}
                measureOperations: 5
                """);
        assertEquals("operation.awaitAcks", e.key());
        assertTrue(e.getMessage().contains("before-commit"), e.getMessage());
    }

    @Test
    void zeroByteMessagesOnlyForSendOffsets() {
        ConfigException e = error("name: x\nmessageSize: 0\nmeasureOperations: 5\n");
        assertEquals("messageSize", e.key());
        assertEquals(
                1,
                load("name: x\nmessageSize: 0\nloop: closed\n"
                                + "operation: {kind: SEND_OFFSETS, transactional: true}\nmeasureOperations: 5\n")
                        .size());
    }

    @Test
    void notYamlIsReportedWithTheLine() {
        ConfigException e = assertThrows(
                ConfigException.class, () -> YamlFiles.parse("bad.yaml", "name: [unclosed\n  topics: 1\n"));
        assertTrue(e.getMessage().startsWith("bad.yaml: not valid YAML at line"), e.getMessage());
    }

    @Test
    void missingFileIsReportedByName() {
        ConfigException e =
                assertThrows(ConfigException.class, () -> WorkloadLoader.load(Path.of("no/such.yaml"), null));
        assertEquals("no/such.yaml: file not found", e.getMessage());
    }

    @Test
    void prefillingNeedsAProducer() {
        ConfigException e = error("name: s\nmessageSize: 10\nloop: closed\nproducersPerTopic: 0\n"
                + "operation: {kind: STREAM, prefillMessages: 10}\nmeasureOperations: 5\n");
        assertEquals("producersPerTopic", e.key());
    }

    @Test
    void aNumberTooLargeForItsFieldIsAnErrorNotACrash() {
        ConfigException e = error("name: x\nmessageSize: 10\nmeasureOperations: 99999999999999999999999\n");
        assertEquals("measureOperations", e.key());
        assertTrue(e.getMessage().contains("expected a whole number"), e.getMessage());
    }

    @Test
    void aSweepOfMoreThanAThousandRunsIsRefusedBeforeItIsExpanded() {
        String rates = "[" + "1, ".repeat(999) + "1]";
        ConfigException e =
                error("name: x\nmessageSize: [10, 20]\nmeasureOperations: 5\nproducerRate: " + rates + "\n");
        assertEquals("w.yaml", e.file());
        assertEquals("producerRate", e.key());
        assertTrue(e.getMessage().contains("more than 1000 runs"), e.getMessage());
        assertTrue(
                e.getMessage().contains("2 value(s) of messageSize × 1000 value(s) of producerRate"), e.getMessage());
        assertEquals(
                1000,
                load("name: x\nmessageSize: 10\nmeasureOperations: 5\nproducerRate: " + rates + "\n")
                        .size());
    }

    @Test
    void aRandomizedPayloadPoolLargerThanAQuarterOfTheHeapIsRefused() {
        long bound = Runtime.getRuntime().maxMemory() / 4;
        int poolSize = (int) Math.min(1_000_000, bound / (1024 * 1024) + 1);
        ConfigException e = error("name: x\nmessageSize: 1048576\nmeasureOperations: 5\nuseRandomizedPayloads: true\n"
                + "randomizedPayloadPoolSize: " + poolSize + "\n");
        assertEquals("randomizedPayloadPoolSize", e.key());
        assertTrue(
                e.getMessage().contains("a pool of " + poolSize + " payload(s) of messageSize 1048576 bytes"),
                e.getMessage());
        assertTrue(
                e.getMessage()
                        .contains("above the bound of "
                                + String.format(java.util.Locale.ROOT, "%,d MB", bound / (1024 * 1024))),
                e.getMessage());
        // The same pool is not built without useRandomizedPayloads: one payload only.
        assertEquals(
                1,
                load("name: x\nmessageSize: 1048576\nmeasureOperations: 5\nrandomizedPayloadPoolSize: " + poolSize
                                + "\n")
                        .size());
    }

    @Test
    void faultsAreReadWithTheirTimesTargetsAndRecoveries() {
        Workload w =
                load("""
                name: f
                messageSize: 10
                brokers: 3
                partitionsPerTopic: 2
                operation: {kind: WRITE, transactional: true}
                testDurationSeconds: 60
                faults:
                  - action: kill
                    target: partition-leader
                    partition: 1
                    at: 20s
                    restartAfter: 10s
                  - {action: pause, target: 2, at: 1500ms, resumeAfter: 0.5m}
                  - {action: stop, target: transaction-coordinator, at: 45}
                """)
                        .get(0);
        assertEquals(3, w.faults().size());
        Fault kill = w.faults().get(0);
        assertEquals(
                new Fault(
                        0,
                        FaultAction.KILL,
                        FaultTarget.PARTITION_LEADER,
                        null,
                        1,
                        Duration.ofSeconds(20),
                        null,
                        Duration.ofSeconds(10),
                        null),
                kill);
        assertEquals(
                "kill partition-leader (partition 1 of the first topic) at 20 s, restart after 10 s", kill.describe());
        Fault pause = w.faults().get(1);
        assertEquals(FaultTarget.BROKER, pause.target());
        assertEquals(2, pause.brokerIndex());
        assertEquals(Duration.ofMillis(1500), pause.at());
        assertEquals(Duration.ofSeconds(30), pause.recoverAfter());
        assertEquals("pause broker 2 at 1.5 s, resume after 30 s", pause.describe());
        Fault stop = w.faults().get(2);
        assertEquals("faults[2]", stop.key());
        assertEquals(Duration.ofSeconds(45), stop.at());
        assertTrue(!stop.recovers());
        assertEquals("stop transaction-coordinator at 45 s, no restart during the run", stop.describe());
    }

    @Test
    void countBasedFaultsCountMeasuredOperationsAndProfilesReplaceTheList() {
        String yaml =
                """
                name: f
                messageSize: 10
                measureOperations: 100
                faults: [{action: kill, target: 0, afterOperations: 50, restartAfter: 5s}]
                profiles:
                  quick:
                    measureOperations: 10
                    faults: [{action: kill, target: 1, afterOperations: 3, restartAfter: 1s}]
                """;
        assertEquals(50L, load(yaml).get(0).faults().get(0).afterOperations());
        Fault quick = load(yaml, "quick").get(0).faults().get(0);
        assertEquals(3L, quick.afterOperations());
        assertEquals(1, quick.brokerIndex());
    }

    @Test
    void faultMistakesNameTheFaultAndItsKey() {
        String base = "name: f\nmessageSize: 10\nmeasureOperations: 10\n";
        ConfigException typo = error(base + "faults: [{action: kill, target: 0, at: 1s, restartAftr: 1s}]\n");
        assertEquals("faults[0].restartAftr", typo.key());
        assertTrue(typo.getMessage().contains("did you mean 'restartAfter'"), typo.getMessage());
        ConfigException role = error(base + "faults: [{action: kill, target: leader, at: 1s}]\n");
        assertEquals("faults[0].target", role.key());
        ConfigException second =
                error(base + "faults: [{action: kill, target: 0, at: 1s}, {action: kill, target: 0}]\n");
        assertEquals("faults[1].at", second.key());
        ConfigException duration = error(base + "faults: [{action: kill, target: 0, at: 1h}]\n");
        assertTrue(duration.getMessage().contains("20s, 500ms or 2m"), duration.getMessage());
        ConfigException fraction = error(base + "faults: [{action: kill, target: 0, at: 0.5ms}]\n");
        assertTrue(fraction.getMessage().contains("whole milliseconds"), fraction.getMessage());
    }

    private static final String STREAM_RUN =
            """
            name: c
            messageSize: 10
            partitionsPerTopic: 9
            consumerPerSubscription: %d
            testDurationSeconds: 40
            operation: {kind: STREAM, transactional: true, messagesPerOperation: 1, prefillMessages: 1000, verifyExactlyOnce: true}
            faults:
            """;

    @Test
    void clientFaultsNameTheClientByIndexAndBringItBackWithTheSameTransactionalId() {
        Workload w = load(STREAM_RUN.formatted(3)
                        + """
                          - {action: kill, target: stream-processor, index: 2, at: 5s, restartAfter: 2s}
                          - {action: stop, target: stream-processor, at: 10s, restartAfter: 1s}
                          - {action: pause, target: stream_processor, index: 1, at: 15s, resumeAfter: 3s}
                          - {action: remove, target: stream-processor, index: 1, at: 20s}
                          - {action: add, target: stream-processor, at: 25s}
                        """)
                .get(0);
        List<Fault> faults = w.faults();
        assertEquals(
                new Fault(
                        0,
                        FaultAction.KILL,
                        FaultTarget.STREAM_PROCESSOR,
                        null,
                        null,
                        Duration.ofSeconds(5),
                        null,
                        Duration.ofSeconds(2),
                        2),
                faults.get(0));
        assertEquals(
                "kill stream-processor 2 at 5 s, restart after 2 s",
                faults.get(0).describe());
        assertEquals(0, faults.get(1).clientIndex(), "index 0 unless given");
        assertEquals(
                "pause stream-processor 1 at 15 s, resume after 3 s",
                faults.get(2).describe());
        assertEquals("remove stream-processor 1 at 20 s", faults.get(3).describe());
        assertEquals(null, faults.get(4).clientIndex(), "an added processor takes the next index at run time");
        assertEquals("add stream-processor at 25 s", faults.get(4).describe());
        assertTrue(faults.stream().allMatch(f -> f.target().isClient()));

        Workload writes =
                load("""
                        name: p
                        messageSize: 10
                        producersPerTopic: 2
                        subscriptionsPerTopic: 0
                        measureOperations: 100
                        operation: {kind: WRITE, transactional: true, messagesPerOperation: 2}
                        faults: [{action: kill, target: transactional-producer, index: 1, afterOperations: 50}]
                        """)
                        .get(0);
        assertEquals(FaultTarget.TRANSACTIONAL_PRODUCER, writes.faults().get(0).target());
        assertEquals(1, writes.faults().get(0).clientIndex());
    }

    @Test
    void clientFaultMistakesNameTheFaultAndWhatTheRunHas() {
        String one = STREAM_RUN.formatted(1);
        ConfigException beyond =
                error(one + "  - {action: kill, target: stream-processor, index: 1, at: 5s, restartAfter: 1s}\n");
        assertEquals("faults[0].index", beyond.key());
        assertTrue(beyond.getMessage().contains("the run starts 1 stream processor(s)"), beyond.getMessage());
        assertTrue(beyond.getMessage().contains("expected 0 to 0, got 1"), beyond.getMessage());

        ConfigException notStream = error(
                """
                name: p
                messageSize: 10
                measureOperations: 100
                operation: {kind: WRITE, transactional: true}
                faults: [{action: kill, target: stream-processor, afterOperations: 5}]
                """);
        assertEquals("faults[0].target", notStream.key());
        assertTrue(notStream.getMessage().contains("WRITE, which runs no stream processor"), notStream.getMessage());

        ConfigException producerOnStream = error(one + "  - {action: kill, target: transactional-producer, at: 5s}\n");
        assertEquals("faults[0].target", producerOnStream.key());
        assertTrue(producerOnStream.getMessage().contains("write target: stream-processor"));

        ConfigException plain = error(
                """
                name: p
                messageSize: 10
                measureOperations: 100
                operation: {kind: WRITE}
                faults: [{action: stop, target: transactional-producer, afterOperations: 5}]
                """);
        assertEquals("faults[0].target", plain.key());
        assertTrue(plain.getMessage().contains("not transactional"), plain.getMessage());

        ConfigException addAlone = error(one + "  - {action: add, target: stream-processor, at: 5s}\n");
        assertEquals("faults[0].action", addAlone.key());
        assertTrue(addAlone.getMessage().contains("add needs group mode"), addAlone.getMessage());
        assertTrue(addAlone.getMessage().contains("consumerPerSubscription 1"), addAlone.getMessage());

        String group = STREAM_RUN.formatted(3);
        ConfigException addIndex = error(group + "  - {action: add, target: stream-processor, index: 3, at: 5s}\n");
        assertEquals("faults[0].index", addIndex.key());
        ConfigException addBack =
                error(group + "  - {action: remove, target: stream-processor, at: 5s, restartAfter: 1s}\n");
        assertEquals("faults[0].restartAfter", addBack.key());
        ConfigException brokerRemoved = error(group + "  - {action: remove, target: 0, at: 5s}\n");
        assertEquals("faults[0].action", brokerRemoved.key());
        ConfigException brokerIndex =
                error(group + "  - {action: kill, target: 0, index: 1, at: 5s, restartAfter: 1s}\n");
        assertEquals("faults[0].index", brokerIndex.key());
        ConfigException zombieForever = error(group + "  - {action: pause, target: stream-processor, at: 5s}\n");
        assertEquals("faults[0].resumeAfter", zombieForever.key());
        ConfigException restartedZombie =
                error(group + "  - {action: pause, target: stream-processor, at: 5s, restartAfter: 1s}\n");
        assertEquals("faults[0].restartAfter", restartedZombie.key());
        assertTrue(restartedZombie.getMessage().contains("a paused client is resumed"), restartedZombie.getMessage());
    }
}

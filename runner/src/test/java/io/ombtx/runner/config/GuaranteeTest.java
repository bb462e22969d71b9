package io.ombtx.runner.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.YamlFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A workload's {@code conformance}: one of the seven guarantees, refused (exit 2, naming the key) when the run would
 * not make the checks it is judged from; the shipped conformance workloads each name theirs.
 */
class GuaranteeTest {

    private static final String STREAM =
            """
            name: s
            messageSize: 6
            subscriptionsPerTopic: 1
            loop: closed
            warmupOperations: 1
            measureOperations: 10
            operation:
              kind: STREAM
              transactional: true
              prefillMessages: 20
              verifyExactlyOnce: true
              liveCheck: true
            """;

    private static Workload load(String yaml) {
        return WorkloadLoader.expand("w.yaml", Path.of("."), (ObjectNode) YamlFiles.parse("w.yaml", yaml), null)
                .get(0);
    }

    private static ConfigException error(String yaml) {
        return assertThrows(ConfigException.class, () -> load(yaml));
    }

    @Test
    void aWorkloadWithoutOneJudgesNone() {
        assertNull(load(STREAM).guarantee());
    }

    @Test
    void aGuaranteeIsReadByItsId() {
        assertEquals(
                Guarantee.PARTITION_ORDER,
                load(STREAM + "conformance: partition-order\n").guarantee());
        assertEquals(
                Guarantee.OFFSETS_ATOMIC,
                load(STREAM + "conformance: offsets-atomic\n").guarantee());
    }

    @Test
    void anUnknownOneIsNamedWithTheSeven() {
        ConfigException e = error(STREAM + "conformance: exactly-once\n");
        assertEquals("conformance", e.key());
        assertTrue(e.getMessage().startsWith("w.yaml: "), e.getMessage());
        assertTrue(
                e.getMessage()
                        .contains("aborted-invisible, offsets-atomic, no-duplicates-after-kill,"
                                + " zombie-fenced, open-transaction-holds-lso, timeout-aborts, partition-order"),
                e.getMessage());
    }

    @Test
    void aGuaranteeIsNeverJudgedFromACheckTheRunDoesNotMake() {
        ConfigException noAborts = error(STREAM + "conformance: aborted-invisible\n");
        assertEquals("conformance", noAborts.key());
        assertTrue(noAborts.getMessage().contains("operation.abortRatio > 0"), noAborts.getMessage());

        ConfigException noKill = error(STREAM + "conformance: no-duplicates-after-kill\n");
        assertTrue(noKill.getMessage().contains("a client kill"), noKill.getMessage());

        ConfigException noZombie = error(STREAM + "conformance: zombie-fenced\n");
        assertTrue(noZombie.getMessage().contains("a zombie"), noZombie.getMessage());

        ConfigException noLive = error(STREAM.replace("  liveCheck: true\n", "") + "conformance: partition-order\n");
        assertTrue(noLive.getMessage().contains("verifyExactlyOnce and liveCheck"), noLive.getMessage());

        String plainWrites =
                """
                name: w
                messageSize: 6
                loop: closed
                warmupOperations: 1
                measureOperations: 10
                operation: {kind: WRITE}
                conformance: timeout-aborts
                """;
        ConfigException notTransactional = error(plainWrites);
        assertTrue(notTransactional.getMessage().contains("transactional operation"), notTransactional.getMessage());
    }

    @Test
    void theProbedOnesNeedOnlyATransactionalLoad() {
        String writes =
                """
                name: w
                messageSize: 6
                loop: closed
                warmupOperations: 1
                measureOperations: 10
                operation: {kind: WRITE, transactional: true}
                """;
        assertEquals(
                Guarantee.TIMEOUT_ABORTS,
                load(writes + "conformance: timeout-aborts\n").guarantee());
        assertTrue(Guarantee.TIMEOUT_ABORTS.probe() && Guarantee.OPEN_TRANSACTION_HOLDS_LSO.probe());
    }

    @Test
    void eachShippedConformanceWorkloadJudgesTheGuaranteeItIsNamedAfter() {
        for (Guarantee g : Guarantee.values()) {
            Path file = Path.of("..", "workloads", "conformance", g.id() + ".yaml");
            for (String profile : new String[] {null, "quick"}) {
                Workload w = WorkloadLoader.read(file, profile).runs().get(0);
                assertEquals(g, w.guarantee(), file + " " + profile);
                assertTrue(!w.brokersGiven() || w.brokers() == 1, file + ": one broker, for Tansu too");
            }
        }
    }
}

package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.runner.cluster.AccessNeed;
import io.ombtx.runner.cluster.AccessUse;
import io.ombtx.runner.config.DriverFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessListTest {

    private static final String BENCH = "User:omb-tx-bench";

    @TempDir
    Path dir;

    private DriverFile driver(String transactions) throws Exception {
        return DriverFile.load(Files.writeString(
                dir.resolve("d.yaml"),
                "name: k\ndriverClass: io.ombtx.driver.kafka.KafkaTxBenchmarkDriver\n" + transactions));
    }

    private static List<String> lines(List<AccessNeed> needs) {
        return needs.stream().map(n -> AccessList.line(n, "b:9093")).toList();
    }

    @Test
    void aTransactionalStreamNeedsItsTopicsItsGroupsAndItsTransactionalIds() throws Exception {
        List<AccessNeed> needs = AccessList.needs(
                driver(""), new AccessUse(OperationKind.STREAM, true, true, true, true, "4.1.1"), BENCH);
        assertEquals(
                List.of(
                        "kafka-acls.sh --bootstrap-server b:9093 --command-config admin.properties --add"
                                + " --allow-principal User:omb-tx-bench --operation Create --operation Describe"
                                + " --operation Write --operation Read --topic omb-tx- --resource-pattern-type prefixed"
                                + "   # the run's topics and the stream's output topics",
                        "kafka-acls.sh --bootstrap-server b:9093 --command-config admin.properties --add"
                                + " --allow-principal User:omb-tx-bench --operation Read --group sub-"
                                + " --resource-pattern-type prefixed   # the subscriptions' consumer groups (the stream"
                                + " processors' offsets)",
                        "kafka-acls.sh --bootstrap-server b:9093 --command-config admin.properties --add"
                                + " --allow-principal User:omb-tx-bench --operation Write --operation Describe"
                                + " --transactional-id omb-tx- --resource-pattern-type prefixed   # the producers'"
                                + " transactional ids"),
                lines(needs));
    }

    @Test
    void aPlainPublishWithoutConsumersNeedsNoGroupAndNoTransactionalId() throws Exception {
        List<AccessNeed> needs = AccessList.needs(
                driver(""), new AccessUse(OperationKind.PUBLISH, false, false, true, false, null), BENCH);
        assertEquals(1, needs.size(), needs.toString());
        assertEquals("CREATE, DESCRIBE, WRITE on TOPIC omb-tx-*", needs.get(0).describe());
    }

    @Test
    void aTransactionalWriteWithSendOffsetsNeedsTheOffsetsGroupOfItsOwnTransactionalIdPrefix() throws Exception {
        List<AccessNeed> needs = AccessList.needs(
                driver("transactions:\n  transactionalIdPrefix: bench\n"),
                new AccessUse(OperationKind.WRITE, true, true, true, false, null),
                BENCH);
        assertEquals(
                List.of(
                        "CREATE, DESCRIBE, WRITE on TOPIC omb-tx-*",
                        "WRITE, DESCRIBE on TRANSACTIONAL_ID bench-*",
                        "READ on GROUP bench-*"),
                needs.stream().map(AccessNeed::describe).toList());
    }

    @Test
    void aProducerOnABrokerBefore28NeedsTheClustersIdempotentWrite() throws Exception {
        List<AccessNeed> needs = AccessList.needs(
                driver(""), new AccessUse(OperationKind.PUBLISH, false, false, true, false, "2.7.2"), BENCH);
        assertEquals("IDEMPOTENT_WRITE on CLUSTER kafka-cluster", needs.get(1).describe());
        assertTrue(AccessList.line(needs.get(1), "b:9093").contains("--operation IdempotentWrite --cluster   #"));
    }

    @Test
    void anAuthorizationErrorBecomesOneSentenceNamingResourceAndOperation() throws Exception {
        List<AccessNeed> needs =
                AccessList.needs(driver(""), new AccessUse(OperationKind.STREAM, true, true, true, true, null), BENCH);
        assertEquals(
                Optional.of("User:omb-tx-bench may not WRITE/DESCRIBE TransactionalId omb-tx-*: the cluster refused it"
                        + " (TransactionalIdAuthorizationException) before the load; grant WRITE, DESCRIBE on"
                        + " TRANSACTIONAL_ID omb-tx-* to User:omb-tx-bench (the dry run prints the kafka-acls.sh"
                        + " line)"),
                AccessList.refusal(
                        new RuntimeException(
                                "set-up",
                                new TransactionalIdAuthorizationException("Transactional Id authorization failed.")),
                        needs));
        assertTrue(AccessList.refusal(new TopicAuthorizationException(java.util.Set.of("omb-tx-abc-0")), needs)
                .orElseThrow()
                .startsWith("User:omb-tx-bench may not CREATE/DESCRIBE/WRITE/READ Topic omb-tx-abc-0:"));
        assertTrue(AccessList.refusal(new GroupAuthorizationException("no", "sub-000-abc"), needs)
                .orElseThrow()
                .startsWith("User:omb-tx-bench may not READ Group sub-000-abc:"));
        assertEquals(Optional.empty(), AccessList.refusal(new IllegalStateException("other"), needs));
    }
}

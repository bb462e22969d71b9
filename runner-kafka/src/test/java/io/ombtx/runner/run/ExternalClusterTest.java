package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.cluster.BrokerPlan;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.PlanOptions;
import io.ombtx.runner.plan.Planner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An external cluster smaller than planned is blamed on the setting that asks for more brokers than it has. */
class ExternalClusterTest {

    @TempDir
    Path dir;

    private BrokerPlan plan(String driverExtra, String workloadExtra, Integer brokersFlag) throws Exception {
        Path driver = Files.writeString(
                dir.resolve("driver.yaml"),
                "name: d\ndriverClass: "
                        + "io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n" + driverExtra
                        + "commonConfig: |\n  bootstrap.servers=h1:9092\n");
        Path workload = Files.writeString(
                dir.resolve("w.yaml"), "name: w\nmessageSize: 10\nmeasureOperations: 5\n" + workloadExtra);
        return Planner.plan(
                        List.of(DriverFile.load(driver)),
                        WorkloadLoader.load(workload, null),
                        PlanOptions.builder().brokers(brokersFlag).build())
                .get(0)
                .broker();
    }

    private static void assertBlames(ConfigException e, String file, String key) {
        assertEquals(
                file, e.file() == null ? null : Path.of(e.file()).getFileName().toString(), e.getMessage());
        assertEquals(key, e.key(), e.getMessage());
    }

    @Test
    void theDriversReplicationFactorIsBlamedWhenItNeedsMore() throws Exception {
        ConfigException e = ClusterCheck.tooSmall(plan("replicationFactor: 3\n", "", null), 1);
        assertBlames(e, "driver.yaml", "replicationFactor");
        assertEquals(
                dir.resolve("driver.yaml") + ": key 'replicationFactor': replication factor 3 needs 3 broker(s)"
                        + " but the cluster at h1:9092 has 1 broker(s)",
                e.getMessage());
    }

    @Test
    void theOverridesReplicationFactorIsBlamedWhenItSetIt() throws Exception {
        ConfigException e =
                ClusterCheck.tooSmall(plan("", "brokers: 3\ndriverOverrides: {replicationFactor: 3}\n", null), 2);
        assertBlames(e, "w.yaml", "driverOverrides.replicationFactor");
    }

    @Test
    void theWorkloadsBrokersKeyIsBlamedOnlyWhenItAsksForMore() throws Exception {
        ConfigException e = ClusterCheck.tooSmall(plan("replicationFactor: 2\n", "brokers: 4\n", null), 3);
        assertBlames(e, "w.yaml", "brokers");
        e = ClusterCheck.tooSmall(plan("replicationFactor: 2\n", "", 4), 3);
        assertEquals("--brokers 4: the cluster at h1:9092 has 3 broker(s)", e.getMessage());
    }
}

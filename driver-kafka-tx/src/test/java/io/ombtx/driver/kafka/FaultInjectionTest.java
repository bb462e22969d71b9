package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workload's fault end to end: tx-streaming on three embedded brokers (the tuned driver: replication factor 3, min
 * ISR 2), the source partition's leader killed three seconds into the measurement and restarted four seconds later.
 * The result records the fault (which broker, when killed, restarted and serving again, on the periods' time scale),
 * carries the recovery counts and the per-period maximum, and the exactly-once check passes.
 */
@Tag("integration")
class FaultInjectionTest {

    @TempDir
    Path dir;

    @Test
    void aKilledAndRestartedLeaderIsRecordedAndStreamingStaysExactlyOnce() throws Exception {
        Path home = io.ombtx.runner.OmbTxHome.locate();
        Path workload = dir.resolve("leader-kill.yaml");
        Files.writeString(
                workload,
                """
                name: leader-kill
                topics: 1
                partitionsPerTopic: 1
                messageSize: 6
                producersPerTopic: 1
                subscriptionsPerTopic: 1
                consumerPerSubscription: 1
                loop: open
                producerRate: 20
                brokers: 3
                reportingIntervalSeconds: 1
                operation: {kind: STREAM, transactional: true, messagesPerOperation: 1, verifyExactlyOnce: true}
                warmupDurationSeconds: 2
                testDurationSeconds: 20
                faults:
                  - action: kill
                    target: partition-leader
                    at: 3s
                    restartAfter: 4s
                """);
        Path result = dir.resolve("result.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(
                new String[] {
                    "-d",
                    home.resolve("driver-kafka-tx/kafka-tx-tuned.yaml").toString(),
                    "-o",
                    result.toString(),
                    workload.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        RunResult r = ResultReader.read(result);
        assertEquals(RunResult.Status.COMPLETE, r.status(), log);
        assertEquals(3, r.broker().brokers());

        List<RunResult.FaultEvent> faults = r.faults();
        assertEquals(1, faults.size(), log);
        RunResult.FaultEvent kill = faults.get(0);
        assertNull(kill.error(), log);
        assertEquals(RunResult.FaultEvent.Action.KILL, kill.action());
        assertEquals(RunResult.FaultEvent.Target.PARTITION_LEADER, kill.target());
        assertEquals(RunResult.FaultEvent.Recovery.RESTART, kill.recovery());
        assertNotNull(kill.brokerId(), log);
        assertTrue(kill.resolvedVia().startsWith("leader of "), kill.resolvedVia());
        assertTrue(
                kill.injectedAtSeconds() >= 3.0 && kill.injectedAtSeconds() < 20,
                "injected at " + kill.injectedAtSeconds());
        // In whole milliseconds, as both are rounded: added as doubles, 3.028 + 4.0 is 7.0280000000000005, which a
        // restart at 7.028 (4.000 s later, in the same millisecond) would fail.
        assertTrue(
                millis(kill.recoveredAtSeconds()) >= millis(kill.injectedAtSeconds()) + 4_000,
                "restarted at " + kill.recoveredAtSeconds() + ": " + kill + "\n" + log);
        assertTrue(
                kill.rejoinedAtSeconds() >= kill.recoveredAtSeconds(), "serving again at " + kill.rejoinedAtSeconds());
        assertTrue(
                kill.injectedEpochMillis() >= r.startTime().toEpochMilli()
                        && kill.injectedEpochMillis() <= r.endTime().toEpochMilli() + 1000,
                "epoch time within the run");
        assertTrue(log.contains("Fault faults[0]: killed broker " + kill.brokerId()), log);

        assertTrue(r.exactlyOnce().passed(), r.exactlyOnce().toString());
        assertTrue(r.exactlyOnce().checked() > 0, r.exactlyOnce().toString());
        assertNotNull(r.counts().clientRetries(), "recovery counts are written");
        assertEquals(0, r.counts().failed());
        RunResult.PeriodSeries periods = r.periods();
        assertEquals(
                periods.elapsedSeconds().size(),
                periods.operationLatencyMaxMillis().size());
        assertFalse(periods.elapsedSeconds().isEmpty());
    }

    /**
     * The shipped fault workloads plan as documented with the tuned driver, in both profiles: 3 embedded brokers, one
     * fault that comes back within the measurement, the quick profile under a minute of measurement.
     */
    @Test
    void theShippedFaultWorkloadsPlanOnThreeEmbeddedBrokers() throws Exception {
        Path home = io.ombtx.runner.OmbTxHome.locate();
        List<Path> files;
        try (var list = Files.list(home.resolve("workloads/faults"))) {
            files = list.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertEquals(
                List.of(
                        "tx-streaming-coordinator-kill.yaml",
                        "tx-streaming-leader-kill.yaml",
                        "tx-writes-coordinator-kill.yaml",
                        "tx-writes-leader-kill.yaml"),
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
                assertTrue(plan.contains("replicationFactor 3"), plan);
                assertTrue(plan.contains("fault       faults[0]: kill "), plan);
                assertTrue(plan.contains(", restart after "), plan);
                assertTrue(plan.contains("report every 1 s"), plan);
                if (profile.equals("quick")) {
                    assertTrue(plan.contains("measure 40 s"), plan);
                }
                String header = Files.readString(file);
                assertTrue(
                        header.startsWith("# " + file.getFileName().toString().replace(".yaml", "") + " — "),
                        file.toString());
                assertTrue(header.contains("What to expect"), file.toString());
            }
        }
    }

    /** A time in seconds, rounded to the millisecond as the result file holds it, in whole milliseconds. */
    private static long millis(double seconds) {
        return Math.round(seconds * 1000);
    }
}

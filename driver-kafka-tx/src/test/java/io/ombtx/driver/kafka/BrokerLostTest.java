package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The only broker dies mid-measurement, not through a fault the workload declared (kill -9 of the embedded broker's
 * process, from outside): the run notices at once, ends with a partial result naming the broker and the time of its
 * death, and bin/benchmark exits 1 — within seconds, not after the stall time-out and the clients' close time-outs
 * (once: {@code complete}, exit 0, after 177 s).
 */
@Tag("integration")
class BrokerLostTest {

    /** Generous for a busy 2-core machine; the run itself takes about 5 s after the kill. */
    private static final long BOUND_AFTER_KILL_SECONDS = 60;

    @TempDir
    Path dir;

    /** Counts down once the console has printed {@code line}. */
    private static final class Watched extends OutputStream {
        private final ByteArrayOutputStream all = new ByteArrayOutputStream();
        private final String line;
        final CountDownLatch seen = new CountDownLatch(1);

        Watched(String line) {
            this.line = line;
        }

        @Override
        public synchronized void write(int b) {
            all.write(b);
            if (b == '\n' && all.toString(StandardCharsets.UTF_8).contains(line)) {
                seen.countDown();
            }
        }

        @Override
        public synchronized String toString() {
            return all.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void theOnlyBrokerKilledMidRunEndsTheRunAtOnceWithAPartialResultNamingIt() throws Exception {
        Path home = io.ombtx.runner.OmbTxHome.locate();
        Path workload = Files.writeString(
                dir.resolve("tx-writes.yaml"),
                """
                name: tx-writes
                topics: 1
                partitionsPerTopic: 1
                messageSize: 100
                producersPerTopic: 1
                subscriptionsPerTopic: 0
                loop: closed
                operation: {kind: WRITE, transactional: true, messagesPerOperation: 1}
                reportingIntervalSeconds: 1
                warmupDurationSeconds: 1
                testDurationSeconds: 120
                """);
        Path result = dir.resolve("result.json");
        Watched out = new Watched("Measure Pub rate");
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> Main.run(
                new String[] {
                    "-d",
                    home.resolve("driver-kafka-tx/kafka-tx.yaml").toString(),
                    "-o",
                    result.toString(),
                    workload.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err));
        assertTrue(out.seen.await(180, TimeUnit.SECONDS), "a measured period was reported:\n" + out);

        List<ProcessHandle> brokers = ProcessHandle.current()
                .descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("ChildKafkaMain"))
                .toList();
        assertEquals(1, brokers.size(), "one embedded broker: " + brokers);
        ProcessHandle broker = brokers.get(0);
        long killedNanos = System.nanoTime();
        assertTrue(broker.destroyForcibly(), "SIGKILL sent");

        int code = run.get(BOUND_AFTER_KILL_SECONDS, TimeUnit.SECONDS);
        double secondsAfterKill = (System.nanoTime() - killedNanos) / 1e9;
        String log = out.toString();
        assertEquals(Main.FAILED, code, log);
        assertTrue(secondsAfterKill < BOUND_AFTER_KILL_SECONDS, secondsAfterKill + " s after the kill");

        RunResult r = ResultReader.read(result);
        assertEquals(RunResult.Status.PARTIAL, r.status(), log);
        String reason = r.partialReason();
        assertNotNull(reason, log);
        assertTrue(
                reason.startsWith("embedded broker 1 (pid " + broker.pid() + ") exited with code 137 (SIGKILL) at "),
                reason);
        assertTrue(reason.contains("not a fault the workload declared"), reason);
        // The time of death is the kill's, not the end of the run's waiting.
        java.time.Instant died = java.time.Instant.parse(
                reason.substring(reason.indexOf(" at ") + 4, reason.indexOf(',', reason.indexOf(" at "))));
        assertTrue(
                !died.isBefore(r.startTime()) && !died.isAfter(r.endTime()),
                "died at " + died + ", measured " + r.startTime() + " to " + r.endTime());
        assertTrue(
                r.summary().durationSeconds() < 110,
                "the measurement ended with the broker, not after its 120 s: "
                        + r.summary().durationSeconds());
        assertTrue(log.contains("Run ended early (embedded broker 1 (pid " + broker.pid()), log);
    }
}

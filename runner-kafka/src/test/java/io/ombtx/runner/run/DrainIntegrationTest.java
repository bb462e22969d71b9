package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.junit.BootstrapServers;
import io.ombtx.broker.junit.EmbeddedKafka;
import io.ombtx.runner.Main;
import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.ResultSchema;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.stats.Histograms;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A count-based run ends once its consumers have received what was sent, not when the producers are done: whole
 * runs on an embedded broker (one for both, started once) with a consumer slower than the producer, and with one that
 * hangs.
 */
@EmbeddedKafka
class DrainIntegrationTest {

    @TempDir
    Path dir;

    private String log;

    private RunResult run(String bootstrap, String driverKeys, String workloadKeys) throws Exception {
        Path driver = Files.writeString(
                dir.resolve("driver.yaml"),
                "name: slow-consumer\n"
                        + "driverClass: io.ombtx.runner.testdriver.SlowConsumerKafkaDriver\n"
                        + "commonConfig: |\n  bootstrap.servers=" + bootstrap + "\n" + driverKeys);
        Path workload = Files.writeString(
                dir.resolve("drain.yaml"),
                """
                name: drain
                messageSize: 100
                subscriptionsPerTopic: 1
                loop: open
                producerRate: 10000
                """
                        + workloadKeys);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path result = dir.resolve("drain.json");
        int code = Main.run(
                new String[] {
                    "-d", driver.toString(), "-o", result.toString(), "--report-interval", "1", workload.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        log = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, log);
        ResultSchema.assertValid(result);
        return ResultReader.read(result);
    }

    @Test
    void aConsumerSlowerThanTheProducerReceivesEveryMessageBeforeTheRunEnds(@BootstrapServers String bootstrap)
            throws Exception {
        // The producer is done in ~0.2 s; at 1 ms a message the consumer needs over 2 s for what it was sent.
        RunResult r = run(bootstrap, "consumerDelayMicros: 1000\n", "warmupMessages: 200\nmeasureMessages: 2000\n");
        assertEquals(RunResult.Status.COMPLETE, r.status(), log);
        assertTrue(log.contains("Draining: "), log);
        assertEquals(2000, r.counts().messagesSent());
        assertEquals(r.counts().messagesSent(), r.counts().messagesReceived(), "every measured message received");
        assertEquals(
                r.counts().messagesReceived(),
                Histograms.decode(r.histograms().get("endToEndLatencyMicros")).getTotalCount(),
                "every received message has its end-to-end latency");
        RunResult.Drain drain = r.drain();
        assertTrue(drain.completed(), drain.toString());
        assertEquals(0, drain.notReceived());
        assertTrue(drain.inFlight() > 0 && drain.inFlight() <= 2200, drain.toString());
        assertTrue(drain.seconds() > 0, drain.toString());
    }

    @Test
    void aConsumerThatHangsEndsTheDrainAfterTheStallTimeoutWithTheShortfallRecorded(@BootstrapServers String bootstrap)
            throws Exception {
        // 100 warm-up and 1,000 measured messages; the consumer hangs on the 501st it is given, the first having been
        // the runner's probe (sent before the load, to see that the consumer is ready): 499 of the load get through.
        long start = System.nanoTime();
        RunResult r = run(
                bootstrap,
                "consumerHangsAfter: 500\n",
                "warmupMessages: 100\nmeasureMessages: 1000\nstallTimeoutSeconds: 2\n");
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(RunResult.Status.COMPLETE, r.status(), "the measured operations all completed: " + log);
        assertEquals(1000, r.counts().messagesSent());
        assertEquals(399, r.counts().messagesReceived(), "499 of the load received, 100 of them warm-up");
        assertEquals(
                399,
                Histograms.decode(r.histograms().get("endToEndLatencyMicros")).getTotalCount());
        RunResult.Drain drain = r.drain();
        assertFalse(drain.completed(), drain.toString());
        assertEquals(601, drain.notReceived(), "1,100 sent, 499 received: " + drain);
        assertEquals(2, drain.limitSeconds());
        assertTrue(log.contains("WARNING: the consumers did not receive 601 of the messages sent"), log);
        assertTrue(
                log.contains(
                        "WARNING: 601 message(s) sent were never received (the drain gave up after 2 s without progress)"),
                log);
        // Bounded: a short run and the 2 s stall timeout, not the five minutes the consumer would hang for.
        assertTrue(seconds < 60, "took " + seconds + " s");
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.junit.EmbeddedKafkaExtension;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * close() with a transaction the broker cannot finish: the broker process is stopped (SIGSTOP), so the last commit
 * hangs. close must still end within closeTimeoutMs (plus the forced close) and fail the sends it could not commit.
 * A broker of its own, since it is frozen.
 */
@Tag("integration")
class GroupCommitCloseBoundTest {

    @RegisterExtension
    static final EmbeddedKafkaExtension kafka = new EmbeddedKafkaExtension();

    @TempDir
    Path dir;

    private static void signal(String signal) throws Exception {
        for (long pid : kafka.cluster().pids()) {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .inheritIO()
                    .start();
            assertEquals(0, kill.waitFor(), "kill -" + signal + " " + pid);
        }
    }

    @Test
    void closeEndsWithinItsBoundWhenTheBrokerCannotCommitAndFailsTheUncommittedSends() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        Path yaml = TestDrivers.yaml(
                dir,
                kafka.bootstrapServers(),
                "transactions:\n  enabled: true\n  commitIntervalMs: 600000\n  closeTimeoutMs: 2000\n");
        try (BenchmarkDriver driver = TestDrivers.driver(yaml, stats)) {
            String topic = TestDrivers.topic("frozen");
            driver.createTopic(topic, 1).get(60, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer(topic).get(60, TimeUnit.SECONDS);
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            signal("STOP");
            long closeMillis;
            try {
                for (int i = 0; i < 20; i++) {
                    sends.add(producer.sendAsync(Optional.empty(), new byte[100]));
                }
                long start = System.nanoTime();
                producer.close();
                closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            } finally {
                signal("CONT");
            }
            // 2 s of closeTimeoutMs, then the forced close answers at once (5 s is its own last-resort bound). An
            // unbounded close would wait for kafka-clients' max.block.ms, 60 s: half of it tells the two apart on
            // any machine.
            assertTrue(closeMillis >= 2000 && closeMillis < 30_000, "close took " + closeMillis + " ms");
            assertTrue(
                    sends.stream().allMatch(CompletableFuture::isCompletedExceptionally),
                    "no uncommitted send is reported as a success");
            assertEquals(0, stats.counter("tx/committed"));
            assertEquals(1, stats.counter("tx/failed"));
            assertEquals(
                    0,
                    TestDrivers.readCommitted(kafka.bootstrapServers(), topic, 0)
                            .size());
        }
    }
}

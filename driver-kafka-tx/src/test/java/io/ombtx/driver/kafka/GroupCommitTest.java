package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.broker.junit.EmbeddedKafkaExtension;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stock OMB's transactional mode (group commit), driven only through the OMB SPI as stock OMB calls it: initialize,
 * createTopic, createProducer, sendAsync from OMB's producer threads, close. Against one real embedded broker.
 */
@Tag("integration")
class GroupCommitTest {

    private static final long WAIT_SECONDS = 60;

    @RegisterExtension
    static final EmbeddedKafkaExtension kafka = new EmbeddedKafkaExtension();

    @TempDir
    Path dir;

    private BenchmarkDriver driver(String transactionsBlock, CountingStatsLogger stats) throws Exception {
        return TestDrivers.driver(TestDrivers.yaml(dir, kafka.bootstrapServers(), transactionsBlock), stats);
    }

    private static BenchmarkProducer producerFor(BenchmarkDriver driver, String topic) throws Exception {
        driver.createTopic(topic, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
        return driver.createProducer(topic).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static long sum(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sum();
    }

    /** Sends {@code perThread} messages from each of two threads, each thread at {@code ratePerThread} a second. */
    private static List<CompletableFuture<Void>> sendFromTwoThreads(
            BenchmarkProducer producer,
            int perThread,
            int ratePerThread,
            CountingStatsLogger stats,
            AtomicInteger completedAheadOfCommit)
            throws Exception {
        ConcurrentLinkedQueue<CompletableFuture<Void>> sends = new ConcurrentLinkedQueue<>();
        AtomicInteger completed = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            String name = "t" + t;
            Thread thread = new Thread(
                    () -> {
                        long intervalNanos = ratePerThread == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) / ratePerThread;
                        long next = System.nanoTime();
                        for (int i = 0; i < perThread; i++) {
                            if (intervalNanos > 0) {
                                LockSupport.parkNanos(next - System.nanoTime());
                                next += intervalNanos;
                            }
                            CompletableFuture<Void> send = producer.sendAsync(Optional.empty(), bytes(name + "-" + i));
                            // Runs on the thread that completes the future, i.e. right after the commit was reported: a
                            // send may never complete before the transaction holding it counted as committed.
                            send.thenRun(() -> {
                                if (completed.incrementAndGet() > sum(stats.values("tx/messagesPerTransaction"))) {
                                    completedAheadOfCommit.incrementAndGet();
                                }
                            });
                            sends.add(send);
                        }
                    },
                    "omb-producer-" + t);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return new ArrayList<>(sends);
    }

    private static void assertExactlyOnce(String topic, int expected) {
        List<ConsumerRecord<String, byte[]>> records =
                TestDrivers.readCommitted(kafka.bootstrapServers(), topic, expected);
        Set<String> distinct = new HashSet<>();
        records.forEach(r -> distinct.add(new String(r.value(), StandardCharsets.UTF_8)));
        assertEquals(expected, records.size(), "read_committed sees every message once");
        assertEquals(expected, distinct.size(), "and no duplicates");
    }

    @Test
    void sendsFromTwoThreadsAtASteadyRateAllCommitOnceAndCompleteOnlyAfterTheirCommit() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        try (BenchmarkDriver driver = driver("transactions:\n  enabled: true\n  commitIntervalMs: 50\n", stats)) {
            String topic = TestDrivers.topic("steady");
            BenchmarkProducer producer = producerFor(driver, topic);
            AtomicInteger aheadOfCommit = new AtomicInteger();

            List<CompletableFuture<Void>> sends = sendFromTwoThreads(producer, 1000, 500, stats, aheadOfCommit);
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
            producer.close();

            assertEquals(0, aheadOfCommit.get(), "no future completed before its transaction committed");
            assertExactlyOnce(topic, 2000);
            List<Long> perTransaction = stats.values("tx/messagesPerTransaction");
            assertEquals(2000, sum(perTransaction));
            assertEquals(perTransaction.size(), stats.counter("tx/committed"));
            // 2 s of sends, a transaction every 50 ms plus its commit: far fewer transactions than messages.
            assertTrue(perTransaction.size() < 200, "transactions: " + perTransaction.size());
            assertEquals(0, stats.counter("tx/aborted") + stats.counter("tx/failed"));
        }
    }

    @Test
    void sendsThatArriveWhileACommitIsInFlightJoinTheNextTransaction() throws Exception {
        // The shortest interval: every transaction commits as soon as it can, so only the sends queued behind a
        // commit make transactions of more than one message.
        CountingStatsLogger stats = new CountingStatsLogger();
        try (BenchmarkDriver driver = driver("transactions:\n  enabled: true\n  commitIntervalMs: 1\n", stats)) {
            String topic = TestDrivers.topic("burst");
            BenchmarkProducer producer = producerFor(driver, topic);

            List<CompletableFuture<Void>> sends = sendFromTwoThreads(producer, 1000, 0, stats, new AtomicInteger());
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
            producer.close();

            assertExactlyOnce(topic, 2000);
            List<Long> perTransaction = stats.values("tx/messagesPerTransaction");
            assertEquals(2000, sum(perTransaction));
            assertTrue(perTransaction.size() < 1000, "transactions: " + perTransaction.size());
            assertTrue(perTransaction.stream().anyMatch(n -> n > 1), perTransaction.toString());
        }
    }

    @Test
    void noTransactionHoldsMoreThanItsMessageBound() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        try (BenchmarkDriver driver = driver(
                "transactions:\n  enabled: true\n  commitIntervalMs: 60000\n  maxMessagesPerTransaction: 7\n", stats)) {
            String topic = TestDrivers.topic("count-bound");
            BenchmarkProducer producer = producerFor(driver, topic);

            List<CompletableFuture<Void>> sends = sendFromTwoThreads(producer, 50, 0, stats, new AtomicInteger());
            // 98 messages fill 14 transactions of 7 without waiting for the 60-s interval; close commits the rest.
            producer.close();
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);

            assertExactlyOnce(topic, 100);
            List<Long> perTransaction = stats.values("tx/messagesPerTransaction");
            assertEquals(List.of(7L, 7L, 7L, 7L, 7L, 7L, 7L, 7L, 7L, 7L, 7L, 7L, 7L, 7L, 2L), perTransaction);
        }
    }

    @Test
    void noTransactionHoldsMoreThanItsByteBound() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        try (BenchmarkDriver driver = driver(
                "transactions:\n  enabled: true\n  commitIntervalMs: 60000\n  maxBytesPerTransaction: 2500\n", stats)) {
            String topic = TestDrivers.topic("byte-bound");
            BenchmarkProducer producer = producerFor(driver, topic);
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                byte[] payload = new byte[1000];
                payload[0] = (byte) i;
                sends.add(producer.sendAsync(Optional.empty(), payload));
            }
            // 2 x 1000 bytes fit, a third would not: transactions of 2, each committed when the next send arrives
            // (the last one by close).
            producer.close();
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);

            assertEquals(
                    10,
                    TestDrivers.readCommitted(kafka.bootstrapServers(), topic, 10)
                            .size());
            assertEquals(List.of(2L, 2L, 2L, 2L, 2L), stats.values("tx/messagesPerTransaction"));
        }
    }

    @Test
    void closeCommitsTheOpenTransactionWellWithinItsBound() throws Exception {
        CountingStatsLogger stats = new CountingStatsLogger();
        try (BenchmarkDriver driver = driver(
                "transactions:\n  enabled: true\n  commitIntervalMs: 600000\n  closeTimeoutMs: 10000\n", stats)) {
            String topic = TestDrivers.topic("close");
            BenchmarkProducer producer = producerFor(driver, topic);
            List<CompletableFuture<Void>> sends = sendFromTwoThreads(producer, 50, 0, stats, new AtomicInteger());
            assertEquals(
                    100,
                    TestDrivers.awaitWritten(kafka.bootstrapServers(), topic, 100)
                            .size());
            assertFalse(
                    sends.stream().anyMatch(CompletableFuture::isDone),
                    "written to the broker, but the 10-minute transaction is still open");

            long start = System.nanoTime();
            producer.close();
            long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertTrue(closeMillis < 10_000, "close took " + closeMillis + " ms");
            for (CompletableFuture<Void> send : sends) {
                assertTrue(send.isDone() && !send.isCompletedExceptionally(), "answered by close, committed");
            }
            assertExactlyOnce(topic, 100);
            assertEquals(List.of(100L), stats.values("tx/messagesPerTransaction"));
            assertTrue(producer.sendAsync(Optional.empty(), bytes("late")).isCompletedExceptionally());
        }
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A gated poll loop polls only while its gate is open (seed 001's FetchBench polls after each commit). */
class PollGateTest {

    private static final class CountingConsumer extends MockConsumer<String, byte[]> {
        final AtomicLong polls = new AtomicLong();
        final AtomicInteger inPoll = new AtomicInteger();
        final AtomicInteger mostInPoll = new AtomicInteger();
        final Set<String> pollingThreads = ConcurrentHashMap.newKeySet();
        volatile long pollNanos;
        volatile boolean oneRecord;

        CountingConsumer() {
            super("earliest");
        }

        // Not synchronized, unlike MockConsumer's: two threads in it at once must be seen, not serialized.
        @Override
        public ConsumerRecords<String, byte[]> poll(Duration timeout) {
            mostInPoll.accumulateAndGet(inPoll.incrementAndGet(), Math::max);
            try {
                polls.incrementAndGet();
                pollingThreads.add(Thread.currentThread().getName());
                if (pollNanos > 0) {
                    LockSupport.parkNanos(pollNanos);
                }
                if (oneRecord) {
                    oneRecord = false;
                    TopicPartition partition = new TopicPartition("t", 0);
                    return new ConsumerRecords<>(
                            Map.of(partition, List.of(new ConsumerRecord<>("t", 0, 0L, "k", new byte[1]))), Map.of());
                }
                return ConsumerRecords.empty();
            } finally {
                inPoll.decrementAndGet();
            }
        }
    }

    private static final class Loop extends PollLoop {
        final List<String> handledOn = new CopyOnWriteArrayList<>();

        Loop(CountingConsumer consumer) {
            super(consumer, "poll-gate-test");
        }

        @Override
        protected void handle(ConsumerRecords<String, byte[]> records) {
            handledOn.add(Thread.currentThread().getName());
        }
    }

    @Test
    void pollHerePollsAndHandlesOnTheCallersThreadOnlyWhileTheGateIsClosed() throws Exception {
        CountingConsumer consumer = new CountingConsumer();
        try (Loop loop = new Loop(consumer)) {
            assertFalse(loop.pollHere(), "not gated: the poll thread polls");
            assertEquals(0, consumer.polls.get());
            loop.gate();
            loop.start();
            Thread thread = pollThread();
            awaitHeldAtTheGate(thread);

            consumer.oneRecord = true;
            assertTrue(loop.pollHere());
            assertEquals(1, consumer.polls.get());
            assertEquals(List.of(Thread.currentThread().getName()), loop.handledOn, "handled on the caller's thread");
            assertEquals(Set.of(Thread.currentThread().getName()), consumer.pollingThreads);

            loop.openGate();
            assertFalse(loop.pollHere(), "open: the poll thread's turn");
            awaitPolls(consumer, 2);
            loop.closeGate();

            // The poll thread may be in a poll when the gate closes: pollHere waits for it; never two at once.
            consumer.pollNanos = 2_000_000;
            for (int i = 0; i < 20; i++) {
                loop.openGate();
                LockSupport.parkNanos(1_000_000);
                loop.closeGate();
                assertTrue(loop.pollHere());
            }
            assertEquals(1, consumer.mostInPoll.get(), "the consumer was polled by two threads at once");
            assertTrue(consumer.pollingThreads.contains("poll-gate-test"), consumer.pollingThreads.toString());
        }
        assertFalse(new Loop(new CountingConsumer()).pollHere(), "a loop that was never gated");
    }

    @Test
    void pollHereAfterCloseIsRefused() throws Exception {
        CountingConsumer consumer = new CountingConsumer();
        Loop loop = new Loop(consumer);
        loop.gate();
        loop.start();
        loop.close();
        long polls = consumer.polls.get();
        assertFalse(loop.pollHere());
        assertEquals(polls, consumer.polls.get());
        assertTrue(consumer.closed(), "closed by its poll thread");
    }

    @Test
    void pollHereWaitingForTheConsumerWhenTheLoopClosesReturns() throws Exception {
        CountingConsumer consumer = new CountingConsumer();
        Loop loop = new Loop(consumer);
        loop.gate();
        loop.start();
        consumer.pollNanos = 300_000_000; // the first caller holds the consumer for 300 ms
        Thread first = new Thread(loop::pollHere, "first");
        first.start();
        while (consumer.inPoll.get() == 0) {
            LockSupport.parkNanos(1_000_000);
        }
        java.util.concurrent.CompletableFuture<Boolean> second =
                java.util.concurrent.CompletableFuture.supplyAsync(loop::pollHere);
        LockSupport.parkNanos(50_000_000); // the second caller is past its first look and waits for the consumer
        loop.close(); // the poll thread keeps the consumer from here on
        first.join();
        // Before: the second caller waited for the lock for ever. Now it sees the loop stopped.
        assertFalse(second.get(30, java.util.concurrent.TimeUnit.SECONDS));
        assertTrue(consumer.closed());
    }

    @Test
    void aClosedGateHoldsThePollThreadAndAnOpenOneLetsItPoll() throws Exception {
        CountingConsumer consumer = new CountingConsumer();
        try (Loop loop = new Loop(consumer)) {
            loop.gate();
            loop.start();
            Thread thread = pollThread();
            awaitHeldAtTheGate(thread);
            assertEquals(0, consumer.polls.get(), "no poll before the gate opened");

            loop.openGate();
            awaitPolls(consumer, 1);
            loop.closeGate();
            awaitHeldAtTheGate(thread);
            long held = consumer.polls.get();
            awaitHeldAtTheGate(thread); // still there: the count cannot have moved while it was parked at the gate
            assertEquals(held, consumer.polls.get());

            loop.ungate();
            awaitPolls(consumer, held + 1);
        }
    }

    private static Thread pollThread() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("poll-gate-test")) {
                    return t;
                }
            }
            Thread.sleep(1);
        }
        throw new AssertionError("the poll thread never started");
    }

    /** Waits until the poll thread is parked in the loop's gate, not in a poll. */
    private static void awaitHeldAtTheGate(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            StackTraceElement[] stack = thread.getStackTrace();
            boolean parked =
                    Arrays.stream(stack).anyMatch(e -> e.getMethodName().equals("parkNanos"));
            boolean polling =
                    Arrays.stream(stack).anyMatch(e -> e.getMethodName().equals("poll"));
            if (parked && !polling) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("the poll thread was never held at the gate");
    }

    private static void awaitPolls(CountingConsumer consumer, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (consumer.polls.get() < atLeast) {
            assertTrue(System.nanoTime() < deadline, "the consumer did not poll");
            Thread.sleep(1);
        }
    }
}

package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.junit.jupiter.api.Test;

/** A gated poll loop polls only while its gate is open (seed 001's FetchBench polls after each commit). */
class PollGateTest {

    private static final class CountingConsumer extends MockConsumer<String, byte[]> {
        final AtomicLong polls = new AtomicLong();

        CountingConsumer() {
            super("earliest");
        }

        @Override
        public synchronized ConsumerRecords<String, byte[]> poll(Duration timeout) {
            polls.incrementAndGet();
            return ConsumerRecords.empty();
        }
    }

    private static final class Loop extends PollLoop {
        Loop(CountingConsumer consumer) {
            super(consumer, "poll-gate-test");
        }

        @Override
        protected void handle(ConsumerRecords<String, byte[]> records) {}
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

package io.ombtx.driver.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.CallbackProducer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A subscriber that stops polling fills the smallest term window Aeron allows: offers come back BACK_PRESSURED, are
 * retried for offerTimeoutMs and then fail the send, every one counted; once the subscriber moves again, sends go
 * through and everything accepted is received.
 */
class BackPressureTest {

    @TempDir
    Path dir;

    @Test
    void aStalledSubscriberBackPressuresThePublisherAndEveryRefusalIsCounted() throws Exception {
        String yaml = "mediaDriver: {termBufferLength: 64k}\npublisher: {offerTimeoutMs: 200}\n";
        try (AeronBenchmarkDriver driver = TestAeron.start(dir, "ipc", yaml)) {
            CountDownLatch stall = new CountDownLatch(1);
            AtomicInteger received = new AtomicInteger();
            driver.createConsumer("t", "sub", new io.openmessaging.benchmark.driver.ConsumerCallback() {
                        @Override
                        public void messageReceived(byte[] payload, long publishTimestamp) {
                            try {
                                stall.await(); // the poll thread stops here until released
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            received.incrementAndGet();
                        }

                        @Override
                        public void messageReceived(ByteBuffer payload, long publishTimestamp) {
                            messageReceived(new byte[payload.remaining()], publishTimestamp);
                        }
                    })
                    .get(5, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer("t").get(5, TimeUnit.SECONDS);
            CallbackProducer fast = (CallbackProducer) producer;
            int accepted = 0;
            AtomicReference<Throwable> failure = new AtomicReference<>();
            // 64 KiB terms hold a few hundred 1000-byte messages: a stalled subscriber stops the publisher well
            // before 2000.
            for (int i = 0; i < 2_000 && failure.get() == null; i++) {
                AtomicReference<Throwable> outcome = new AtomicReference<>();
                fast.send(null, new byte[1000], true, 0, 0, (error, bytes, intended, sent) -> outcome.set(error));
                if (outcome.get() == null) {
                    accepted++;
                } else {
                    failure.set(outcome.get());
                }
            }
            assertTrue(failure.get() instanceof TimeoutException, "the send fails after offerTimeoutMs: " + failure);
            assertTrue(
                    failure.get().getMessage().contains("BACK_PRESSURED"),
                    failure.get().getMessage());
            Map<String, Object> offers = AeronDriverContractTest.offers(driver);
            assertTrue((Long) offers.get("backPressured") > 0, offers.toString());
            assertEquals(1L, offers.get("sendsFailed"), offers.toString());
            assertEquals((long) accepted, offers.get("sendsAccepted"), offers.toString());

            stall.countDown();
            for (int i = 0; i < 10; i++) {
                producer.sendAsync(java.util.Optional.empty(), new byte[1000]).get(30, TimeUnit.SECONDS);
            }
            int expected = accepted + 10;
            TestAeron.await(() -> received.get() == expected, expected + " received");
            assertEquals((long) expected, AeronDriverContractTest.offers(driver).get("sendsAccepted"));
        }
    }
}

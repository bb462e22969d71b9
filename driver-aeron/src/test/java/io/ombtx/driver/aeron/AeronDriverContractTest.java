package io.ombtx.driver.aeron;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The OMB SPI contract on a real embedded media driver, over IPC and over UDP on loopback: every message sent is
 * received once per subscription, with the publish time it was sent at, and the driver says what it did.
 */
class AeronDriverContractTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"ipc", "udp"})
    void everyMessageSentIsReceivedOnceWithItsPublishTime(String transport) throws Exception {
        int messages = 2_000;
        try (AeronBenchmarkDriver driver = TestAeron.start(dir, transport, "")) {
            String topic = driver.getTopicNamePrefix() + "-contract";
            driver.createTopic(topic, 1).get(5, TimeUnit.SECONDS);
            TestAeron.PreciseRecorder recorder = new TestAeron.PreciseRecorder();
            BenchmarkConsumer consumer =
                    driver.createConsumer(topic, "sub", recorder).get(5, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer(topic).get(5, TimeUnit.SECONDS);
            long firstSendMicros = MessageFrame.nowEpochMicros();
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            for (int i = 0; i < messages; i++) {
                sends.add(producer.sendAsync(Optional.empty(), new byte[78]));
            }
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            // A last, shorter message marks the end: one stream delivers in order, so once the marker is in, so is
            // everything sent before it, duplicates included.
            producer.sendAsync(Optional.empty(), new byte[1]).get(30, TimeUnit.SECONDS);
            TestAeron.await(
                    () -> recorder.received.stream().anyMatch(r -> r.payloadLength() == 1), "the end marker received");
            List<TestAeron.PreciseRecorder.Received> received =
                    recorder.received.subList(0, recorder.received.size() - 1);
            assertEquals(1, recorder.received.get(recorder.received.size() - 1).payloadLength(), "the marker last");
            assertEquals(messages, received.size());
            for (TestAeron.PreciseRecorder.Received r : received) {
                assertEquals(78, r.payloadLength());
                assertTrue(r.publishEpochMicros() >= firstSendMicros, "published before the first send: " + r);
                long endToEndMicros = r.receivedEpochMicros() - r.publishEpochMicros();
                assertTrue(endToEndMicros >= 0 && endToEndMicros < 30_000_000, "end-to-end " + endToEndMicros + " µs");
            }
            Map<String, Object> offers = offers(driver);
            assertEquals((long) messages + 1, offers.get("sendsAccepted"), "the messages and the marker");
            assertEquals(0L, offers.get("sendsFailed"));
            assertEquals(transport, ((Map<?, ?>) driver.environment().get("aeron")).get("transport"));
            producer.close();
            consumer.close();
        }
    }

    @Test
    void stockOmbsCallbackGetsThePayloadAndTheMillisecondTimestamp() throws Exception {
        try (AeronBenchmarkDriver driver = TestAeron.start(dir, "ipc", "")) {
            TestAeron.OmbRecorder recorder = new TestAeron.OmbRecorder();
            driver.createConsumer("t", "sub", recorder).get(5, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer("t").get(5, TimeUnit.SECONDS);
            long before = System.currentTimeMillis();
            byte[] payload = {1, 2, 3, 4, 5};
            producer.sendAsync(Optional.of("key"), payload).get(30, TimeUnit.SECONDS);
            TestAeron.await(() -> recorder.received.size() == 1, "one message received");
            assertArrayEquals(payload, recorder.received.get(0).payload());
            long timestamp = recorder.received.get(0).publishTimestampMillis();
            assertTrue(timestamp >= before - 1 && timestamp <= System.currentTimeMillis(), "timestamp " + timestamp);
        }
    }

    @Test
    void eachSubscriptionGetsEveryMessageAndItsConsumersShareThem() throws Exception {
        int messages = 1_000;
        try (AeronBenchmarkDriver driver = TestAeron.start(dir, "ipc", "")) {
            TestAeron.PreciseRecorder alone = new TestAeron.PreciseRecorder();
            TestAeron.PreciseRecorder sharedA = new TestAeron.PreciseRecorder();
            TestAeron.PreciseRecorder sharedB = new TestAeron.PreciseRecorder();
            driver.createConsumer("t", "sub-1", alone).get(5, TimeUnit.SECONDS);
            driver.createConsumer("t", "sub-2", sharedA).get(5, TimeUnit.SECONDS);
            driver.createConsumer("t", "sub-2", sharedB).get(5, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer("t").get(5, TimeUnit.SECONDS);
            for (int i = 0; i < messages; i++) {
                producer.sendAsync(Optional.empty(), new byte[10]).get(30, TimeUnit.SECONDS);
            }
            TestAeron.await(
                    () -> alone.received.size() == messages
                            && sharedA.received.size() + sharedB.received.size() == messages,
                    "both subscriptions complete");
            assertEquals(messages / 2, sharedA.received.size(), "consumers of one subscription take turns");
            assertEquals(messages / 2, sharedB.received.size());
        }
    }

    @Test
    void theMediaDriversFolderIsRemovedOnClose() throws Exception {
        Path folder;
        try (AeronBenchmarkDriver driver = TestAeron.start(dir, "ipc", "mediaDriver: {directory: " + dir + "}\n")) {
            folder = driver.mediaDriverDirectory();
            assertTrue(folder.startsWith(dir) && Files.isDirectory(folder), "made in the folder asked for: " + folder);
            assertTrue(Files.list(folder).findAny().isPresent(), "the media driver's files are in it");
        }
        assertFalse(Files.exists(folder), folder + " is left behind");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> offers(AeronBenchmarkDriver driver) {
        return (Map<String, Object>) ((Map<String, Object>) driver.environment().get("aeron")).get("offers");
    }
}

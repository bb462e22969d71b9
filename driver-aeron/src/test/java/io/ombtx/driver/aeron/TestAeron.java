package io.ombtx.driver.aeron;

import io.ombtx.driver.api.PreciseConsumerCallback;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.bookkeeper.stats.NullStatsLogger;

/** Drivers started on a YAML written for the test, and call-backs that keep what they were given. */
final class TestAeron {

    private TestAeron() {}

    static AeronBenchmarkDriver start(Path dir, String transport, String extraYaml) throws Exception {
        String yaml = "name: test\ndriverClass: io.ombtx.driver.aeron.AeronBenchmarkDriver\ntransport: " + transport
                + "\n" + extraYaml;
        File file = Files.writeString(Files.createTempFile(dir, "aeron-", ".yaml"), yaml)
                .toFile();
        AeronBenchmarkDriver driver = new AeronBenchmarkDriver();
        driver.initialize(file, NullStatsLogger.INSTANCE);
        return driver;
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s: " + what);
            }
            Thread.sleep(5);
        }
    }

    /** What omb-tx's runner is given: the payload length and the publish time in microseconds. */
    static final class PreciseRecorder implements PreciseConsumerCallback {
        record Received(int payloadLength, long publishEpochMicros, long receivedEpochMicros) {}

        final List<Received> received = new CopyOnWriteArrayList<>();

        @Override
        public void messageReceivedMicros(int payloadLength, long publishEpochMicros) {
            received.add(new Received(payloadLength, publishEpochMicros, MessageFrame.nowEpochMicros()));
        }

        @Override
        public void messageReceived(byte[] payload, long publishTimestamp) {
            throw new AssertionError("the driver should call messageReceivedMicros");
        }

        @Override
        public void messageReceived(ByteBuffer payload, long publishTimestamp) {
            throw new AssertionError("the driver should call messageReceivedMicros");
        }
    }

    /** What stock OMB's worker is given: the payload and the publish time in epoch milliseconds. */
    static final class OmbRecorder implements ConsumerCallback {
        record Received(byte[] payload, long publishTimestampMillis) {}

        final List<Received> received = new CopyOnWriteArrayList<>();

        @Override
        public void messageReceived(byte[] payload, long publishTimestamp) {
            received.add(new Received(payload, publishTimestamp));
        }

        @Override
        public void messageReceived(ByteBuffer payload, long publishTimestamp) {
            throw new AssertionError("the driver hands OMB byte arrays");
        }
    }
}

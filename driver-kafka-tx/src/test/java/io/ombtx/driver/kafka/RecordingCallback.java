package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationListener;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.PreciseConsumerCallback;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A runner-like callback that keeps what it was told. */
class RecordingCallback extends OmbOnlyCallback implements PreciseConsumerCallback, OperationListener {

    final List<Long> publishMicros = new CopyOnWriteArrayList<>();
    final List<Integer> preciseLengths = new CopyOnWriteArrayList<>();
    final List<OperationTimings> operations = new CopyOnWriteArrayList<>();

    @Override
    public void messageReceived(ByteBuffer payload, long publishTimestamp) {
        byte[] bytes = new byte[payload.remaining()];
        payload.get(bytes);
        messageReceived(bytes, publishTimestamp);
    }

    @Override
    public void messageReceivedMicros(int payloadLength, long publishEpochMicros) {
        preciseLengths.add(payloadLength);
        publishMicros.add(publishEpochMicros);
    }

    @Override
    public void operationCompleted(OperationTimings timings) {
        operations.add(timings);
    }

    int received() {
        return payloads.size() + preciseLengths.size();
    }

    void awaitReceived(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (received() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}

package io.ombtx.driver.kafka;

import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Only OMB's interface, as stock OMB's callback looks: keeps each payload and its millisecond publish time. */
class OmbOnlyCallback implements ConsumerCallback {

    final List<byte[]> payloads = new CopyOnWriteArrayList<>();
    final List<Long> publishMillis = new CopyOnWriteArrayList<>();

    @Override
    public void messageReceived(byte[] payload, long publishTimestamp) {
        payloads.add(payload);
        publishMillis.add(publishTimestamp);
    }

    @Override
    public void messageReceived(ByteBuffer payload, long publishTimestamp) {
        throw new UnsupportedOperationException();
    }
}

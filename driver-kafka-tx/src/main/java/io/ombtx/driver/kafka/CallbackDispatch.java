package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationListener;
import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.PreciseConsumerCallback;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Hands consumed records (and streaming operations) to the runner's callback through the richest interface it has. */
final class CallbackDispatch {

    private static final byte[] EMPTY = new byte[0];

    private final ConsumerCallback callback;
    private final PreciseConsumerCallback precise; // null when the callback only speaks OMB
    private final OperationListener operations; // null when the callback does not listen for operations

    CallbackDispatch(ConsumerCallback callback) {
        this.callback = callback;
        this.precise = callback instanceof PreciseConsumerCallback p ? p : null;
        this.operations = callback instanceof OperationListener l ? l : null;
    }

    /** Microsecond publish time when the record has our header and the callback takes it, else OMB's milliseconds. */
    void delivered(ConsumerRecord<String, byte[]> record) {
        byte[] payload = record.value() == null ? EMPTY : record.value();
        if (precise != null) {
            long publishMicros = PublishTime.decode(record.headers());
            if (publishMicros >= 0) {
                precise.messageReceivedMicros(payload.length, publishMicros);
                return;
            }
        }
        callback.messageReceived(payload, record.timestamp());
    }

    void operationCompleted(OperationTimings timings) {
        if (operations != null) {
            operations.operationCompleted(timings);
        }
    }
}

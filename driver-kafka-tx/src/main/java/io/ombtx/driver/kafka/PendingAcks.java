package io.ombtx.driver.kafka;

import io.ombtx.driver.api.Phase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/** The acks of records sent together, awaited as one RESOLVE phase. */
final class PendingAcks {

    private final List<Future<RecordMetadata>> acks = new ArrayList<>();

    /** Sends every record, timed as one SEND phase; a send that throws ends the batch (and the phase) there. */
    static PendingAcks send(
            Producer<String, byte[]> producer, List<ProducerRecord<String, byte[]>> records, PhaseTimer timer) {
        PendingAcks pending = new PendingAcks();
        if (!records.isEmpty()) { // a SEND_OFFSETS-only transaction has no send phase
            for (ProducerRecord<String, byte[]> record : records) {
                pending.add(producer.send(record));
            }
            timer.lap(Phase.SEND);
        }
        return pending;
    }

    void add(Future<RecordMetadata> ack) {
        acks.add(ack);
    }

    /** Waits for every ack, timed as RESOLVE; with none to wait for there is no phase. */
    void await(PhaseTimer timer) throws ExecutionException, InterruptedException {
        if (acks.isEmpty()) {
            return;
        }
        for (Future<RecordMetadata> ack : acks) {
            ack.get();
        }
        timer.lap(Phase.RESOLVE);
    }
}

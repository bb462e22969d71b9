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

    private final List<Future<RecordMetadata>> acks;

    PendingAcks() {
        this(10);
    }

    private PendingAcks(int expected) {
        acks = new ArrayList<>(expected);
    }

    /**
     * Sends every record, timed as one SEND phase; a send that throws ends the batch (and the phase) there. By index,
     * into a list sized for them: a bulk operation's 1000 sends, like the bare loop's, make no iterator and grow no
     * list between two sends. {@code records} is a random-access list (every caller's is: an operation's records,
     * an {@code ArrayList}).
     */
    static PendingAcks send(
            Producer<String, byte[]> producer, List<ProducerRecord<String, byte[]>> records, PhaseTimer timer) {
        int count = records.size();
        PendingAcks pending = new PendingAcks(count);
        if (count > 0) { // a SEND_OFFSETS-only transaction has no send phase
            for (int i = 0; i < count; i++) {
                pending.acks.add(producer.send(records.get(i)));
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
        for (int i = 0, n = acks.size(); i < n; i++) {
            acks.get(i).get();
        }
        timer.lap(Phase.RESOLVE);
    }
}

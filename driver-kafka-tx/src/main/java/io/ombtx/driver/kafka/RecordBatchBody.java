package io.ombtx.driver.kafka;

import io.ombtx.driver.api.Phase;
import java.util.List;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The common transaction body: send a batch of records [SEND], wait for their acks [RESOLVE], optionally add
 * consumer offsets [SEND_OFFSETS]. With {@code resolveBeforeCommit} false the acks are read after the commit
 * instead (the commit flushes them), which is seed 000's order. Records are built once by the caller, so a retried
 * attempt resends the same records with their original publish time.
 */
final class RecordBatchBody implements TxBody {

    private final List<ProducerRecord<String, byte[]>> records;
    private final boolean resolveBeforeCommit;
    private final Supplier<OffsetsToCommit> offsets;
    private Future<?>[] acks;

    /** @param offsets what to pass to sendOffsetsToTransaction in each attempt, or null for none */
    RecordBatchBody(List<ProducerRecord<String, byte[]>> records, boolean resolveBeforeCommit,
            Supplier<OffsetsToCommit> offsets) {
        this.records = records;
        this.resolveBeforeCommit = resolveBeforeCommit;
        this.offsets = offsets;
    }

    @Override
    public void inTransaction(Producer<String, byte[]> producer, PhaseTimer timer) throws Exception {
        acks = new Future<?>[records.size()];
        if (acks.length > 0) { // a SEND_OFFSETS-only transaction has no send phase
            for (int i = 0; i < acks.length; i++) {
                acks[i] = producer.send(records.get(i));
            }
            timer.lap(Phase.SEND);
        }
        if (resolveBeforeCommit) {
            resolve(timer);
        }
        if (offsets != null) {
            OffsetsToCommit next = offsets.get();
            producer.sendOffsetsToTransaction(next.offsets(), next.groupMetadata());
            timer.lap(Phase.SEND_OFFSETS);
        }
    }

    @Override
    public void afterCommit(PhaseTimer timer) throws Exception {
        if (!resolveBeforeCommit) {
            resolve(timer);
        }
    }

    private void resolve(PhaseTimer timer) throws Exception {
        if (acks.length == 0) {
            return;
        }
        for (Future<?> ack : acks) {
            ack.get();
        }
        timer.lap(Phase.RESOLVE);
    }

    /** Sends without a transaction and waits for every ack: a plain (non-transactional) write. */
    static void sendAndResolve(Producer<String, byte[]> producer, List<ProducerRecord<String, byte[]>> records,
            PhaseTimer timer) throws Exception {
        @SuppressWarnings("unchecked")
        Future<RecordMetadata>[] acks = new Future[records.size()];
        for (int i = 0; i < acks.length; i++) {
            acks[i] = producer.send(records.get(i));
        }
        timer.lap(Phase.SEND);
        for (Future<RecordMetadata> ack : acks) {
            ack.get();
        }
        timer.lap(Phase.RESOLVE);
    }
}

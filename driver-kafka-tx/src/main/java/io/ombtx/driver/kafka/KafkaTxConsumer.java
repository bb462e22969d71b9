package io.ombtx.driver.kafka;

import io.ombtx.driver.api.PollGate;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * OMB's consumer: subscribes to a topic in a group and reports every record to the callback. When the consumer
 * does not auto-commit, it commits asynchronously, at most once per {@link #COMMIT_INTERVAL_NANOS}, so group
 * offsets (and lag) stay meaningful without a blocking commit between polls. Committing after every batch would
 * flood the group coordinator when batches are single records (max.poll.records=1, seed 004) and leave thousands
 * of commits pending at close.
 */
final class KafkaTxConsumer extends PollLoop implements BenchmarkConsumer, PollGate {

    private static final long COMMIT_INTERVAL_NANOS = 1_000_000_000L;

    private final CallbackDispatch dispatch;
    private final boolean commitAfterBatch;
    private long lastCommitNanos = System.nanoTime();

    KafkaTxConsumer(
            Consumer<String, byte[]> consumer, String topic, CallbackDispatch dispatch, boolean commitAfterBatch) {
        super(consumer, "ombtx-consumer-" + topic);
        this.dispatch = dispatch;
        this.commitAfterBatch = commitAfterBatch;
        consumer.subscribe(List.of(topic));
        start();
    }

    @Override
    protected void handle(ConsumerRecords<String, byte[]> records) {
        for (ConsumerRecord<String, byte[]> record : records) {
            dispatch.delivered(record);
        }
        if (commitAfterBatch && System.nanoTime() - lastCommitNanos >= COMMIT_INTERVAL_NANOS) {
            lastCommitNanos = System.nanoTime();
            consumer.commitAsync();
        }
    }
}

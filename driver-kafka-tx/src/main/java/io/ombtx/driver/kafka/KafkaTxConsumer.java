package io.ombtx.driver.kafka;

import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * OMB's consumer: subscribes to a topic in a group and reports every record to the callback. When the consumer
 * does not auto-commit, it commits asynchronously after each batch so group offsets (and lag) stay meaningful
 * without putting a blocking commit between polls.
 */
final class KafkaTxConsumer extends PollLoop implements BenchmarkConsumer {

    private final CallbackDispatch dispatch;
    private final boolean commitAfterBatch;

    KafkaTxConsumer(Consumer<String, byte[]> consumer, String topic, CallbackDispatch dispatch, boolean commitAfterBatch) {
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
        if (commitAfterBatch) {
            consumer.commitAsync();
        }
    }
}

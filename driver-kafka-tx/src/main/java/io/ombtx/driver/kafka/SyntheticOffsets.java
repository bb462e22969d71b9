package io.ombtx.driver.kafka;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Offsets for transactions that commit consumer offsets without consuming (seed 001's TxSendOffsetsBench, and
 * WRITE with sendOffsets): one partition of a per-run consumer group, a larger offset each time, so every commit
 * is a real change the group coordinator must write.
 */
final class SyntheticOffsets {

    private final TopicPartition partition;
    private final ConsumerGroupMetadata group;
    private long nextOffset = 1;

    SyntheticOffsets(String groupId, TopicPartition partition) {
        this.partition = partition;
        this.group = new ConsumerGroupMetadata(groupId);
    }

    OffsetsToCommit next() {
        return new OffsetsToCommit(Map.of(partition, new OffsetAndMetadata(nextOffset++)), group);
    }
}

package io.ombtx.driver.kafka;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** Builds the records the driver publishes: record timestamp and {@code ombtx.us} header from one clock reading. */
final class RecordFactory {

    private RecordFactory() {}

    /** @param partition an explicit partition, or null to let the partitioner choose (OMB's plain publish) */
    static ProducerRecord<String, byte[]> create(String topic, Integer partition, String key, byte[] payload) {
        return create(topic, partition, key, payload, PublishTime.nowEpochMicros());
    }

    /** A record stamped with {@code epochMicros} (a publish time read earlier, e.g. once for an operation's records). */
    static ProducerRecord<String, byte[]> create(
            String topic, Integer partition, String key, byte[] payload, long epochMicros) {
        // RecordHeaders, not a List: ProducerRecord copies RecordHeaders in one step but adds an Iterable's elements
        // one by one to a default-sized list (a visible share of the send path at saturation).
        RecordHeaders headers =
                new RecordHeaders(new Header[] {new RecordHeader(PublishTime.HEADER, PublishTime.encode(epochMicros))});
        return new ProducerRecord<>(topic, partition, epochMicros / 1_000, key, payload, headers);
    }

    /**
     * A record with the publish-time header when something consumes it ({@code consumed}), else a bare one: an
     * unconsumed record needs no header, which costs kafka-clients a fifth of its send path (sizing its key, copying
     * the header list) and the broker 18 bytes, and the seeds' bare loops wrote none.
     */
    static ProducerRecord<String, byte[]> create(
            String topic, Integer partition, String key, byte[] payload, boolean consumed) {
        return consumed ? create(topic, partition, key, payload) : new ProducerRecord<>(topic, partition, key, payload);
    }
}

package io.ombtx.runner.worker;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.ombtx.runner.config.KeyDistributorType;
import io.ombtx.runner.config.LoopMode;
import java.util.List;

/**
 * How a worker drives its producers (or, for STREAM, counts its consumers' operations); the body of
 * {@code /start-load}, whose first three fields carry OMB's {@code ProducerWorkAssignment} names. A stock OMB
 * coordinator sends only those: the rest then take their OMB meaning (open loop, one message per operation, run
 * until stopped).
 *
 * @param loop closed (one operation outstanding per producer) or open (paced)
 * @param messagesPerSecond this worker's share of the target rate (open loop); 0 in closed loop
 * @param payloads payloads to cycle through
 * @param warmupOperations operations (this worker's share) recorded nowhere; 0 for time-based runs
 * @param measureOperations operations (this worker's share) to measure; 0 = until stopped
 * @param messagesPerOperation messages one operation writes (paces the operation rate)
 * @param waitForConsume closed loop: the next operation starts once the consumer has seen the previous one
 * @param consumed whether anything in the run consumes what is published; false (no subscription anywhere) lets
 *     the driver leave out what it adds to each record only for end-to-end latency. Absent (a stock OMB
 *     coordinator): true
 * @param senderThreadsPerProducer threads sending for one producer ({@link SenderThreads}), as planned; null: the
 *     worker's own setting ({@code auto} unless its JVM sets {@value SenderThreads#PROPERTY}), as for a stock OMB
 *     coordinator
 */
public record LoadSpec(
        // The enum's name ("OPEN") on the wire, as workers before the result's lower-case key expect.
        @JsonProperty("loop") @JsonSerialize(using = ToStringSerializer.class) LoopMode loop,
        @JsonProperty("publishRate") double messagesPerSecond,
        @JsonProperty("payloadData") List<byte[]> payloads,
        @JsonProperty("keyDistributorType") KeyDistributorType keyDistributor,
        @JsonProperty("warmupOperations") long warmupOperations,
        @JsonProperty("measureOperations") long measureOperations,
        // Boxed so that an absent field (one message) differs from an explicit 0 (a SEND_OFFSETS operation).
        @JsonProperty("messagesPerOperation") Integer messagesPerOperation,
        @JsonProperty("waitForConsume") boolean waitForConsume,
        @JsonProperty("consumed") Boolean consumed,
        @JsonProperty("senderThreadsPerProducer") @JsonInclude(JsonInclude.Include.NON_NULL)
                Integer senderThreadsPerProducer) {

    /** What a stock OMB coordinator leaves out takes OMB's meaning. */
    @JsonCreator
    public LoadSpec {
        loop = loop == null ? LoopMode.OPEN : loop;
        payloads = payloads == null ? List.of() : payloads;
        keyDistributor = keyDistributor == null ? KeyDistributorType.NO_KEY : keyDistributor;
        messagesPerOperation = messagesPerOperation == null ? 1 : messagesPerOperation;
        consumed = consumed == null || consumed;
    }

    /** A load whose records someone consumes (end-to-end latency measured). */
    public LoadSpec(
            LoopMode loop,
            double messagesPerSecond,
            List<byte[]> payloads,
            KeyDistributorType keyDistributor,
            long warmupOperations,
            long measureOperations,
            Integer messagesPerOperation,
            boolean waitForConsume) {
        this(
                loop,
                messagesPerSecond,
                payloads,
                keyDistributor,
                warmupOperations,
                measureOperations,
                messagesPerOperation,
                waitForConsume,
                true,
                null);
    }

    /** This load with another rate and other operation counts: one worker's share of it. */
    public LoadSpec share(double rate, long warmup, long measure) {
        return with(rate, payloads, warmup, measure);
    }

    /** This load with its payloads, built from their planned description ({@link Payloads}). */
    public LoadSpec withPayloads(List<byte[]> bytes) {
        return with(messagesPerSecond, bytes, warmupOperations, measureOperations);
    }

    private LoadSpec with(double rate, List<byte[]> bytes, long warmup, long measure) {
        return new LoadSpec(
                loop,
                rate,
                bytes,
                keyDistributor,
                warmup,
                measure,
                messagesPerOperation,
                waitForConsume,
                consumed,
                senderThreadsPerProducer);
    }
}

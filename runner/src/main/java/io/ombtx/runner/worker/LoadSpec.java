package io.ombtx.runner.worker;

import io.ombtx.runner.config.KeyDistributorType;
import io.ombtx.runner.config.LoopMode;
import java.util.List;

/**
 * How a worker drives its producers (or, for STREAM, counts its consumers' operations).
 *
 * @param loop closed (one operation outstanding per producer) or open (paced)
 * @param messagesPerSecond this worker's share of the target rate (open loop); 0 in closed loop
 * @param payloads payloads to cycle through
 * @param warmupOperations operations (this worker's share) recorded nowhere; 0 for time-based runs
 * @param measureOperations operations (this worker's share) to measure; 0 = until stopped
 * @param messagesPerOperation messages one operation writes (paces the operation rate)
 * @param waitForConsume closed loop: the next operation starts once the consumer has seen the previous one
 */
public record LoadSpec(
        LoopMode loop,
        double messagesPerSecond,
        List<byte[]> payloads,
        KeyDistributorType keyDistributor,
        long warmupOperations,
        long measureOperations,
        int messagesPerOperation,
        boolean waitForConsume) {
}

/**
 * omb-tx's optional extensions to the OMB driver SPI. A driver may implement them next to the SPI;
 * the omb-tx runner uses them when present, and a stock OMB runner simply never asks for them.
 *
 * <ul>
 *   <li>{@link io.ombtx.driver.api.ScenarioDriver} on a {@code BenchmarkDriver}: the runner tells it what one
 *       operation is (a plain publish, an N-message write, a transaction with only sendOffsets, a
 *       consume-transform-produce step) and asks it to verify exactly-once delivery afterwards.</li>
 *   <li>{@link io.ombtx.driver.api.OperationProducer} on a {@code BenchmarkProducer}: runs one whole
 *       operation and returns its per-phase timings.</li>
 *   <li>{@link io.ombtx.driver.api.OperationListener} and {@link io.ombtx.driver.api.PreciseConsumerCallback}
 *       on the runner's {@code ConsumerCallback}: the driver reports streaming operations and microsecond
 *       publish timestamps through them when the callback implements them.</li>
 *   <li>{@link io.ombtx.driver.api.ClientFaults} on a {@code BenchmarkDriver}: the runner kills, stops or pauses
 *       one of its transactional clients, brings it back with the same transactional id, and adds or removes
 *       stream processors (a workload's client faults).</li>
 * </ul>
 */
package io.ombtx.driver.api;

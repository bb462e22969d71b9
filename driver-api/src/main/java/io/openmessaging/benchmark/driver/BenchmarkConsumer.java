package io.openmessaging.benchmark.driver;

/** OMB SPI: a subscription; messages are pushed to the {@link ConsumerCallback} it was created with. */
public interface BenchmarkConsumer extends AutoCloseable {}

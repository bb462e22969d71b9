package io.ombtx.driver.api;

/**
 * Optionally implemented by a driver whose producers each reserve memory of their own (kafka-clients'
 * {@code buffer.memory}, 32 MiB by default): told, before any producer is created, how many this process will hold
 * and how much of its heap they may take, it makes them fit, or says they cannot. A thousand producers at the
 * client's defaults would reserve 32 GB; without this the first sign is an {@code OutOfMemoryError} mid-run.
 */
public interface ProducerBudget {

    /**
     * Makes the {@code producers} producers this driver is about to create fit in {@code bytes} of memory.
     *
     * @return one line saying what it changed (e.g. a smaller buffer, with the figures), or null when they fit as
     *     configured
     * @throws IllegalArgumentException when they cannot fit even at the driver's smallest workable setting; the
     *     message gives the figures and what to change
     */
    String fitProducers(int producers, long bytes);
}

package io.ombtx.runner.worker;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.config.LoopMode;

/**
 * How many threads send for one producer. OMB's LocalWorker spreads its producers over a few threads; omb-tx gives
 * each producer a thread of its own and, when one thread could not keep a producer's schedule, spreads that
 * producer's schedule over several: thread {@code t} of {@code n} sends operations {@code t, t + n, t + 2n, ...}
 * of the same schedule (its {@link Pacer} runs at {@code rate / n}, offset by {@code t} intervals), so the
 * operations still go out at {@code start + k / rate} and are counted from the producer's one index.
 *
 * <p>The setting is the Java system property {@value #PROPERTY} ({@code OMBTX_JAVA_OPTS=
 * -Dombtx.senderThreadsPerProducer=4}): a number from 1 to {@value #MAX}, or {@code auto} (the default).
 * {@code bin/benchmark} reads it while planning and sends it in {@link LoadSpec}; a worker falls back on its own JVM's
 * setting when none is sent ({@code auto}, or a stock OMB coordinator). Only open-loop, non-transactional PUBLISH loads are spread (a
 * Kafka producer is safe to share; a closed loop has one operation outstanding, and a transaction's operations
 * must stay on one thread); every other load keeps one thread per producer.
 */
public final class SenderThreads {

    /** The worker's system property. */
    public static final String PROPERTY = "ombtx.senderThreadsPerProducer";
    /** At most this many threads per producer. */
    public static final int MAX = 64;
    /**
     * {@code auto}: one thread per this many operations a second of one producer. A plain send costs its thread
     * about 1 µs, but a park overshoots by the timer slack (~50 µs), so above this rate one thread would send its
     * operations in bursts of ten or more, each late by up to a park's overshoot.
     */
    static final double AUTO_OPERATIONS_PER_THREAD = 200_000;

    private SenderThreads() {}

    /**
     * The setting's value: {@code null} for {@code auto}.
     *
     * @throws IllegalArgumentException naming the property and what it expects
     */
    public static Integer parse(String value) {
        if (value == null || value.isBlank() || value.strip().equals("auto")) {
            return null;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= 1 && n <= MAX) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("system property " + PROPERTY + " must be a number from 1 to " + MAX
                + " or 'auto', got '" + value + "'");
    }

    /** The worker setting as this JVM was started with it; see {@link #parse}. */
    public static Integer fromSystemProperty() {
        return parse(System.getProperty(PROPERTY));
    }

    /**
     * Threads for one producer.
     *
     * @param setting the worker setting ({@code null}: auto)
     * @param perProducerOperations the producer's operations a second (open loop)
     * @param cores processors available to the worker
     */
    public static int resolve(
            Integer setting, LoopMode loop, OperationSpec operation, double perProducerOperations, int cores) {
        if (loop != LoopMode.OPEN || operation.kind() != OperationKind.PUBLISH || operation.transactional()) {
            return 1;
        }
        if (setting != null) {
            return setting;
        }
        // Auto: by rate, but never more threads than leave a core to the client's I/O thread (and the broker, on a
        // small machine): on 2 cores that is one thread, as a second sender would take the I/O thread's core.
        int byRate = (int) Math.min(MAX, Math.ceil(perProducerOperations / AUTO_OPERATIONS_PER_THREAD));
        return Math.max(1, Math.min(byRate, cores / 2));
    }
}

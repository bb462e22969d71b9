package io.ombtx.driver.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Warnings that repeat once per operation (every send rejected): each text is logged the first time, then again
 * only with its count at the 10th, 100th, 1000th… time, so the first cause stays readable instead of scrolling away
 * under sixty copies of what followed from it.
 */
final class RepeatedWarnings {

    private final Map<String, AtomicLong> seen = new ConcurrentHashMap<>();

    /** Hands {@code message} to {@code log} (a logger's warn) the first time and at each power of ten, counted. */
    void warn(Consumer<String> log, String message) {
        long n = seen.computeIfAbsent(message, m -> new AtomicLong()).incrementAndGet();
        if (n == 1) {
            log.accept(message);
        } else if (isPowerOfTen(n)) {
            log.accept(message + " (the same " + n + " times so far)");
        }
    }

    /** How many times {@code message} was warned of. */
    long count(String message) {
        AtomicLong n = seen.get(message);
        return n == null ? 0 : n.get();
    }

    private static boolean isPowerOfTen(long n) {
        while (n >= 10 && n % 10 == 0) {
            n /= 10;
        }
        return n == 1;
    }
}

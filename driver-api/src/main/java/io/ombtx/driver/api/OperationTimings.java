package io.ombtx.driver.api;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What one operation cost, phase by phase, in nanoseconds. A phase that did not happen is absent.
 *
 * @param phaseNanos nanoseconds per phase; {@link Phase#TRANSACTION} is the whole operation
 * @param messages messages the operation wrote (or, for STREAM, source records it processed)
 * @param outcome how the operation ended
 * @param abortedAttempts attempts aborted and retried before this outcome
 * @param fatalErrors fatal producer errors (fenced, out-of-order sequence, authorization) that forced a new producer
 * @param sequence the phases in the order they ran (a phase timed twice in a row appears once); empty when the
 *     driver does not say
 */
public record OperationTimings(
        Map<Phase, Long> phaseNanos, int messages, Outcome outcome, int abortedAttempts, int fatalErrors,
        List<Phase> sequence) {

    public OperationTimings(Map<Phase, Long> phaseNanos, int messages, Outcome outcome, int abortedAttempts,
            int fatalErrors) {
        this(phaseNanos, messages, outcome, abortedAttempts, fatalErrors, List.of());
    }

    public enum Outcome {
        /** A transaction that committed. */
        COMMITTED,
        /** A non-transactional operation whose writes were all acknowledged. */
        ACKNOWLEDGED,
        /** Gave up: the operation's writes are not in the log (or not visible). */
        FAILED
    }

    public OperationTimings {
        phaseNanos = Map.copyOf(phaseNanos);
        sequence = sequence == null ? List.of() : List.copyOf(sequence);
    }

    public long nanos(Phase phase) {
        return phaseNanos.getOrDefault(phase, -1L);
    }

    public long totalNanos() {
        return nanos(Phase.TRANSACTION);
    }

    /** Mutable helper for drivers: time phases as they happen, then {@link #build}. */
    public static final class Builder {
        private final EnumMap<Phase, Long> phases = new EnumMap<>(Phase.class);
        private final long startNanos;
        private int abortedAttempts;
        private int fatalErrors;

        public Builder(long startNanos) {
            this.startNanos = startNanos;
        }

        /** Adds {@code nanos} to a phase (a retried phase accumulates). */
        public Builder add(Phase phase, long nanos) {
            phases.merge(phase, nanos, Long::sum);
            return this;
        }

        public Builder abortedAttempt() {
            abortedAttempts++;
            return this;
        }

        public Builder fatalError() {
            fatalErrors++;
            return this;
        }

        public OperationTimings build(long endNanos, int messages, Outcome outcome) {
            return build(endNanos, messages, outcome, List.of());
        }

        /** @param sequence the phases in the order they ran */
        public OperationTimings build(long endNanos, int messages, Outcome outcome, List<Phase> sequence) {
            phases.put(Phase.TRANSACTION, endNanos - startNanos);
            return new OperationTimings(phases, messages, outcome, abortedAttempts, fatalErrors, sequence);
        }
    }
}

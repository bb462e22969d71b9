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
 * @param recovery how the operation got past failures: retries, fencing, producers replaced, the client's own resends
 */
public record OperationTimings(
        Map<Phase, Long> phaseNanos,
        int messages,
        Outcome outcome,
        int abortedAttempts,
        int fatalErrors,
        List<Phase> sequence,
        Recovery recovery) {

    /** An operation that met no failure, or whose driver reports neither its sequence nor how it recovered. */
    public OperationTimings(
            Map<Phase, Long> phaseNanos, int messages, Outcome outcome, int abortedAttempts, int fatalErrors) {
        this(phaseNanos, messages, outcome, abortedAttempts, fatalErrors, List.of(), Recovery.NONE);
    }

    public OperationTimings(
            Map<Phase, Long> phaseNanos,
            int messages,
            Outcome outcome,
            int abortedAttempts,
            int fatalErrors,
            List<Phase> sequence) {
        this(phaseNanos, messages, outcome, abortedAttempts, fatalErrors, sequence, Recovery.NONE);
    }

    public enum Outcome {
        /** A transaction that committed. */
        COMMITTED,
        /** A non-transactional operation whose writes were all acknowledged. */
        ACKNOWLEDGED,
        /** Gave up: the operation's writes are not in the log (or not visible). */
        FAILED,
        /**
         * A transaction aborted on purpose after its sends ({@link OperationSpec#abortRatio()}): not a failure, and
         * its writes are never visible to a read_committed reader.
         */
        ABORTED
    }

    /**
     * What it took to get through failures (all 0 for an operation that met none).
     *
     * @param retries attempts begun again after a failed one, plus commits repeated after a time-out
     * @param fenced failures that said this producer had been fenced (ProducerFenced, InvalidProducerEpoch,
     *     TransactionCoordinatorFenced, FencedInstanceId)
     * @param producersReplaced new producers created to carry on after a fatal error
     * @param clientRetries record batches kafka-clients itself sent again during the operation (its
     *     {@code record-retry-total}: leader changes, time-outs, disconnections it recovered from unseen)
     */
    public record Recovery(int retries, int fenced, int producersReplaced, long clientRetries) {

        public static final Recovery NONE = new Recovery(0, 0, 0, 0);
    }

    public OperationTimings {
        phaseNanos = Map.copyOf(phaseNanos);
        sequence = sequence == null ? List.of() : List.copyOf(sequence);
        recovery = recovery == null ? Recovery.NONE : recovery;
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
        private int retries;
        private int fenced;
        private int producersReplaced;
        private long clientRetries;

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

        public Builder retry() {
            retries++;
            return this;
        }

        public Builder fenced() {
            fenced++;
            return this;
        }

        public Builder producerReplaced() {
            producersReplaced++;
            return this;
        }

        public Builder clientRetries(long count) {
            clientRetries += Math.max(0, count);
            return this;
        }

        public OperationTimings build(long endNanos, int messages, Outcome outcome) {
            return build(endNanos, messages, outcome, List.of());
        }

        /** @param sequence the phases in the order they ran */
        public OperationTimings build(long endNanos, int messages, Outcome outcome, List<Phase> sequence) {
            phases.put(Phase.TRANSACTION, endNanos - startNanos);
            return new OperationTimings(
                    phases,
                    messages,
                    outcome,
                    abortedAttempts,
                    fatalErrors,
                    sequence,
                    new Recovery(retries, fenced, producersReplaced, clientRetries));
        }
    }
}

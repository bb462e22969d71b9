package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationTimings;
import io.ombtx.driver.api.Phase;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.bookkeeper.stats.Counter;
import org.apache.bookkeeper.stats.OpStatsLogger;
import org.apache.bookkeeper.stats.StatsLogger;

/**
 * Reports transactions through OMB's StatsLogger, the only reporting path inside stock OMB: one OpStatsLogger per
 * phase under scope {@code tx} (microseconds), one for the messages each transaction held
 * ({@code messagesPerTransaction}, a value, not a time), counters for committed, aborted (attempts aborted after a
 * failure), abortedOnPurpose (transactions aborted as {@code operation.abortRatio} asks), fatal and failed, and for
 * how failures were got past (retries, fenced, producersReplaced, clientRetries). A stock OMB worker hands its
 * Prometheus-backed logger (scope {@code benchmark}); OMB's local mode hands a NullStatsLogger. The loggers are
 * looked up once, so a report there costs a few no-op calls.
 */
final class TxStatsReporter {

    private final Map<Phase, OpStatsLogger> phases = new EnumMap<>(Phase.class);
    private final OpStatsLogger messagesPerTransaction;
    private final Counter committed;
    private final Counter aborted;
    private final Counter abortedOnPurpose;
    private final Counter fatal;
    private final Counter failed;
    private final Counter retries;
    private final Counter fenced;
    private final Counter producersReplaced;
    private final Counter clientRetries;
    private final RepeatedWarnings warnings = new RepeatedWarnings();
    private final java.util.concurrent.atomic.AtomicReference<String> firstError =
            new java.util.concurrent.atomic.AtomicReference<>();

    TxStatsReporter(StatsLogger statsLogger) {
        StatsLogger tx = statsLogger.scope("tx");
        for (Phase phase : Phase.values()) {
            phases.put(phase, tx.getOpStatsLogger(phase.key()));
        }
        messagesPerTransaction = tx.getOpStatsLogger("messagesPerTransaction");
        committed = tx.getCounter("committed");
        aborted = tx.getCounter("aborted");
        abortedOnPurpose = tx.getCounter("abortedOnPurpose");
        fatal = tx.getCounter("fatal");
        failed = tx.getCounter("failed");
        retries = tx.getCounter("retries");
        fenced = tx.getCounter("fenced");
        producersReplaced = tx.getCounter("producersReplaced");
        clientRetries = tx.getCounter("clientRetries");
    }

    /** Records one finished operation: its phases, and a committed, aborted-on-purpose or failed count. */
    void report(OperationTimings timings) {
        timings.phaseNanos().forEach((phase, nanos) -> phases.get(phase)
                .registerSuccessfulEvent(nanos / 1_000, TimeUnit.MICROSECONDS));
        switch (timings.outcome()) {
            case COMMITTED -> {
                committed.inc();
                messagesPerTransaction.registerSuccessfulValue(timings.messages());
            }
            case FAILED -> {
                failed.inc();
                messagesPerTransaction.registerFailedValue(timings.messages());
            }
            case ABORTED -> abortedOnPurpose.inc();
            case ACKNOWLEDGED -> {}
        }
        OperationTimings.Recovery recovery = timings.recovery();
        if (!recovery.equals(OperationTimings.Recovery.NONE)) {
            retries.add(recovery.retries());
            fenced.add(recovery.fenced());
            producersReplaced.add(recovery.producersReplaced());
            clientRetries.add(recovery.clientRetries());
        }
    }

    /** Notes a failed attempt: the first one's first cause is kept ({@link #firstError()}). */
    void failed(Throwable error) {
        if (firstError.get() == null && error != null) {
            firstError.compareAndSet(null, ErrorClassifier.firstCause(error));
        }
    }

    /** Repeated warnings of this driver's operations, each logged once with a count. */
    RepeatedWarnings warnings() {
        return warnings;
    }

    /** The first cause of the first failed attempt, or null (see {@code ScenarioDriver.firstError}). */
    String firstError() {
        return firstError.get();
    }

    /** Counted as they happen, so a run cut short still shows them. */
    void aborted() {
        aborted.inc();
    }

    void fatal() {
        fatal.inc();
    }
}

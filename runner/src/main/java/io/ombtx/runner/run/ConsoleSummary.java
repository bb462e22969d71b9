package io.ombtx.runner.run;

import io.ombtx.driver.api.Phase;
import io.ombtx.runner.fault.FaultSummary;
import io.ombtx.runner.result.LatencySummary;
import io.ombtx.runner.result.RunResult;
import java.util.Locale;
import java.util.Map;

/**
 * A written run on the console, read from its result record: where it went, its latencies, phases, faults and the
 * live check's verdict.
 */
final class ConsoleSummary {
    /** The live check's violations printed (the result keeps more). */
    private static final int SHOWN_VIOLATIONS = 5;

    private final RunConsole console;

    ConsoleSummary(RunConsole console) {
        this.console = console;
    }

    void print(RunCoordinator.Outcome outcome) {
        RunResult result = outcome.result();
        String where = outcome.unsaved() == null
                ? "written to " + outcome.resultFile()
                : outcome.resultFile() == null
                        ? "NOT saved (" + outcome.unsaved() + ", and every fallback folder failed too)"
                        : "kept in " + outcome.resultFile() + " (" + outcome.unsaved() + ")";
        if (result.status() == RunResult.Status.FAILED) {
            console.say("Run FAILED (%s); result %s", result.failureReason(), where);
        } else if (result.partialReason() != null) {
            console.say("Run ended early (%s); partial result %s", result.partialReason(), where);
        } else {
            console.say("Result %s", where);
        }
        if (result.status() == RunResult.Status.FAILED) {
            RunResult.Counts c = result.counts();
            console.say(
                    "No measured operation succeeded: %d failed, %d publish error(s), %d committed; no rates or latencies"
                            + " to report",
                    c.failed(), c.publishErrors(), c.committed());
            return;
        }
        LatencySummary ops = result.operationLatency();
        RunResult.Transactions cut = result.transactions();
        if (cut != null) {
            RunResult.CountSummary held = cut.messagesPerTransaction();
            console.say(
                    "Transactions: %,d committed, %,d failed in %.3f s | begin to commit: p50 %.3f ms, p99 %.3f ms,"
                            + " max %.3f ms | messages each: mean %.1f, p50 %d, p99 %d, max %d (cut at %d ms%s)",
                    cut.committed(),
                    cut.failed(),
                    result.summary().durationSeconds(),
                    ops.count() > 0 ? ops.p50() : Double.NaN,
                    ops.count() > 0 ? ops.p99() : Double.NaN,
                    ops.count() > 0 ? ops.max() : Double.NaN,
                    held.mean(),
                    held.p50(),
                    held.p99(),
                    held.max(),
                    cut.commitIntervalMs(),
                    cut.maxMessagesPerTransaction() == null
                            ? ""
                            : " or " + cut.maxMessagesPerTransaction() + " messages");
        } else if (ops.count() > 0) {
            console.say(
                    "Operations: %d in %.3f s | min %.3f ms | p50 %.3f ms | p99 %.3f ms | max %.3f ms",
                    ops.count(), result.summary().durationSeconds(), ops.min(), ops.p50(), ops.p99(), ops.max());
        }
        RunResult.RateVerdict rate = result.rate();
        if (rate != null) {
            String delay = rate.publishDelayP99Millis() == null
                    ? ""
                    : String.format(Locale.ROOT, ", publish delay p99 %.1f ms", rate.publishDelayP99Millis());
            if (rate.held()) {
                console.say(
                        "Rate held: %,.0f of %,.0f msg/s (%.1f%%)%s",
                        rate.achieved(), rate.target(), 100 * rate.ratio(), delay);
            } else {
                console.say(
                        "Rate NOT held: %,.0f of %,.0f msg/s (%.1f%%)%s; limited by %s (%s)",
                        rate.achieved(),
                        rate.target(),
                        100 * rate.ratio(),
                        delay,
                        rate.limitedBy() == null ? "what this run cannot tell" : rate.limitedBy(),
                        rate.evidence());
            }
        }
        Map<Phase, LatencySummary> phases = result.transactionPhases();
        if (phases.size() > 1) {
            StringBuilder line = new StringBuilder("Phases p50 (ms):");
            phases.forEach((phase, s) -> line.append(String.format(Locale.ROOT, " %s %.3f", phase.key(), s.p50())));
            console.line(line.toString());
            StringBuilder avg = new StringBuilder("Phases avg (ms):");
            phases.forEach((phase, s) -> avg.append(
                    String.format(Locale.ROOT, " %s %.3f", phase.key(), s.avg() == null ? Double.NaN : s.avg())));
            console.line(avg.toString());
        }
        RunResult.Scenario scenario = result.scenario();
        if (scenario.awaitAcks() != null || scenario.phaseSequence() != null) {
            console.say(
                    "Order: awaitAcks %s; phases ran %s",
                    scenario.awaitAcks() == null
                            ? "(driver's)"
                            : scenario.awaitAcks().key(),
                    scenario.phaseSequence() == null ? "(not reported)" : String.join(" > ", scenario.phaseSequence()));
        }
        if (result.faults() != null) {
            RunResult.Counts c = result.counts();
            console.say(
                    "Recovery: %d aborted, %d retried, %d fenced, %d producer(s) replaced, %d client resend(s), %d failed",
                    c.aborted(), c.retries(), c.fenced(), c.producersReplaced(), c.clientRetries(), c.failed());
            for (RunResult.FaultEvent f : result.faults()) {
                console.line(FaultSummary.line(f));
            }
        }
        RunResult.LiveCheck live =
                result.exactlyOnce() == null ? null : result.exactlyOnce().live();
        if (live != null) {
            console.say(
                    "Live check: %d output(s) read, %d duplicate(s), %d aborted seen, %d uncommitted, %d out of order,"
                            + " %d of no known source%s: %s",
                    live.outputsRead(),
                    live.duplicates(),
                    live.abortedSeen(),
                    live.uncommitted(),
                    live.outOfOrder(),
                    live.unknownSource(),
                    live.readToEnd() ? "" : " (stopped before the output's end)",
                    live.passed() ? "PASS" : "FAIL");
            live.violations().stream()
                    .limit(SHOWN_VIOLATIONS)
                    .forEach(v -> console.line(String.format(
                            Locale.ROOT,
                            "  %s at %.3f s: %s-%d@%d: %s",
                            v.kind().key(),
                            v.seenAtSeconds(),
                            v.topic(),
                            v.partition(),
                            v.offset(),
                            v.detail())));
        }
        if (result.status() == RunResult.Status.COMPLETE
                && !outcome.verdictFailures().isEmpty()) {
            console.say("Verdict FAILED (exit code 1): %s", String.join("; ", outcome.verdictFailures()));
        }
        RunResult.Drain d = result.drain();
        if (d != null && !d.completed()) {
            console.say(
                    "WARNING: %d message(s) sent were never received (%s): end-to-end latency leaves them out",
                    d.notReceived(),
                    result.status() == RunResult.Status.COMPLETE
                            ? "the drain gave up after " + d.limitSeconds() + " s without progress"
                            : "the run ended while draining");
        }
        if (!result.stalls().isEmpty()) {
            console.say(
                    "WARNING: nothing completed for %s in the measured phase: its figures include %s",
                    result.stalls().stream()
                            .map(st -> String.format(
                                    Locale.ROOT,
                                    "%.1f s from %.1f s%s",
                                    st.seconds(),
                                    st.atSeconds(),
                                    st.recovered() ? "" : " (still when the run ended)"))
                            .collect(java.util.stream.Collectors.joining(", ")),
                    result.stalls().size() == 1 ? "that stall" : "those stalls");
        }
    }
}

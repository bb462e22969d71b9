package io.ombtx.runner.fault;

import io.ombtx.runner.result.RunResult;
import java.util.Locale;

/** One console line per recorded fault, for the end-of-run summary. */
public final class FaultSummary {

    private FaultSummary() {}

    public static String line(RunResult.FaultEvent f) {
        StringBuilder text = new StringBuilder("Fault ")
                .append(f.fault())
                .append(": ")
                .append(f.action().key())
                .append(' ')
                .append(
                        f.target() == RunResult.FaultEvent.Target.BROKER
                                ? "broker index " + f.brokerIndex()
                                : f.index() != null
                                        ? f.target().key() + " " + f.index()
                                        : f.target().key());
        if (f.brokerId() != null) {
            text.append(" -> broker ").append(f.brokerId());
        }
        if (f.injectedAtSeconds() != null) {
            text.append(String.format(Locale.ROOT, ", injected at %.1f s", f.injectedAtSeconds()));
        }
        if (f.recoveredAtSeconds() != null) {
            text.append(String.format(
                    Locale.ROOT,
                    ", %s at %.1f s",
                    f.recovery() == RunResult.FaultEvent.Recovery.RESUME ? "resumed" : "restarted",
                    f.recoveredAtSeconds()));
        }
        if (f.rejoinedAtSeconds() != null) {
            text.append(String.format(
                    Locale.ROOT,
                    f.target().isClient() ? ", new instance ready at %.1f s" : ", serving again at %.1f s",
                    f.rejoinedAtSeconds()));
        }
        if (f.abortedTransactions() != null) {
            text.append(String.format(
                    Locale.ROOT,
                    "; %d transaction(s) aborted, %d record(s) processed again, %d fencing(s), %d zombie commit(s)",
                    f.abortedTransactions(),
                    f.reprocessedRecords(),
                    f.fencings(),
                    f.zombieCommits()));
            if (f.stallSeconds() != null) {
                text.append(String.format(Locale.ROOT, ", stall %.3f s", f.stallSeconds()));
            }
        }
        if (f.error() != null) {
            text.append("; ERROR: ").append(f.error());
        }
        if (f.note() != null) {
            text.append(" (").append(f.note()).append(')');
        }
        return text.toString();
    }
}

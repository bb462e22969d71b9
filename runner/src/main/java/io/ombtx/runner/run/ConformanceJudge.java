package io.ombtx.runner.run;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.runner.config.Guarantee;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.result.RunResult.Conformance.Verdict;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Judges a guarantee the run's own checks measured (docs/conformance.md): each verdict from the counts of the
 * exactly-once check after the run, the live check and the client faults' records, with the first violation seen.
 * A guarantee whose check did not run, or whose run never exercised it (no transaction aborted, no fault carried
 * out), is not judged: a pass must mean the broker was put to the test.
 */
final class ConformanceJudge {

    private ConformanceJudge() {}

    /**
     * @param exactlyOnce the check after the run, or null when it did not run
     * @param live the live check, or null when it did not run
     * @param faults the faults' records, or null when none was declared
     * @param abortedOnPurpose transactions the measured phase aborted on purpose
     * @param start the measurement's start, from which a violation's time is told
     */
    static RunResult.Conformance judge(
            Guarantee g,
            ExactlyOnceReport exactlyOnce,
            LiveCheckReport live,
            List<RunResult.FaultEvent> faults,
            long abortedOnPurpose,
            Instant start) {
        if (exactlyOnce == null || live == null) {
            return notJudged(g, "the exactly-once check" + (exactlyOnce == null ? "" : " (live)") + " did not run");
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("checked", exactlyOnce.checked());
        counts.put("outputsRead", live.outputsRead());
        return switch (g) {
            case ABORTED_INVISIBLE -> {
                counts.put("abortedOnPurpose", abortedOnPurpose);
                counts.put("abortedSeen", exactlyOnce.abortedSeen());
                counts.put("abortedSeenLive", live.abortedSeen());
                if (abortedOnPurpose == 0) {
                    yield new RunResult.Conformance(
                            g.id(), g.title(), Verdict.NOT_JUDGED, counts, null, "no transaction was aborted");
                }
                boolean broken = exactlyOnce.abortedSeen() > 0 || live.abortedSeen() > 0;
                yield verdict(
                        g,
                        counts,
                        broken,
                        first(live, LiveCheckReport.Kind.ABORTED, start),
                        exactlyOnce.abortedSeen() + " record(s) of aborted transactions read with read_committed after"
                                + " the run");
            }
            case OFFSETS_ATOMIC -> {
                counts.put("uncommitted", live.uncommitted());
                counts.put("missing", exactlyOnce.missing());
                counts.put("unexpected", exactlyOnce.unexpected());
                boolean broken = live.uncommitted() > 0 || exactlyOnce.missing() > 0 || exactlyOnce.unexpected() > 0;
                yield verdict(
                        g,
                        counts,
                        broken,
                        first(live, LiveCheckReport.Kind.UNCOMMITTED, start),
                        exactlyOnce.missing() + " processed source record(s) missing from the committed output, "
                                + exactlyOnce.unexpected() + " output(s) of no processed source record");
            }
            case NO_DUPLICATES_AFTER_KILL -> {
                List<RunResult.FaultEvent> declared = clientFaults(faults, RunResult.FaultEvent.Action.KILL);
                List<RunResult.FaultEvent> kills = declared.stream()
                        .filter(RunResult.FaultEvent::succeeded)
                        .toList();
                counts.put("kills", (long) kills.size());
                counts.put(
                        "reprocessedRecords",
                        kills.stream()
                                .mapToLong(f -> f.reprocessedRecords() == null ? 0 : f.reprocessedRecords())
                                .sum());
                counts.put("duplicated", exactlyOnce.duplicated());
                counts.put("duplicatesLive", live.duplicates());
                counts.put("missing", exactlyOnce.missing());
                boolean broken = exactlyOnce.duplicated() > 0 || live.duplicates() > 0 || exactlyOnce.missing() > 0;
                if (kills.isEmpty() && !broken) {
                    yield new RunResult.Conformance(
                            g.id(), g.title(), Verdict.NOT_JUDGED, counts, null, notCarriedOut("kill", declared));
                }
                yield verdict(
                        g,
                        counts,
                        broken,
                        first(live, LiveCheckReport.Kind.DUPLICATE, start),
                        exactlyOnce.duplicated() + " source record(s) more than once and " + exactlyOnce.missing()
                                + " missing in the committed output after the run",
                        errors(declared));
            }
            case ZOMBIE_FENCED -> {
                List<RunResult.FaultEvent> declared = clientFaults(faults, RunResult.FaultEvent.Action.PAUSE);
                List<RunResult.FaultEvent> pauses = declared.stream()
                        .filter(RunResult.FaultEvent::succeeded)
                        .toList();
                long fencings = pauses.stream()
                        .mapToLong(f -> f.fencings() == null ? 0 : f.fencings())
                        .sum();
                long zombieCommits = pauses.stream()
                        .mapToLong(f -> f.zombieCommits() == null ? 0 : f.zombieCommits())
                        .sum();
                counts.put("zombies", (long) pauses.size());
                counts.put("fencings", fencings);
                counts.put("zombieCommits", zombieCommits);
                counts.put("duplicated", exactlyOnce.duplicated());
                counts.put("duplicatesLive", live.duplicates());
                boolean duplicates = exactlyOnce.duplicated() > 0 || live.duplicates() > 0;
                if (pauses.isEmpty() && !duplicates) {
                    yield new RunResult.Conformance(
                            g.id(), g.title(), Verdict.NOT_JUDGED, counts, null, notCarriedOut("pause", declared));
                }
                boolean broken = zombieCommits > 0 || duplicates || fencings < pauses.size();
                String first = zombieCommits > 0
                        ? zombieCommits + " commit(s) of the zombie accepted after its replacement started"
                        : duplicates
                                ? first(live, LiveCheckReport.Kind.DUPLICATE, start)
                                : "the zombie's commit was not refused as fenced";
                yield verdict(
                        g,
                        counts,
                        broken,
                        first,
                        exactlyOnce.duplicated() + " source record(s) more than once in the committed output after"
                                + " the run",
                        errors(declared));
            }
            case PARTITION_ORDER -> {
                counts.put("outOfOrder", live.outOfOrder());
                if (!live.readToEnd()) {
                    yield new RunResult.Conformance(
                            g.id(),
                            g.title(),
                            Verdict.NOT_JUDGED,
                            counts,
                            null,
                            "the live check did not read the output to its end");
                }
                yield verdict(
                        g, counts, live.outOfOrder() > 0, first(live, LiveCheckReport.Kind.OUT_OF_ORDER, start), null);
            }
            default -> throw new IllegalArgumentException(g.id() + " is judged by a probe of the cluster");
        };
    }

    /** A guarantee whose check did not run. */
    static RunResult.Conformance notJudged(Guarantee g, String why) {
        return new RunResult.Conformance(g.id(), g.title(), Verdict.NOT_JUDGED, Map.of(), null, why);
    }

    private static RunResult.Conformance verdict(
            Guarantee g, Map<String, Long> counts, boolean broken, String firstLive, String afterTheRun) {
        return verdict(g, counts, broken, firstLive, afterTheRun, null);
    }

    /** @param note what else the verdict should say (a declared fault that could not be carried out), or null */
    private static RunResult.Conformance verdict(
            Guarantee g, Map<String, Long> counts, boolean broken, String firstLive, String afterTheRun, String note) {
        if (!broken) {
            return new RunResult.Conformance(g.id(), g.title(), Verdict.PASS, counts, null, note);
        }
        return new RunResult.Conformance(
                g.id(), g.title(), Verdict.FAIL, counts, firstLive != null ? firstLive : afterTheRun, note);
    }

    /** The declared faults' errors in one line, or null when each was carried out. */
    private static String errors(List<RunResult.FaultEvent> declared) {
        List<String> errors = declared.stream()
                .filter(f -> !f.succeeded())
                .map(f -> f.fault() + ": " + (f.error() != null ? f.error() : "not carried out"))
                .toList();
        return errors.isEmpty() ? null : String.join("; ", errors);
    }

    private static String notCarriedOut(String action, List<RunResult.FaultEvent> declared) {
        String errors = errors(declared);
        return declared.isEmpty()
                ? "no client " + action + " was declared"
                : "no client " + action + " was carried out" + (errors == null ? "" : " (" + errors + ")");
    }

    private static List<RunResult.FaultEvent> clientFaults(
            List<RunResult.FaultEvent> faults, RunResult.FaultEvent.Action action) {
        return faults == null
                ? List.of()
                : faults.stream()
                        .filter(f -> f.action() == action && f.index() != null)
                        .toList();
    }

    /** The live check's first violation of {@code kind}, where and when, or null when it saw none. */
    private static String first(LiveCheckReport live, LiveCheckReport.Kind kind, Instant start) {
        return live.violations().stream()
                .filter(v -> v.kind() == kind)
                .findFirst()
                .map(v -> String.format(
                        Locale.ROOT,
                        "%s-%d@%d, seen %s: %s",
                        v.topic(),
                        v.partition(),
                        v.offset(),
                        when(v.seenEpochMillis() - start.toEpochMilli()),
                        v.detail()))
                .orElse(null);
    }

    /** When, from the measurement's start: "12.5 s into the measurement", or "2.9 s before it (warm-up)". */
    private static String when(long millis) {
        return millis >= 0
                ? String.format(Locale.ROOT, "%.1f s into the measurement", millis / 1000.0)
                : String.format(Locale.ROOT, "%.1f s before the measurement (warm-up)", -millis / 1000.0);
    }
}

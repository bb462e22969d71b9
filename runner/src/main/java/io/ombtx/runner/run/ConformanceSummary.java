package io.ombtx.runner.run;

import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.result.RunResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The end of a suite that judged broker guarantees: one line per run that judged one, the broker (system and release,
 * as the cluster showed them), the guarantee and its verdict, so that "Tansu breaks aborted-invisible" reads as a
 * verdict on the broker and not as omb-tx failing.
 */
public final class ConformanceSummary {

    private ConformanceSummary() {}

    /** Prints the summary of the results in {@code folder}; nothing when none of them judged a guarantee. */
    public static void print(Path folder, PrintStream out) {
        if (!Files.isDirectory(folder)) {
            return;
        }
        List<RunResult> judged = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                try {
                    RunResult r = ResultReader.read(file);
                    if (r.conformance() != null) {
                        judged.add(r);
                    }
                } catch (IOException | RuntimeException e) {
                    // Not a result of this suite (or not one at all): the report reads the folder on its own terms.
                }
            }
        } catch (IOException e) {
            return;
        }
        if (judged.isEmpty()) {
            return;
        }
        judged.sort(Comparator.comparing((RunResult r) -> ConformanceLine.brokerName(r.broker()))
                .thenComparing(r -> r.conformance().guarantee()));
        long broken = judged.stream()
                .filter(r -> r.conformance().verdict() == RunResult.Conformance.Verdict.FAIL)
                .count();
        out.printf(
                Locale.ROOT,
                "Conformance: %d guarantee verdict(s), %d broken (a verdict on the broker, not a failure of the run):%n",
                judged.size(),
                broken);
        for (RunResult r : judged) {
            RunResult.Conformance c = r.conformance();
            out.printf(
                    Locale.ROOT,
                    "  %-14s %-28s %-10s%s%n",
                    ConformanceLine.brokerName(r.broker()),
                    c.guarantee(),
                    c.verdict().key().toUpperCase(Locale.ROOT),
                    c.firstViolation() != null ? c.firstViolation() : c.note() != null ? c.note() : "");
        }
    }
}

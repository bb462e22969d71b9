package io.ombtx.runner.run;

import io.ombtx.runner.result.RunResult;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Collectors;

/** The transaction coordinators' load as the console says it, in one line. */
final class CoordinatorLine {

    private CoordinatorLine() {}

    static String of(RunResult.Coordinators c) {
        long ended = c.committed() + c.aborted();
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "Coordinators: %,d transaction(s) ended in the measured phase (%,d committed, %,d aborted) for"
                        + " %d transactional id(s) in %d of %d %s partitions",
                ended,
                c.committed(),
                c.aborted(),
                c.transactionalIds(),
                c.partitionsUsed(),
                c.partitions(),
                c.log()));
        if (ended == 0) {
            return line.toString();
        }
        c.byPartition().stream()
                .max(Comparator.comparingLong(p -> p.committed() + p.aborted()))
                .ifPresent(p -> line.append(String.format(
                        Locale.ROOT,
                        "; busiest partition %d (broker %d) %.1f%%",
                        p.partition(),
                        p.leader(),
                        100 * c.busiestShare())));
        line.append("; by broker: ")
                .append(c.byBroker().stream()
                        .map(b -> String.format(
                                Locale.ROOT, "%d %.0f%%", b.broker(), 100.0 * (b.committed() + b.aborted()) / ended))
                        .collect(Collectors.joining(", ")));
        return line.toString();
    }
}

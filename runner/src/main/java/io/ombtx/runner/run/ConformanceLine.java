package io.ombtx.runner.run;

import io.ombtx.runner.result.RunResult;
import java.util.stream.Collectors;

/** A conformance verdict in one console line: which broker, which guarantee, the verdict, its counts, why. */
final class ConformanceLine {

    private ConformanceLine() {}

    /** @param broker the cluster the run judged, or null */
    static String of(RunResult.Conformance c, RunResult.Broker broker) {
        String counts = c.counts().entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        StringBuilder line = new StringBuilder("Conformance of ")
                .append(brokerName(broker))
                .append(": ")
                .append(c.guarantee())
                .append(" (")
                .append(c.title())
                .append("): ")
                .append(c.verdict().key().toUpperCase(java.util.Locale.ROOT));
        if (!counts.isEmpty()) {
            line.append(" [").append(counts).append(']');
        }
        if (c.firstViolation() != null) {
            line.append("; first violation: ").append(c.firstViolation());
        }
        if (c.note() != null) {
            line.append("; ").append(c.note());
        }
        return line.toString();
    }

    /** The system and release the cluster showed, e.g. {@code tansu 0.6.0}; "the cluster" when it showed none. */
    static String brokerName(RunResult.Broker broker) {
        if (broker == null || broker.system() == null) {
            return "the cluster";
        }
        String system = broker.system().key();
        return broker.version() == null ? system : system + " " + broker.version();
    }
}

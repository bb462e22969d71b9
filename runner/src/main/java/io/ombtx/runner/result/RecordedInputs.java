package io.ombtx.runner.result;

import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The statistics a real run handed {@link ResultBuilder}: the measured snapshot and the reporting periods, in the
 * worker protocol's wire form. Written beside nothing else, only when asked ({@code -Dombtx.recordResultInputs=DIR},
 * e.g. through {@code OMBTX_JAVA_OPTS}), so that the result of a real run can be rebuilt from what was measured and
 * compared with what the run wrote (the recorded fixtures in {@code runner/src/test/resources/recorded-results/}).
 * Everything else the builder takes is in the result file itself, and the workload in its YAML.
 *
 * @param workload the workload's name
 * @param startTime when the run started (ISO-8601), to pair this file with its result
 */
public record RecordedInputs(
        String workload, String startTime, StatsSnapshot.Wire measured, List<RecordedPeriod> periods) {

    /** The system property naming the folder to record into. */
    public static final String PROPERTY = "ombtx.recordResultInputs";

    /** One reporting period as {@link Period} holds it. */
    public record RecordedPeriod(double seconds, double elapsedSeconds, long backlog, StatsSnapshot.Wire stats) {}

    public static RecordedInputs of(ResultBuilder.RunFacts facts, StatsSnapshot measured, List<Period> periods) {
        return new RecordedInputs(
                facts.workload().name(),
                facts.startTime().toString(),
                measured.toWire(),
                periods.stream()
                        .map(p -> new RecordedPeriod(
                                p.seconds(),
                                p.elapsedSeconds(),
                                p.backlog(),
                                p.stats().toWire()))
                        .toList());
    }

    public StatsSnapshot measuredSnapshot() {
        return StatsSnapshot.fromWire(measured);
    }

    public List<Period> periodList() {
        return periods.stream()
                .map(p -> new Period(p.seconds(), p.elapsedSeconds(), StatsSnapshot.fromWire(p.stats()), p.backlog()))
                .toList();
    }

    /** Writes {@code DIR/WORKLOAD-STARTMILLIS.inputs.json} when {@link #PROPERTY} names a folder. */
    static void recordIfAsked(ResultBuilder.RunFacts facts, StatsSnapshot measured, List<Period> periods) {
        String dir = System.getProperty(PROPERTY);
        if (dir == null || dir.isBlank()) {
            return;
        }
        Path file = Path.of(dir)
                .resolve(facts.workload().name() + "-" + facts.startTime().toEpochMilli() + ".inputs.json");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, ResultWriter.json().writeValueAsString(of(facts, measured, periods)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the result's inputs to " + file, e);
        }
    }
}

package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.AsRecorded;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.CpuMeter;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The builder checked against what real runs wrote: each fixture in {@code recorded-results/} is a result file a
 * real run of {@code bin/benchmark} wrote, unedited, with the statistics that run handed {@link ResultBuilder}
 * ({@link RecordedInputs}, recorded with {@code -Dombtx.recordResultInputs}). Rebuilt from those statistics, the
 * run's facts as the file states them and the workload from its YAML, the result is the file, byte for byte.
 */
class RecordedResultsTest {

    /**
     * One recorded run.
     *
     * @param name the fixture's name: {@code NAME.json} and {@code NAME.inputs.json}
     * @param workload the workload file, from the repository's root (or beside the fixtures)
     * @param profile the {@code --profile} it ran with, or null
     */
    record Recorded(String name, String workload, String profile) {

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Recorded> recorded() {
        return List.of(
                new Recorded("tx-writes", "workloads/tx-writes.yaml", "quick"),
                new Recorded("tx-streaming", "workloads/tx-streaming.yaml", "quick"),
                new Recorded("time-based-open", "time-based-open.yaml", null),
                new Recorded("tx-publish-open", "tx-publish-open.yaml", null));
    }

    private static Path fixtures() {
        try {
            return Path.of(
                    RecordedResultsTest.class.getResource("/recorded-results").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Workload workload(Recorded run, String name) {
        Path inRepository = OmbTxHome.locate().resolve(run.workload());
        Path file = Files.exists(inRepository) ? inRepository : fixtures().resolve(run.workload());
        return WorkloadLoader.load(file, run.profile()).stream()
                .filter(w -> w.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(file + " has no run named " + name));
    }

    /** The facts the run handed the builder, as its result file states them. */
    private static ResultBuilder.RunFacts facts(RunResult written, Workload workload) {
        // The builder adds the phase-sequence counts to what the driver reported.
        Map<String, Object> reported = new LinkedHashMap<>(written.environment());
        reported.remove(ResultBuilder.ENVIRONMENT_PHASE_SEQUENCES);
        RunResult.ExactlyOnce eo = written.exactlyOnce();
        return ResultBuilder.RunFacts.builder()
                .workload(AsRecorded.workload(workload))
                .driverName(written.driver())
                .startTime(written.startTime())
                .endTime(written.endTime())
                .partialReason(written.partialReason())
                .runMode(written.runMode())
                .versions(written.versions())
                .broker(written.broker())
                .driverConfig(written.driverConfig())
                .environment(reported)
                .exactlyOnce(
                        eo == null
                                ? null
                                : new ExactlyOnceReport(eo.checked(), eo.duplicated(), eo.missing(), eo.unexpected()))
                .repetition(written.repetition())
                .faults(written.faults())
                .drain(written.drain())
                .host(written.host())
                .clientWarnings(written.clientWarnings())
                .cpu(
                        written.rate() == null || written.rate().cores() == null
                                ? null
                                : new CpuMeter.Use(
                                        written.rate().loadGeneratorCpu(),
                                        written.rate().machineCpu(),
                                        written.rate().cores()))
                .build();
    }

    private static RecordedInputs inputs(Recorded run) throws IOException {
        return ResultWriter.json()
                .readValue(fixtures().resolve(run.name() + ".inputs.json").toFile(), RecordedInputs.class);
    }

    /**
     * The result of {@code run} built afresh by {@link ResultBuilder} from what the run measured, its facts as its file
     * states them and its workload's YAML.
     */
    static RunResult rebuild(Recorded run) throws IOException {
        RunResult written = ResultReader.read(fixtures().resolve(run.name() + ".json"));
        RecordedInputs inputs = inputs(run);
        return ResultBuilder.build(
                facts(written, workload(run, written.workload())), inputs.measuredSnapshot(), inputs.periodList());
    }

    @ParameterizedTest
    @MethodSource("recorded")
    void theBuilderWritesWhatTheRealRunWrote(Recorded run) throws Exception {
        Path resultFile = fixtures().resolve(run.name() + ".json");
        String original = Files.readString(resultFile);
        RunResult written = ResultReader.read(resultFile);
        RecordedInputs inputs = inputs(run);
        assertEquals(written.workload(), inputs.workload());
        assertEquals(written.startTime().toString(), inputs.startTime(), "the inputs of this very run");
        assertFalse(inputs.periods().isEmpty());

        RunResult rebuilt = rebuild(run);

        String rewritten = ResultWriter.json().writeValueAsString(rebuilt);
        assertEquals(ResultWriter.json().readTree(original), ResultWriter.json().readTree(rewritten), "same JSON");
        assertEquals(original, rewritten, "same bytes");
        assertTrue(
                written.counts().operations() > 0
                        && written.counts().operations()
                                == inputs.measuredSnapshot().counter(Counter.OPERATIONS),
                "a run that measured something");
    }
}

package io.ombtx.runner.run;

import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.plan.AsRecorded;
import io.ombtx.runner.plan.Measurement;
import io.ombtx.runner.plan.Repetition;
import io.ombtx.runner.plan.Repetitions;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.result.HostFacts;
import io.ombtx.runner.result.ResultBuilder;
import io.ombtx.runner.result.ResultWriter;
import io.ombtx.runner.result.RunResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;

/** Where a run's result goes: built from what was measured (the one call of {@link ResultBuilder}) and written. */
final class ResultSink {
    private final RunOptions options;

    ResultSink(RunOptions options) {
        this.options = options;
    }

    RunCoordinator.Outcome write(
            RunSpec spec,
            DriverFile driver,
            RunResult.Broker broker,
            Execution.Measured m,
            List<RunResult.ClientWarning> clientWarnings)
            throws IOException {
        Measurement w = spec.measurement();
        ResultBuilder.RunFacts facts = new ResultBuilder.RunFacts(
                spec.recorded(),
                driver.name(),
                m.startTime(),
                m.endTime(),
                m.partialReason(),
                AsRecorded.runMode(w, spec.reportingIntervalSeconds()).withSearch(m.rateSearch()),
                RunResult.Versions.of(broker, m.environment()),
                broker,
                driver.redacted(),
                m.environment(),
                m.exactlyOnce(),
                m.liveCheck(),
                repetition(spec.repetition(), Repetitions.newGroupId(m.startTime())),
                m.faults(),
                m.drain(),
                m.stalls(),
                m.failureReason(),
                HostFacts.host(broker),
                clientWarnings,
                m.cpu(),
                m.coordinators(),
                m.conformance());
        RunResult result = ResultBuilder.build(facts, m.stats(), m.periods());
        String fileStem = spec.repetition() == null || spec.repetition().count() == 1
                ? w.name()
                : w.name() + "-rep" + spec.repetition().index();
        Path target = options.outputFile() != null
                ? options.outputFile()
                : ResultWriter.defaultPath(options.outputDir(), fileStem, driver.name(), ZonedDateTime.now());
        ResultWriter.Saved saved = ResultWriter.writeOrKeep(target, result);
        String problem = saved.problem();
        if (problem == null && options.outputFile() != null && !target.equals(saved.file())) {
            // Checked free before the run; something else wrote there since. The name asked for holds another file.
            problem = target + " appeared during the run and is not replaced";
        }
        return new RunCoordinator.Outcome(saved.file(), result, problem);
    }

    /** The plan's repetition as the result records it; a run planned once is repetition 1 of 1 in a group of its own. */
    private static RunResult.Repetition repetition(Repetition planned, String ownGroup) {
        return planned == null
                ? new RunResult.Repetition(1, 1, ownGroup, false, null)
                : new RunResult.Repetition(
                        planned.index(), planned.count(), planned.group(), planned.interleaved(), planned.comparison());
    }
}

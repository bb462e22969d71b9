package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.PlanOptions;
import io.ombtx.runner.plan.Planner;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.worker.LoadSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spell in which nothing completes, which the run survives (an undeclared broker pause: 28 s at rate 0 once ended
 * "complete" with no word), is said on the console and recorded in the result's {@code stalls}.
 */
class StallTest {

    @TempDir
    Path dir;

    /**
     * A worker whose load completes 100 operations a second from its start, each one message acknowledged and
     * received, except that from {@code freezeFrom} to {@code freezeUntil} seconds nothing completes (the counts stay
     * as they were); then they jump to where they would have been. What it started is not reported as progress.
     */
    static final class FreezingWorker extends QuietWorker {
        private final double freezeFrom;
        private final double freezeUntil;
        private volatile long startNanos;

        FreezingWorker(double freezeFrom, double freezeUntil) {
            this.freezeFrom = freezeFrom;
            this.freezeUntil = freezeUntil;
        }

        @Override
        public void startLoad(LoadSpec load) {
            startNanos = System.nanoTime();
        }

        @Override
        public Progress progress() {
            if (startNanos == 0) {
                return new Progress(0, 0, 0, 0, null);
            }
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            double counted = seconds >= freezeFrom && seconds < freezeUntil ? freezeFrom : seconds;
            long done = (long) (100 * counted);
            return new Progress((long) (100 * seconds), done, done, done, null);
        }
    }

    private RunResult run(FreezingWorker worker, int seconds, ByteArrayOutputStream console) throws Exception {
        Path driver = Files.writeString(
                dir.resolve("driver.yaml"),
                "name: d\ndriverClass: "
                        + "io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\ncommonConfig: |\n  bootstrap.servers=h1:9092\n");
        Path workload = Files.writeString(
                dir.resolve("w.yaml"),
                "name: w\nmessageSize: 10\nsubscriptionsPerTopic: 0\nproducerRate: 100\nwarmupDurationSeconds: 0\ntestDurationSeconds: "
                        + seconds + "\nreportingIntervalSeconds: 1\n");
        RunSpec spec = Planner.plan(
                        List.of(DriverFile.load(driver)),
                        WorkloadLoader.load(workload, null),
                        PlanOptions.builder().build())
                .get(0);
        RunCoordinator coordinator = new RunCoordinator(
                new RunOptions(dir.resolve("out"), null, false),
                new PrintStream(console, true, StandardCharsets.UTF_8),
                name -> worker,
                new Interruption());
        return coordinator
                .execute(spec, spec.driver(), RunResult.Broker.external(1, "h1:9092"))
                .result();
    }

    @Test
    void aSpellWithoutCompletionsIsRecordedAndSaidAndAnEvenRunHasNone() throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        RunResult stalled = run(new FreezingWorker(1, 7), 9, console);
        String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(RunResult.Status.COMPLETE, stalled.status(), log);
        assertEquals(1, stalled.stalls().size(), stalled.stalls() + "\n" + log);
        RunResult.Stall stall = stalled.stalls().get(0);
        assertTrue(stall.recovered(), stall.toString());
        // The last completion was seen at a poll at or after the freeze began (the load starts just before the
        // measurement, so a little earlier on the measurement's clock); the next change only after it ended.
        assertTrue(stall.atSeconds() >= 0.5 && stall.atSeconds() < 7, stall.toString());
        assertTrue(stall.atSeconds() + stall.seconds() >= 6.5, stall.toString());
        assertTrue(stall.seconds() >= MeasurementLoop.STALL_SECONDS && stall.seconds() <= 8, stall.toString());
        assertTrue(
                log.contains(String.format(
                        java.util.Locale.ROOT,
                        "STALLED %.1f s from %.1f s into the measurement",
                        stall.seconds(),
                        stall.atSeconds())),
                log);
        assertTrue(log.contains("WARNING: nothing completed for "), log);

        ByteArrayOutputStream quiet = new ByteArrayOutputStream();
        RunResult even = run(new FreezingWorker(100, 100), 3, quiet);
        assertEquals(List.of(), even.stalls(), quiet.toString(StandardCharsets.UTF_8));
        assertFalse(quiet.toString(StandardCharsets.UTF_8).contains("STALLED"));
    }
}

package io.ombtx.runner.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ombtx.runner.metrics.LiveMetrics;
import io.ombtx.runner.stats.StatsSnapshot;

/**
 * A worker's live metrics, fed from what the coordinator asks of it: each {@code /period-stats} answer is counted and
 * its quantiles set, as the coordinator's own period line is made from it. The worker learns the run's state from the
 * same requests: warm-up from {@code /start-load} until {@code /reset-stats} (a time-based warm-up's end, as OMB's
 * coordinator and omb-tx's send it) or, in a count-based run, until its first measured operation; done at
 * {@code /stop-all}. Nothing here changes what the worker answers.
 */
final class WorkerMetrics {

    /** The run label when the coordinator names no run (stock OMB's). */
    static final String UNNAMED_RUN = "omb";

    private final LiveMetrics metrics;
    private String driver = "";
    private LiveMetrics.Run run;
    private LoadSpec load;
    private boolean reset;
    private boolean done;
    private long lastPeriodNanos;

    WorkerMetrics(LiveMetrics metrics) {
        this.metrics = metrics;
    }

    /** A new driver: the next run's driver label is its {@code name:}. */
    synchronized void driverInitialized(String driverYaml) {
        driver = driverName(driverYaml);
        run = null;
    }

    /** A new run: omb-tx's coordinator sends its id with the topics (null from stock OMB's). */
    synchronized void topicsCreated(String runId) {
        run = metrics.run(runId != null ? runId : UNNAMED_RUN, driver);
        load = null;
        reset = false;
        done = false;
    }

    synchronized void loadStarted(LoadSpec spec) {
        if (run == null) {
            topicsCreated(null);
        }
        load = spec;
        lastPeriodNanos = System.nanoTime();
        run.state(countBased() ? LiveMetrics.State.MEASURE : LiveMetrics.State.WARM_UP);
    }

    synchronized void statsReset() {
        reset = true;
        if (run != null && !done) {
            run.state(LiveMetrics.State.MEASURE);
        }
    }

    synchronized void stopped() {
        if (run != null && load != null) {
            done = true;
            run.state(LiveMetrics.State.DONE);
        }
    }

    /** One period's figures, as the coordinator took them. */
    synchronized void period(StatsSnapshot stats) {
        if (run == null || load == null) {
            return;
        }
        long now = System.nanoTime();
        double seconds = (now - lastPeriodNanos) / 1e9;
        lastPeriodNanos = now;
        // A count-based worker records only measured operations; a time-based one measures from the reset.
        LiveMetrics.State state = countBased() || reset ? LiveMetrics.State.MEASURE : LiveMetrics.State.WARM_UP;
        run.period(state, seconds, stats, -1);
    }

    private boolean countBased() {
        return load != null && (load.warmupOperations() > 0 || load.measureOperations() > 0);
    }

    /** A driver YAML's {@code name:}, or "" when it has none. */
    static String driverName(String yaml) {
        try {
            return new ObjectMapper(new YAMLFactory())
                    .readTree(yaml)
                    .path("name")
                    .asText("");
        } catch (Exception e) {
            return ""; // the driver's own reader says what is wrong with it
        }
    }
}

package io.ombtx.runner.metrics;

import io.ombtx.driver.api.Phase;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The live metrics a runner or a worker serves on {@code /metrics} ({@link MetricsServer}), in a registry of their
 * own. They are fed where the console's period line is made, from the period's {@link StatsSnapshot}: once a
 * reporting period, never from the load's threads, so the load pays nothing for them.
 *
 * <p>Counters count what the periods held, labelled with the state they were counted in, so that the measured
 * phase's sum is the result file's count; latencies are gauges of the last period's quantiles, as the console line
 * prints them (docs/metrics.md says why).
 */
public final class LiveMetrics {

    /** A run's state, the {@code state} label. */
    public enum State {
        WARM_UP("warm-up"),
        MEASURE("measure"),
        DONE("done");

        private final String label;

        State(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** The labels every run's series carry. */
    static final String[] RUN_LABELS = {"run", "driver", "state"};

    /** The quantiles of each latency's gauges; 1 is the period's maximum. */
    static final List<Double> QUANTILES = List.of(0.5, 0.75, 0.9, 0.99, 0.999, 1.0);

    /** The counters exported, by the worker counter each one sums. */
    private static final Map<io.ombtx.runner.stats.Counter, String[]> COUNTERS = exported();

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Map<io.ombtx.runner.stats.Counter, Counter> counters =
            new EnumMap<>(io.ombtx.runner.stats.Counter.class);
    private final Gauge runState;
    private final Gauge publishRate;
    private final Gauge consumeRate;
    private final Gauge operationRate;
    private final Gauge backlog;
    private final Gauge latency;
    private final Gauge phaseLatency;

    public LiveMetrics() {
        COUNTERS.forEach((counter, nameAndHelp) -> counters.put(
                counter,
                Counter.builder()
                        .name(nameAndHelp[0])
                        .help(nameAndHelp[1])
                        .labelNames(RUN_LABELS)
                        .withoutExemplars()
                        .register(registry)));
        runState = gauge("ombtx_run_state", "1 for the run's current state, 0 for the others");
        publishRate = gauge("ombtx_publish_rate", "messages acknowledged per second over the last period");
        consumeRate = gauge("ombtx_consume_rate", "messages received per second over the last period");
        operationRate = gauge("ombtx_operation_rate", "operations completed per second over the last period");
        backlog = gauge(
                "ombtx_backlog_messages",
                "messages sent that a subscription has not received yet, at the end of the last period"
                        + " (coordinator only)");
        latency = Gauge.builder()
                .name("ombtx_latency_seconds")
                .help("a latency's quantile over the last period (quantile 1: its maximum); latency: publish,"
                        + " publishDelay, endToEnd, intendedPublish or operation")
                .labelNames("run", "driver", "state", "latency", "quantile")
                .withoutExemplars()
                .register(registry);
        phaseLatency = Gauge.builder()
                .name("ombtx_phase_latency_seconds")
                .help("a transaction phase's quantile over the last period (quantile 1: its maximum)")
                .labelNames("run", "driver", "state", "phase", "quantile")
                .withoutExemplars()
                .register(registry);
    }

    private Gauge gauge(String name, String help) {
        return Gauge.builder()
                .name(name)
                .help(help)
                .labelNames(RUN_LABELS)
                .withoutExemplars()
                .register(registry);
    }

    private static Map<io.ombtx.runner.stats.Counter, String[]> exported() {
        Map<io.ombtx.runner.stats.Counter, String[]> m = new EnumMap<>(io.ombtx.runner.stats.Counter.class);
        m.put(io.ombtx.runner.stats.Counter.OPERATIONS, new String[] {"ombtx_operations", "operations completed"});
        m.put(
                io.ombtx.runner.stats.Counter.COMMITTED,
                new String[] {"ombtx_transactions_committed", "transactions committed"});
        m.put(io.ombtx.runner.stats.Counter.ABORTED, new String[] {
            "ombtx_transactions_aborted", "transaction attempts aborted after a failure (and retried)"
        });
        m.put(io.ombtx.runner.stats.Counter.ABORTED_ON_PURPOSE, new String[] {
            "ombtx_transactions_aborted_on_purpose", "transactions aborted on purpose (operation.abortRatio)"
        });
        m.put(
                io.ombtx.runner.stats.Counter.FAILED,
                new String[] {"ombtx_operations_failed", "operations (transactions) that failed for good"});
        m.put(io.ombtx.runner.stats.Counter.RETRIES, new String[] {
            "ombtx_retries", "attempts begun again after a failed one, and commits repeated after a time-out"
        });
        m.put(io.ombtx.runner.stats.Counter.MESSAGES_SENT, new String[] {"ombtx_messages_sent", "messages acknowledged"
        });
        m.put(io.ombtx.runner.stats.Counter.BYTES_SENT, new String[] {"ombtx_bytes_sent", "bytes acknowledged"});
        m.put(io.ombtx.runner.stats.Counter.PUBLISH_ERRORS, new String[] {"ombtx_publish_errors", "sends that failed"});
        m.put(
                io.ombtx.runner.stats.Counter.MESSAGES_RECEIVED,
                new String[] {"ombtx_messages_received", "messages consumers received"});
        m.put(
                io.ombtx.runner.stats.Counter.BYTES_RECEIVED,
                new String[] {"ombtx_bytes_received", "bytes consumers received"});
        m.put(
                io.ombtx.runner.stats.Counter.MESSAGES_PROCESSED,
                new String[] {"ombtx_messages_processed", "source records a STREAM operation consumed and wrote"});
        return m;
    }

    /** The registry {@link MetricsServer} serves. */
    public PrometheusRegistry registry() {
        return registry;
    }

    /** The series of one run (a workload on a driver), its counters at 0 in each state; in state warm-up. */
    public Run run(String run, String driver) {
        Run r = new Run(run, driver);
        for (State state : List.of(State.WARM_UP, State.MEASURE)) {
            counters.values().forEach(c -> c.initLabelValues(r.labels(state)));
        }
        r.state(State.WARM_UP);
        return r;
    }

    /** One run's series. Thread-safe (the client library's metrics are). */
    public final class Run {
        private final String run;
        private final String driver;

        private Run(String run, String driver) {
            this.run = run;
            this.driver = driver;
        }

        String[] labels(State state) {
            return new String[] {run, driver, state.label()};
        }

        /** Marks the run's state: its {@code ombtx_run_state} series is 1 for it and 0 for the others. */
        public void state(State current) {
            for (State state : State.values()) {
                runState.labelValues(labels(state)).set(state == current ? 1 : 0);
            }
        }

        /** Adds what {@code stats} counted to the counters of {@code state}. */
        public void count(State state, StatsSnapshot stats) {
            String[] labels = labels(state);
            counters.forEach((counter, metric) -> {
                long value = stats.counter(counter);
                if (value > 0) {
                    metric.labelValues(labels).inc(value);
                }
            });
        }

        /**
         * One reporting period of {@code seconds} in {@code state}: its counts, rates and latency quantiles, and the
         * backlog at its end (negative: not known here, left out).
         */
        public void period(State state, double seconds, StatsSnapshot stats, long backlogMessages) {
            count(state, stats);
            String[] labels = labels(state);
            if (seconds > 0) {
                publishRate
                        .labelValues(labels)
                        .set(stats.counter(io.ombtx.runner.stats.Counter.MESSAGES_SENT) / seconds);
                consumeRate
                        .labelValues(labels)
                        .set(stats.counter(io.ombtx.runner.stats.Counter.MESSAGES_RECEIVED) / seconds);
                operationRate
                        .labelValues(labels)
                        .set(stats.counter(io.ombtx.runner.stats.Counter.OPERATIONS) / seconds);
            }
            if (backlogMessages >= 0) {
                backlog.labelValues(labels).set(backlogMessages);
            }
            for (Latency kind : Latency.values()) {
                String name = latencyName(kind);
                if (name != null) {
                    quantiles(stats.histogram(kind), q -> latency.labelValues(run, driver, state.label(), name, q));
                }
            }
            for (Phase phase : Phase.values()) {
                stats.recorded(phase)
                        .ifPresent(h -> quantiles(
                                h, q -> phaseLatency.labelValues(run, driver, state.label(), phase.key(), q)));
            }
        }
    }

    /** The {@code latency} label of a latency, or null for a histogram that holds no time. */
    static String latencyName(Latency latency) {
        return switch (latency) {
            case PUBLISH_LATENCY -> "publish";
            case PUBLISH_DELAY -> "publishDelay";
            case END_TO_END -> "endToEnd";
            case INTENDED_PUBLISH_LATENCY -> "intendedPublish";
            case OPERATION_LATENCY -> "operation";
            case MESSAGES_PER_TRANSACTION -> null;
        };
    }

    /** Sets each quantile's gauge from a histogram of microseconds; an empty one leaves them as they were. */
    private static void quantiles(Histogram micros, java.util.function.Function<String, GaugeDataPoint> gauge) {
        if (micros.getTotalCount() == 0) {
            return;
        }
        for (double q : QUANTILES) {
            long value = q >= 1.0 ? micros.getMaxValue() : micros.getValueAtPercentile(100 * q);
            gauge.apply(quantileLabel(q)).set(value / 1e6);
        }
    }

    static String quantileLabel(double q) {
        return q >= 1.0 ? "1" : Double.toString(q);
    }
}

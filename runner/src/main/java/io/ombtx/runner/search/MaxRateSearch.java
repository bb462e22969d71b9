package io.ombtx.runner.search;

import java.util.ArrayList;
import java.util.List;

/**
 * The search for the highest rate a system sustains ({@code producerRate: 0}), as a pure state machine: it proposes
 * a target, is told what one probe window at that target achieved, and proposes the next, until it has a rate.
 *
 * <p>A probe is sustained when, over its window, three things hold. <i>It keeps up:</i> the producers issued at least
 * {@link Settings#keepUpRatio} of the target, the broker acknowledged at least that share and, with consumers, each
 * subscription received at least that share. <i>Nothing grows:</i> what is in flight (issued but not acknowledged)
 * and each subscription's backlog (acknowledged but not received) grew, by their least-squares slope over the
 * window, by no more than {@link Settings#maxGrowthSeconds} worth of the target rate in the whole window; a system
 * a few per cent over its capacity keeps up for a while as kafka-clients' buffer fills, and only this shows it.
 * <i>The delay is bounded:</i> the publish delay's p99 over the window (how late the producers sent against their
 * schedule) is at most {@link Settings#maxPublishDelayP99Millis}; once that buffer is full, sends block and the
 * delay grows with every second, while the rates still look kept up.
 *
 * <p>Stages: <b>ramp</b> doubles the target from {@link Settings#startRate} until a probe is not sustained;
 * <b>bisect</b> halves the interval between the highest sustained and the lowest unsustained rate until it is
 * narrower than {@link Settings#tolerance} of the upper end (an unsustained probe's achieved rate, plus a margin,
 * also caps the upper end: overloaded, a system delivers about its capacity; but one window right after a doubling
 * can deliver far less, so once the bisection has closed in on such a cap, the cap itself is probed, and if it holds
 * the bisection goes on above it, up to the lowest rate a probe failed at); <b>confirm</b> holds the best
 * sustained rate for a longer window, where a slower growth shows, and steps down by the tolerance if it does not
 * hold — or, if it delivered less than the target by more than twice the tolerance (a short probe was lucky),
 * bisects again below what it delivered. A ramp or bisection probe that fails is tried once more at the same rate
 * before it counts as failed (one window can be a hiccup), unless the producers were blocked for much of it (short
 * of their schedule and late: an overload). The found rate is the last confirmed one.
 */
public final class MaxRateSearch {

    /**
     * How the search probes: rates in msg/s, windows in seconds.
     *
     * @param maxGrowthSeconds how much what is in flight, and each backlog, may grow over a whole window, in seconds
     *     of the target rate (0.02: 20 ms of traffic; a 1-s probe then allows a slope of 2 % of the target per
     *     second, a 5-s confirmation 0.4 %): the fluctuation of a level that is not growing (batches, acks=all
     *     round trips) is a few ms of traffic whatever the window, so the bound is per window, not per second
     * @param maxPublishDelayP99Millis the most the publish delay's p99 over a window may be
     * @param maxLatencyP99Millis the most the operations' latency p99 over a window may be (a workload's {@code
     *     latencyTarget}); infinite when the workload sets none
     * @param sampleSeconds how often, within a window, what is in flight and the backlogs are sampled for the slope
     * @param growthFloorMessages the least growth over a window that counts, in messages, whatever the target: what
     *     is in flight moves in steps of whole operations (a transaction of 100 messages is 100 at once), so at a
     *     low rate a share of the target would be less than one step
     * @param maxSettleSeconds the longest a probe waits before its window, past {@link #settleSeconds}, while what is
     *     in flight, or a backlog, still shrinks faster than the growth bound (a higher probe's excess draining:
     *     kafka-clients' buffer, full after an overload, holds the producers up until it has); also the longest the
     *     phase drains, at half the target, after a failed probe
     */
    public record Settings(
            double startRate,
            double maxRate,
            double probeSeconds,
            double settleSeconds,
            double confirmSeconds,
            double keepUpRatio,
            double tolerance,
            int maxProbes,
            double maxGrowthSeconds,
            double maxPublishDelayP99Millis,
            double sampleSeconds,
            double growthFloorMessages,
            double maxSettleSeconds,
            double maxLatencyP99Millis) {

        /**
         * Probes of 1 s after 0.25 to 3 s to settle, confirmed over 5 s, within 5 %, at most 40 probes; nothing may
         * grow by more than 20 ms of the target over a window, and the publish delay's p99 must stay within 50 ms (see
         * docs/load-generation.md for why these figures).
         */
        public static Settings defaults(double startRate) {
            return new Settings(
                    startRate,
                    100_000_000,
                    1.0,
                    0.25,
                    5.0,
                    0.95,
                    0.05,
                    40,
                    0.02,
                    50,
                    0.1,
                    0,
                    3.0,
                    Double.POSITIVE_INFINITY);
        }

        /**
         * The defaults for a load of {@code producers} producers writing {@code messagesPerOperation} messages an
         * operation, with a growth floor of two whole operations per producer (what is in flight moves by that much
         * without growing).
         */
        public static Settings forLoad(double startRate, int producers, int messagesPerOperation) {
            return defaults(startRate).withGrowthFloor(2.0 * producers * Math.max(1, messagesPerOperation));
        }

        /** The same settings with the given start and maximum rate. */
        public Settings withRates(double start, double max) {
            return with(start, max, growthFloorMessages, maxLatencyP99Millis);
        }

        /** The same settings with the given {@link #growthFloorMessages}. */
        public Settings withGrowthFloor(double messages) {
            return with(startRate, maxRate, messages, maxLatencyP99Millis);
        }

        /** The same settings, a probe sustained only if its operations' latency p99 is at most {@code millis}. */
        public Settings withLatencyTarget(double millis) {
            return with(startRate, maxRate, growthFloorMessages, millis);
        }

        /**
         * The lowest rate worth a probe, msg/s: one operation a second per producer (half the growth floor, which is
         * two), at least 1 msg/s. Below it a window of a second holds too few operations to judge, so a search that
         * nothing has held halving down to it ends there.
         */
        public double lowestRate() {
            return Math.max(1, growthFloorMessages / 2);
        }

        /** Whether a latency target bounds the search. */
        public boolean hasLatencyTarget() {
            return maxLatencyP99Millis != Double.POSITIVE_INFINITY;
        }

        private Settings with(double start, double max, double floorMessages, double latencyMillis) {
            return new Settings(
                    start,
                    max,
                    probeSeconds,
                    settleSeconds,
                    confirmSeconds,
                    keepUpRatio,
                    tolerance,
                    maxProbes,
                    maxGrowthSeconds,
                    maxPublishDelayP99Millis,
                    sampleSeconds,
                    floorMessages,
                    maxSettleSeconds,
                    latencyMillis);
        }
    }

    public enum Stage {
        RAMP,
        BISECT,
        CONFIRM,
        DONE
    }

    /**
     * What one probe window achieved, in msg/s.
     *
     * @param receivedRate per subscription; NaN when nothing consumes
     * @param ackedRate NaN when operations write no messages (nothing to acknowledge)
     * @param inFlightGrowth least-squares slope of the messages issued but not acknowledged over the window, msg/s;
     *     NaN when nothing is acknowledged or it was not sampled
     * @param backlogGrowth the largest subscription's backlog slope (acknowledged, not received), msg/s; NaN when
     *     nothing consumes or it was not sampled
     * @param publishDelayP99Millis the publish delay's p99 over the window; NaN when not known
     * @param latencyP99Millis the operations' latency p99 over the window; NaN when not known
     */
    public record Observation(
            double seconds,
            double issuedRate,
            double ackedRate,
            double receivedRate,
            double inFlightGrowth,
            double backlogGrowth,
            double publishDelayP99Millis,
            double latencyP99Millis) {

        /** Rates only: nothing known about growth, delay or latency. */
        public Observation(double seconds, double issuedRate, double ackedRate, double receivedRate) {
            this(seconds, issuedRate, ackedRate, receivedRate, Double.NaN, Double.NaN, Double.NaN);
        }

        /** Rates, growth and delay: the latency not known. */
        public Observation(
                double seconds,
                double issuedRate,
                double ackedRate,
                double receivedRate,
                double inFlightGrowth,
                double backlogGrowth,
                double publishDelayP99Millis) {
            this(
                    seconds,
                    issuedRate,
                    ackedRate,
                    receivedRate,
                    inFlightGrowth,
                    backlogGrowth,
                    publishDelayP99Millis,
                    Double.NaN);
        }
    }

    /** One probe as the result records it; the growth and delay figures are null when not known. */
    public record Step(
            Stage stage,
            double targetRate,
            double seconds,
            double issuedRate,
            double ackedRate,
            Double receivedRate,
            boolean sustained,
            Double inFlightGrowth,
            Double backlogGrowth,
            Double publishDelayP99Millis,
            Double latencyP99Millis) {}

    private final Settings settings;
    private final List<Step> steps = new ArrayList<>();
    private Stage stage = Stage.RAMP;
    private double target;
    private double highestSustained; // 0: none yet
    private double lowestUnsustained = Double.POSITIVE_INFINITY;
    /** The lowest rate a probe was not sustained at; {@link #lowestUnsustained} may be a cap below it. */
    private double lowestFailed = Double.POSITIVE_INFINITY;
    /** The bisection's upper end is a cap from what an overloaded probe delivered, and no probe has tried it yet. */
    private boolean capUntried;

    private double found = Double.NaN;
    /** The target whose failed probe is being tried once more (NaN: none). */
    private double retrying = Double.NaN;

    public MaxRateSearch(Settings settings) {
        if (!(settings.startRate() > 0) || !(settings.maxRate() >= settings.startRate())) {
            throw new IllegalArgumentException("start rate must be positive and at most the maximum rate");
        }
        this.settings = settings;
        this.target = settings.startRate();
    }

    public Settings settings() {
        return settings;
    }

    public Stage stage() {
        return stage;
    }

    public boolean done() {
        return stage == Stage.DONE;
    }

    /** The rate to probe next (msg/s). */
    public double target() {
        return target;
    }

    /** How long the next probe's window is: confirmation windows are longer. */
    public double windowSeconds() {
        return stage == Stage.CONFIRM ? settings.confirmSeconds() : settings.probeSeconds();
    }

    /** Whether the search is over and no probe held its target: the rate found is then one that failed. */
    public boolean nothingHeld() {
        return done() && steps.stream().noneMatch(Step::sustained);
    }

    /** The rate found, once {@link #done()}. */
    public double foundRate() {
        return found;
    }

    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /** The rates' part of the criterion: the producers, the acknowledgements and each subscription all kept up. */
    public static boolean keptUp(double target, Observation o, double keepUpRatio) {
        double needed = keepUpRatio * target;
        return o.issuedRate() >= needed
                && (Double.isNaN(o.ackedRate()) || o.ackedRate() >= needed)
                && (Double.isNaN(o.receivedRate()) || o.receivedRate() >= needed);
    }

    /**
     * The whole criterion: kept up ({@link #keptUp}), nothing in flight or in a backlog grew by more than
     * {@link Settings#maxGrowthSeconds} of the target (or {@link Settings#growthFloorMessages}) over the window,
     * and the publish delay's p99 is within
     * {@link Settings#maxPublishDelayP99Millis}, and the operations' latency p99 within {@link
     * Settings#maxLatencyP99Millis}. A figure that is NaN (not measured) does not count against it.
     */
    public static boolean sustained(double target, Observation o, Settings settings) {
        double maxSlope = maxGrowthPerSecond(target, o.seconds(), settings);
        return keptUp(target, o, settings.keepUpRatio())
                && !(o.inFlightGrowth() > maxSlope)
                && !(o.backlogGrowth() > maxSlope)
                && !(o.publishDelayP99Millis() > settings.maxPublishDelayP99Millis())
                && !(o.latencyP99Millis() > settings.maxLatencyP99Millis());
    }

    /** The steepest growth (msg/s per second) a window of {@code seconds} at {@code target} may show. */
    public static double maxGrowthPerSecond(double target, double seconds, Settings settings) {
        return Math.max(settings.maxGrowthSeconds() * target, settings.growthFloorMessages())
                / Math.max(seconds, settings.sampleSeconds());
    }

    /**
     * The least-squares slope of {@code values} over {@code times} (units of value per unit of time); NaN with fewer
     * than two distinct times.
     */
    public static double slope(double[] times, double[] values) {
        int n = Math.min(times.length, values.length);
        if (n < 2) {
            return Double.NaN;
        }
        double meanT = 0;
        double meanV = 0;
        for (int i = 0; i < n; i++) {
            meanT += times[i];
            meanV += values[i];
        }
        meanT /= n;
        meanV /= n;
        double covariance = 0;
        double variance = 0;
        for (int i = 0; i < n; i++) {
            covariance += (times[i] - meanT) * (values[i] - meanV);
            variance += (times[i] - meanT) * (times[i] - meanT);
        }
        return variance == 0 ? Double.NaN : covariance / variance;
    }

    /** Takes what the probe at {@link #target()} achieved and moves to the next probe (or finishes). */
    public void observe(Observation o) {
        if (done()) {
            throw new IllegalStateException("the search is over");
        }
        boolean ok = sustained(target, o, settings);
        steps.add(new Step(
                stage,
                target,
                o.seconds(),
                o.issuedRate(),
                o.ackedRate(),
                orNull(o.receivedRate()),
                ok,
                orNull(o.inFlightGrowth()),
                orNull(o.backlogGrowth()),
                orNull(o.publishDelayP99Millis()),
                orNull(o.latencyP99Millis())));
        if (!ok
                && (stage != Stage.CONFIRM || onlyGrew(target, o))
                && retrying != target
                && steps.size() < settings.maxProbes()
                && !blockedProducers(target, o)) {
            // One failed window may be a hiccup (a GC pause, a busy neighbour delaying acknowledgements by a few
            // hundred ms): a rate is given up only when a second window at it fails too. A confirmation gets the
            // second chance only when it kept up and stayed punctual and merely grew: measured, a 5-s window at
            // 735K msg/s acknowledged 98.2% of it (in flight +0.85%/s) while a later 15-s run at 1.1 times a lower
            // rate held 1.000x; the broker's capacity dips for seconds (log segment rolls, write-back).
            retrying = target;
            return;
        }
        retrying = Double.NaN;
        switch (stage) {
            case RAMP -> {
                if (ok) {
                    highestSustained = target;
                    if (target >= settings.maxRate()) {
                        confirm(); // the configured ceiling holds: nothing higher to try
                    } else {
                        target = Math.min(settings.maxRate(), target * 2);
                    }
                } else {
                    failedAt(o);
                    nextBisection();
                }
            }
            case BISECT -> {
                if (ok) {
                    highestSustained = target;
                    if (target >= lowestUnsustained) {
                        lowestUnsustained = lowestFailed; // the cap held: it was no bound, the failed probe is
                    }
                } else {
                    failedAt(o);
                }
                nextBisection();
            }
            case CONFIRM -> {
                if (ok) {
                    finish(target);
                } else if (achieved(o) < target * (1 - 2 * settings.tolerance())) {
                    // Far short over the longer window: a short probe was lucky (a bursty broker can take far more
                    // for a second than for five). Bisect again, below what this window delivered.
                    rebisectBelow(achieved(o));
                } else {
                    // Held briefly but not for longer: the capacity is a little lower than the bisection thought.
                    lowestUnsustained = target;
                    highestSustained = target * (1 - settings.tolerance());
                    target = highestSustained;
                }
            }
            default -> throw new IllegalStateException("unreachable");
        }
        if (!done() && steps.size() >= settings.maxProbes()) {
            finish(highestSustained > 0 ? highestSustained : target); // out of probes: the best rate seen to hold
        }
    }

    private static Double orNull(double value) {
        return Double.isNaN(value) ? null : value;
    }

    /** Kept up, punctual and within the latency target, failed only on growth: a window a transient dip can explain. */
    private boolean onlyGrew(double target, Observation o) {
        return keptUp(target, o, settings.keepUpRatio())
                && !(o.publishDelayP99Millis() > settings.maxPublishDelayP99Millis())
                && !(o.latencyP99Millis() > settings.maxLatencyP99Millis());
    }

    /**
     * Whether the producers were held up for much of the window: they fell short of their schedule and sent late.
     * A stall of a moment is caught up within the window (the schedule is kept, late); falling short as well means
     * their sends blocked on a full client buffer, an overload no second window would change.
     */
    private boolean blockedProducers(double target, Observation o) {
        return o.issuedRate() < settings.keepUpRatio() * target
                && o.publishDelayP99Millis() > settings.maxPublishDelayP99Millis();
    }

    /** What a window delivered: the least of what was issued, acknowledged and received (those measured). */
    private static double achieved(Observation o) {
        double achieved = Double.isNaN(o.ackedRate()) ? o.issuedRate() : Math.min(o.issuedRate(), o.ackedRate());
        return Double.isNaN(o.receivedRate()) ? achieved : Math.min(achieved, o.receivedRate());
    }

    /**
     * After a confirmation that fell far short: the upper end becomes a margin above what it delivered, the lower end
     * the highest rate a probe sustained below that, and the bisection goes on between them.
     */
    private void rebisectBelow(double achieved) {
        lowestFailed = Math.min(lowestFailed, target);
        capUntried = false; // five seconds' delivery is a bound, not a guess
        lowestUnsustained = Math.min(target, achieved * (1 + 2 * settings.tolerance()));
        highestSustained = steps.stream()
                .filter(Step::sustained)
                .mapToDouble(Step::targetRate)
                .filter(rate -> rate <= achieved)
                .max()
                .orElse(0);
        nextBisection();
    }

    private void failedAt(Observation o) {
        lowestFailed = Math.min(lowestFailed, target);
        if (target <= lowestUnsustained) {
            lowestUnsustained = target;
            capUntried = false;
        }
        // Overloaded, a system delivers about its capacity: cap the upper end a margin above what it achieved. A
        // guess, though: a 1-s window right after the ramp doubled the rate has delivered 0.6 of a capacity that
        // later held (in flight still climbing as batches grew), so the cap is probed before the search ends.
        double achieved = achieved(o);
        double cap = achieved * (1 + 2 * settings.tolerance());
        if (cap > highestSustained * (1 + settings.tolerance()) && cap < lowestUnsustained) {
            lowestUnsustained = cap;
            capUntried = true;
        }
    }

    private void nextBisection() {
        double lo = highestSustained;
        double hi = lowestUnsustained;
        if (hi - lo <= settings.tolerance() * hi) {
            if (capUntried && lo > 0) {
                // Closed in on a cap no probe has tried: try it; if it holds, the bisection goes on above it.
                capUntried = false;
                stage = Stage.BISECT;
                target = hi;
                return;
            }
            if (lo > 0) {
                confirm();
            } else {
                finish(hi / 2); // nothing held even at the lowest rate tried; report half of it, flagged by the steps
            }
            return;
        }
        if (lo == 0 && (lo + hi) / 2 < settings.lowestRate()) {
            // Nothing has held, down to the lowest rate worth a probe: the lowest rate tried is reported, and the
            // steps say why each failed (nothingHeld()).
            finish(lowestFailed);
            return;
        }
        stage = Stage.BISECT;
        target = (lo + hi) / 2;
    }

    private void confirm() {
        stage = Stage.CONFIRM;
        target = highestSustained;
    }

    private void finish(double rate) {
        found = rate;
        stage = Stage.DONE;
    }
}

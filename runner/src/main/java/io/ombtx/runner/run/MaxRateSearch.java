package io.ombtx.runner.run;

import java.util.ArrayList;
import java.util.List;

/**
 * The search for the highest rate a system sustains ({@code producerRate: 0}), as a pure state machine: it proposes
 * a target, is told what one probe window at that target achieved, and proposes the next, until it has a rate.
 *
 * <p>A probe is sustained when, over its window, the producers issued at least {@link Settings#keepUpRatio} of the
 * target (they kept their schedule, so the publish delay stayed bounded), the broker acknowledged at least that
 * share (acknowledgements kept pace, so what is in flight did not grow), and, with consumers, they received at
 * least that share per subscription (the backlog did not grow). Stages: <b>ramp</b> doubles the target from
 * {@link Settings#startRate} until a probe is not sustained; <b>bisect</b> halves the interval between the highest
 * sustained and the lowest unsustained rate until it is narrower than {@link Settings#tolerance} of the upper end
 * (an unsustained probe's achieved rate, plus a margin, also caps the upper end: overloaded, a system delivers
 * about its capacity); <b>confirm</b> holds the best sustained rate for a longer window and steps down by the
 * tolerance if it does not hold. A ramp or bisection probe that fails is tried once more at the same rate before
 * it counts as failed (one window can be a hiccup). The found rate is the last confirmed one.
 */
public final class MaxRateSearch {

    /** How the search probes: rates in msg/s, windows in seconds. */
    public record Settings(double startRate, double maxRate, double probeSeconds, double settleSeconds,
            double confirmSeconds, double keepUpRatio, double tolerance, int maxProbes) {

        /** Probes of 1 s after 0.5 s to settle, within 5 %, at most 40 probes (about a minute in the worst case). */
        public static Settings defaults(double startRate) {
            return new Settings(startRate, 100_000_000, 1.0, 0.5, 2.0, 0.95, 0.05, 40);
        }
    }

    public enum Stage { RAMP, BISECT, CONFIRM, DONE }

    /**
     * What one probe window achieved, in msg/s.
     *
     * @param receivedRate per subscription; NaN when nothing consumes
     * @param ackedRate NaN when operations write no messages (nothing to acknowledge)
     */
    public record Observation(double seconds, double issuedRate, double ackedRate, double receivedRate) {
    }

    /** One probe as the result records it. */
    public record Step(Stage stage, double targetRate, double seconds, double issuedRate, double ackedRate,
            Double receivedRate, boolean sustained) {
    }

    private final Settings settings;
    private final List<Step> steps = new ArrayList<>();
    private Stage stage = Stage.RAMP;
    private double target;
    private double highestSustained; // 0: none yet
    private double lowestUnsustained = Double.POSITIVE_INFINITY;
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

    /** The rate found, once {@link #done()}. */
    public double foundRate() {
        return found;
    }

    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /** The criterion: the producers, the acknowledgements and each subscription's consumers all kept up. */
    public static boolean sustained(double target, Observation o, double keepUpRatio) {
        double needed = keepUpRatio * target;
        return o.issuedRate() >= needed
                && (Double.isNaN(o.ackedRate()) || o.ackedRate() >= needed)
                && (Double.isNaN(o.receivedRate()) || o.receivedRate() >= needed);
    }

    /** Takes what the probe at {@link #target()} achieved and moves to the next probe (or finishes). */
    public void observe(Observation o) {
        if (done()) {
            throw new IllegalStateException("the search is over");
        }
        boolean ok = sustained(target, o, settings.keepUpRatio());
        steps.add(new Step(stage, target, o.seconds(), o.issuedRate(), o.ackedRate(),
                Double.isNaN(o.receivedRate()) ? null : o.receivedRate(), ok));
        if (!ok && stage != Stage.CONFIRM && retrying != target && steps.size() < settings.maxProbes()) {
            // One failed window may be a hiccup (a GC pause, a busy neighbour delaying acknowledgements by a few
            // hundred ms): a rate is given up only when a second window at it fails too.
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
                } else {
                    failedAt(o);
                }
                nextBisection();
            }
            case CONFIRM -> {
                if (ok) {
                    finish(target);
                } else {
                    // Held briefly but not for longer: the capacity is lower than the bisection thought.
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

    private void failedAt(Observation o) {
        lowestUnsustained = Math.min(lowestUnsustained, target);
        // Overloaded, a system delivers about its capacity: cap the upper end a margin above what it achieved.
        double achieved = Double.isNaN(o.ackedRate()) ? o.issuedRate() : Math.min(o.issuedRate(), o.ackedRate());
        if (!Double.isNaN(o.receivedRate())) {
            achieved = Math.min(achieved, o.receivedRate());
        }
        double cap = achieved * (1 + 2 * settings.tolerance());
        if (cap > highestSustained * (1 + settings.tolerance()) && cap < lowestUnsustained) {
            lowestUnsustained = cap;
        }
    }

    private void nextBisection() {
        double lo = highestSustained;
        double hi = lowestUnsustained;
        if (hi - lo <= settings.tolerance() * hi) {
            if (lo > 0) {
                confirm();
            } else {
                finish(hi / 2); // nothing held even at the lowest rate tried; report half of it, flagged by the steps
            }
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

package io.ombtx.runner.run;

/**
 * The rate ramp used for {@code producerRate: 0}: each reporting period the target grows by a quarter while
 * producers keep up and the backlog stays small, and falls back below the achieved rate when they do not. It
 * follows the system's capacity slowly (one step per period); it is not a search that converges.
 * Pure: the next target depends only on the current one and what the period measured.
 */
public final class RateRamp {
    private static final double GROWTH = 1.25;
    private static final double BACKOFF = 0.9;

    private double target;

    public RateRamp(double initialRate) {
        this.target = initialRate;
    }

    public double target() {
        return target;
    }

    /** The target for the next period, given the publish rate achieved and the consumers' backlog. */
    public double next(double achievedRate, long backlog) {
        boolean keptUp = achievedRate >= 0.95 * target;
        boolean backlogSmall = backlog <= target; // less than a second of messages waiting
        if (keptUp && backlogSmall) {
            target = target * GROWTH;
        } else {
            target = Math.max(1, Math.min(target, achievedRate) * BACKOFF);
        }
        return target;
    }
}

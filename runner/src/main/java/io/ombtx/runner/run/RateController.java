package io.ombtx.runner.run;

/**
 * OMB's "producerRate: 0": search for the highest rate the system sustains. Each period the target grows while
 * producers keep up and the backlog stays small, and falls back below the achieved rate when they do not.
 * Pure: the next target depends only on the current one and what the period measured.
 */
public final class RateController {

    static final double INITIAL_RATE = 10_000;
    private static final double GROWTH = 1.25;
    private static final double BACKOFF = 0.9;

    private double target;

    public RateController(double initialRate) {
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

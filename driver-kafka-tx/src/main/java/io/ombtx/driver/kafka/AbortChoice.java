package io.ombtx.driver.kafka;

import java.util.SplittableRandom;

/**
 * Which of one flow's transactions are aborted on purpose ({@code operation.abortRatio}): each with probability
 * {@code ratio}, drawn before its sends from a random seeded by the run's {@code abortSeed} and the flow's index
 * among the driver's flows of its kind, so a repeated run with the same seed aborts the same transactions of each
 * flow. Not thread-safe: one per flow, used by the flow's thread.
 */
final class AbortChoice {

    /** No transaction aborts on purpose. */
    static final AbortChoice NEVER = new AbortChoice(0, null);

    private final double ratio;
    private final SplittableRandom random;

    private AbortChoice(double ratio, SplittableRandom random) {
        this.ratio = ratio;
        this.random = random;
    }

    static AbortChoice of(double ratio, long seed, int flowIndex) {
        if (ratio <= 0) {
            return NEVER;
        }
        // One stream per flow, split off the seed's stream in flow order: flows of one seed never share draws.
        SplittableRandom root = new SplittableRandom(seed);
        SplittableRandom flow = root.split();
        for (int i = 0; i < flowIndex; i++) {
            flow = root.split();
        }
        return new AbortChoice(ratio, flow);
    }

    /** Whether the next transaction aborts on purpose. */
    boolean next() {
        return random != null && random.nextDouble() < ratio;
    }
}

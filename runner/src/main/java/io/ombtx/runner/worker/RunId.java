package io.ombtx.runner.worker;

import java.util.concurrent.ThreadLocalRandom;

/** A run's id, which its topic and subscription names carry so that no two runs share one: drawn when planning. */
public final class RunId {

    private RunId() {}

    /** A fresh id: 40 random bits in base 36 (up to 8 characters). */
    public static String draw() {
        return Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    }
}

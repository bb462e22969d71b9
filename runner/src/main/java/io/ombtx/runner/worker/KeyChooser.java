package io.ombtx.runner.worker;

import io.ombtx.runner.config.KeyDistributorType;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/** OMB's key distributors: none, round-robin over a fixed key set, or a random key per message. */
final class KeyChooser {

    private static final int KEYS = 10_000;
    private static final String[] KEY_SET = new String[KEYS];

    static {
        for (int i = 0; i < KEYS; i++) {
            KEY_SET[i] = "key-" + Integer.toHexString(i * 0x9E3779B1);
        }
    }

    private final KeyDistributorType type;
    private int next;

    KeyChooser(KeyDistributorType type) {
        this.type = type;
    }

    Optional<String> nextKey() {
        return Optional.ofNullable(nextKeyOrNull());
    }

    /** The next key, or null for none (the fast path takes no Optional). */
    String nextKeyOrNull() {
        return switch (type) {
            case NO_KEY -> null;
            case KEY_ROUND_ROBIN -> KEY_SET[Math.floorMod(next++, KEYS)];
            case RANDOM_NANO -> KEY_SET[ThreadLocalRandom.current().nextInt(KEYS)];
        };
    }
}

package io.ombtx.runner.config;

/** Closed loop: one operation outstanding per producer. Open loop: operations paced by a target rate. */
public enum LoopMode {
    OPEN,
    CLOSED;

    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

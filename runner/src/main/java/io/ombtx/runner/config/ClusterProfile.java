package io.ombtx.runner.config;

import java.util.Locale;

/**
 * Which settings an embedded cluster starts with, by name ({@code brokerProfile:}, {@code --broker-profile}); what
 * each means is the broker system's ({@code io.ombtx.broker.BrokerProfile} for Kafka).
 */
public enum ClusterProfile {
    /** The broker's own defaults, except what a small loopback cluster needs. */
    DEFAULT,
    /** Seed 003's "max consistency": replicated internal topics, min ISR 2, fsync on every message. */
    MAX_CONSISTENCY;

    public static ClusterProfile parse(String name) {
        String normalized = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (ClusterProfile profile : values()) {
            if (profile.name().equals(normalized)) {
                return profile;
            }
        }
        throw new IllegalArgumentException(
                "unknown broker profile '" + name + "' (expected default or max-consistency)");
    }

    public String displayName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}

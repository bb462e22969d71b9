package io.ombtx.runner.config;

import java.util.Locale;

/**
 * Which Kafka-API broker the runner starts when the driver names no cluster ({@code brokerSystem:},
 * {@code --broker-system}): Apache Kafka (the default), or Tansu. What each can be asked for is checked while
 * planning; how each is started is the broker system's business.
 */
public enum EmbeddedSystem {
    /** Apache Kafka, from Maven Central, in child JVMs: any count, profile, release and setting. */
    KAFKA,
    /** Tansu (a Kafka-API broker in Rust), one process, its own defaults only. */
    TANSU;

    /** Its name in workloads, flags and results: kafka, tansu. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** How it is named in text: Kafka, Tansu. */
    public String displayName() {
        return this == KAFKA ? "Kafka" : "Tansu";
    }

    public static EmbeddedSystem parse(String name) {
        String normalized = name.trim().toUpperCase(Locale.ROOT);
        for (EmbeddedSystem system : values()) {
            if (system.name().equals(normalized)) {
                return system;
            }
        }
        throw new IllegalArgumentException("unknown broker system '" + name + "' (expected kafka or tansu)");
    }
}

package io.ombtx.runner;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the omb-tx installation folder: where {@code bin/}, {@code workloads/} and the built modules live. */
public final class OmbTxHome {

    private OmbTxHome() {}

    /** {@code -Dombtx.home}, else {@code $OMBTX_HOME}, else the nearest folder upward holding {@code kafka-broker/}. */
    public static Path locate() {
        String configured = System.getProperty("ombtx.home", System.getenv("OMBTX_HOME"));
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isDirectory(dir.resolve("kafka-broker"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException(
                "cannot find the omb-tx folder: set OMBTX_HOME or run from inside the checkout");
    }
}

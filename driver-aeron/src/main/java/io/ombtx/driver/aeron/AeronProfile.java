package io.ombtx.driver.aeron;

import io.aeron.driver.ThreadingMode;
import io.ombtx.driver.aeron.AeronSettings.MediaDriverSettings;

/**
 * Starting points for the media driver's settings, each overridable key by key in the driver YAML's
 * {@code mediaDriver} block.
 */
public enum AeronProfile {
    /**
     * Aeron's own defaults (1.49): dedicated conductor, sender and receiver threads that back off when idle, 16 MiB
     * terms (Aeron's IPC default is 64 MiB; one value is used for both here), 1408-byte MTU, socket buffers left to
     * the OS. Kind to a small or shared machine.
     */
    DEFAULT(new MediaDriverSettings(
            null,
            ThreadingMode.DEDICATED,
            16 * 1024 * 1024,
            1408,
            0,
            0,
            128 * 1024,
            IdleStrategyName.BACKOFF,
            IdleStrategyName.BACKOFF,
            IdleStrategyName.BACKOFF,
            IdleStrategyName.BACKOFF,
            false)),
    /**
     * Seed 004's tuned media driver: dedicated threads, sender and receiver never idle ({@code noop}), the conductor
     * spins, 8 KiB MTU, 2 MiB socket buffers and initial window, terms not sparse (the seed also pre-touched
     * mapped memory, an option of Aeron 1.34's C media driver that the Java media driver 1.49 does not have). Three threads
     * that never sleep, plus each subscriber's poll thread: it needs a core for each.
     */
    LOW_LATENCY(new MediaDriverSettings(
            null,
            ThreadingMode.DEDICATED,
            16 * 1024 * 1024,
            8 * 1024,
            2 * 1024 * 1024,
            2 * 1024 * 1024,
            2 * 1024 * 1024,
            IdleStrategyName.SPIN,
            IdleStrategyName.NOOP,
            IdleStrategyName.NOOP,
            IdleStrategyName.NOOP,
            false));

    /** The profile's media driver settings, with no directory (the parser or the default chooses it). */
    final MediaDriverSettings mediaDriver;

    AeronProfile(MediaDriverSettings mediaDriver) {
        this.mediaDriver = mediaDriver;
    }

    /** The name as written in a driver YAML. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}

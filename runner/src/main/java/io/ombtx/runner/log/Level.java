package io.ombtx.runner.log;

import java.util.Locale;

/** A console logger's level, lowest first; {@link #OFF} prints nothing. */
public enum Level {
    TRACE,
    DEBUG,
    INFO,
    WARN,
    ERROR,
    OFF;

    /** The level named {@code name} (any case), or null when it names none. */
    static Level named(String name) {
        if (name == null) {
            return null;
        }
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

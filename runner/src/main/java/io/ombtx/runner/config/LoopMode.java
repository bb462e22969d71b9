package io.ombtx.runner.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.ombtx.driver.api.EnumKeys;
import java.util.Locale;

/**
 * Closed loop: one operation outstanding per producer. Open loop: operations paced by a target rate. Written as its
 * key ({@code open}, {@code closed}) in results and on the wire.
 */
public enum LoopMode {
    OPEN,
    CLOSED;

    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static LoopMode ofKey(String key) {
        return EnumKeys.find(values(), LoopMode::key, key == null ? null : key.toLowerCase(Locale.ROOT))
                .orElseThrow(() -> new IllegalArgumentException("expected 'open' or 'closed', got '" + key + "'"));
    }
}

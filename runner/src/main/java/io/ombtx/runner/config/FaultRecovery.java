package io.ombtx.runner.config;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How a broker comes back from a fault: a restart (after a kill or a stop) or a resume (after a pause). */
public enum FaultRecovery {
    RESTART,
    RESUME;

    /** Its name in results, the dry run and the fault command: restart, resume. */
    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return key();
    }
}

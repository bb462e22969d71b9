package io.ombtx.runner.config;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a declared fault does to a broker, and how the broker comes back: a kill (SIGKILL, a crash) and a stop
 * (SIGTERM, a controlled shutdown) are undone by a restart, a pause (SIGSTOP, a hung process) by a resume (SIGCONT).
 */
public enum FaultAction {
    KILL("KILL", FaultRecovery.RESTART, "restartAfter"),
    PAUSE("STOP", FaultRecovery.RESUME, "resumeAfter"),
    STOP("TERM", FaultRecovery.RESTART, "restartAfter");

    private final String signal;
    private final FaultRecovery recovery;
    private final String recoveryKey;

    FaultAction(String signal, FaultRecovery recovery, String recoveryKey) {
        this.signal = signal;
        this.recovery = recovery;
        this.recoveryKey = recoveryKey;
    }

    /** Its name in workloads and results: kill, pause, stop. */
    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The signal that injects it: KILL, STOP or TERM. */
    public String signal() {
        return signal;
    }

    /** What undoes it: restart, or resume (whose signal is CONT). */
    public FaultRecovery recovery() {
        return recovery;
    }

    /** The workload key giving the delay before the recovery: restartAfter or resumeAfter. */
    public String recoveryKey() {
        return recoveryKey;
    }
}

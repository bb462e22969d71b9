package io.ombtx.runner.config;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a declared fault does, and how its target comes back. To a broker: a kill (SIGKILL, a crash) and a stop
 * (SIGTERM, a controlled shutdown) are undone by a restart, a pause (SIGSTOP, a hung process) by a resume (SIGCONT).
 * To a client (a stream processor, a transactional producer): a kill abandons it mid-transaction, a stop aborts and
 * closes it, both undone by a restart (a new instance with the same transactional id); a pause holds it
 * mid-transaction as a zombie, undone by a resume (the new instance starts, then the zombie goes on and is fenced).
 * Add and remove change a group of stream processors (group mode) and have no recovery.
 */
public enum FaultAction {
    KILL("KILL", FaultRecovery.RESTART, "restartAfter"),
    PAUSE("STOP", FaultRecovery.RESUME, "resumeAfter"),
    STOP("TERM", FaultRecovery.RESTART, "restartAfter"),
    ADD(null, null, null),
    REMOVE(null, null, null);

    private final String signal;
    private final FaultRecovery recovery;
    private final String recoveryKey;

    FaultAction(String signal, FaultRecovery recovery, String recoveryKey) {
        this.signal = signal;
        this.recovery = recovery;
        this.recoveryKey = recoveryKey;
    }

    /** Its name in workloads and results: kill, pause, stop, add, remove. */
    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The signal that injects it into a broker: KILL, STOP or TERM; null for add and remove. */
    public String signal() {
        return signal;
    }

    /** What undoes it: restart, or resume (whose signal is CONT); null for add and remove, which nothing undoes. */
    public FaultRecovery recovery() {
        return recovery;
    }

    /** The workload key giving the delay before the recovery: restartAfter or resumeAfter; null for add, remove. */
    public String recoveryKey() {
        return recoveryKey;
    }

    /** Whether it changes a group of stream processors (add, remove) rather than faulting one target. */
    public boolean changesGroup() {
        return this == ADD || this == REMOVE;
    }
}

package io.ombtx.runner.run;

/** Set from a signal handler; the run in progress ends at its next poll and writes a partial result. */
public final class Interruption {
    private volatile String reason;

    public void interrupt(String why) {
        reason = why;
    }

    public String reason() {
        return reason;
    }
}

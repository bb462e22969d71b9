package io.ombtx.runner.worker;

/** A worker step failed for a reason a user can act on; the message says which step and why. */
public final class WorkerException extends Exception {

    public WorkerException(String message) {
        super(message);
    }

    public WorkerException(String message, Throwable cause) {
        super(message, cause);
    }
}

package io.ombtx.runner.config;

/** The command line is wrong; the message says how. Exit code 2. */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}

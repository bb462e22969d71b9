package io.ombtx.runner.cluster;

/** The embedded cluster did not start (or its facts could not be read back): exit 1, the message says why. */
public final class ClusterStartFailed extends RuntimeException {

    public ClusterStartFailed(String message, Throwable cause) {
        super(message, cause);
    }
}

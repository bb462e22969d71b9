package io.ombtx.runner.cluster;

/** The external cluster did not answer: a network fault, not bad input (exit 1). */
public final class ClusterUnreachable extends RuntimeException {

    public ClusterUnreachable(String message) {
        super(message);
    }
}

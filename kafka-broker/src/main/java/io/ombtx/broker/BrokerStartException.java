package io.ombtx.broker;

/** The embedded broker could not be started; the message says why, with the broker's last log lines. */
public final class BrokerStartException extends Exception {

    private final boolean portTaken;

    public BrokerStartException(String message) {
        this(message, false);
    }

    /**
     * @param portTaken whether a broker failed because a port chosen free for it was bound by another process
     *     before the broker could bind it (the cluster is then started again on other ports)
     */
    BrokerStartException(String message, boolean portTaken) {
        super(message);
        this.portTaken = portTaken;
    }

    public BrokerStartException(String message, Throwable cause) {
        super(message, cause);
        this.portTaken = false;
    }

    /** Whether a port chosen free was taken by another process before the broker bound it. */
    boolean portTaken() {
        return portTaken;
    }
}

package io.ombtx.broker;

/** The embedded broker could not be started; the message says why, with the broker's last log lines. */
public final class BrokerStartException extends Exception {

    public BrokerStartException(String message) {
        super(message);
    }

    public BrokerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}

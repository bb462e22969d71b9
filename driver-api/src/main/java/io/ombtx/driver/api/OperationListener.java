package io.ombtx.driver.api;

/**
 * Implemented by a runner's {@code ConsumerCallback} to hear about operations that consumers perform
 * (consume-transform-produce). A driver checks {@code instanceof} and reports each finished operation.
 */
public interface OperationListener {

    void operationCompleted(OperationTimings timings);
}

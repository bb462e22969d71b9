package io.ombtx.runner.fault;

import io.ombtx.driver.api.ClientFaults;

/**
 * How the runner reaches a client of the run to fault it: through the worker that runs the client, to its driver's
 * {@link ClientFaults} ({@code io.ombtx.runner.run.WorkerGroup} routes the request to that worker, with the client's
 * index on it). Blocks until the step is done.
 */
@FunctionalInterface
public interface ClientControl {

    /** Carries out one step of a client fault on the client the request names (its index over the whole run). */
    ClientFaults.Report clientFault(ClientFaults.Request request) throws Exception;
}

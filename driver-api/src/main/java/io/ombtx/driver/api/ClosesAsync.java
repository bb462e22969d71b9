package io.ombtx.driver.api;

import java.util.concurrent.CompletableFuture;

/**
 * Optionally implemented by a producer or consumer whose close waits for the broker (a transactional producer
 * finishing its last transaction): the close starts at once and ends on the client's own threads, so a runner closes
 * a thousand clients together, in the time of one, instead of one after the other. {@code close()} stays the
 * blocking form for OMB.
 */
public interface ClosesAsync {

    /**
     * Starts closing; the future completes when the client is closed, with true when it finished its work in the time
     * its configuration gives it, false when that time ran out and it was closed at once. It never completes
     * exceptionally, and completes within that time plus a few seconds. Calling it again returns the same future.
     */
    CompletableFuture<Boolean> closeAsync();
}

package io.ombtx.driver.api;

import java.util.ServiceLoader;

/**
 * Hears where a closed loop's thread spends time that is in no operation's latency, for whoever measures a driver
 * against a bare loop ({@code bin/bench fidelity}): the gap from one transaction's end (its commit returned) to the
 * next one's begin, or from a plain write's last ack to the next write's first send; and the time an operation's
 * clock is stopped inside it. A driver asks {@link #INSTALLED} once and calls it only when {@link #ON}: with no
 * listener installed both are constants and the calls cost nothing.
 *
 * <p>A listener is installed by putting a provider of this interface ({@link ServiceLoader}) on the class path; the
 * first one that is {@link #listening()} is used. The product ships none.
 */
public interface LoopListener {

    /** Hears nothing. */
    LoopListener NONE = new LoopListener() {
        @Override
        public boolean listening() {
            return false;
        }
    };

    /** The installed listener, or {@link #NONE}. */
    LoopListener INSTALLED = ServiceLoader.load(LoopListener.class, LoopListener.class.getClassLoader()).stream()
            .map(ServiceLoader.Provider::get)
            .filter(LoopListener::listening)
            .findFirst()
            .orElse(NONE);

    /** Whether a listener is installed (a constant, so callers' checks cost nothing when none is). */
    boolean ON = INSTALLED != NONE;

    /** Whether this listener wants the calls; a provider on the class path that is not asked to listen says no. */
    boolean listening();

    /** One gap of a loop's thread between operations, in nanoseconds. */
    default void gap(long nanos) {}

    /** How long one operation's clock was stopped, in nanoseconds. */
    default void paused(long nanos) {}
}

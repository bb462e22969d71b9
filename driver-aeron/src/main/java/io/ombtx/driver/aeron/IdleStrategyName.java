package io.ombtx.driver.aeron;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * The idle strategies a driver YAML can name, for the media driver's threads and the subscribers' poll loops: what a
 * thread does when a duty cycle found no work. The spinning ones hold a core each; on a machine with few cores they
 * compete with the benchmark itself.
 */
public enum IdleStrategyName {
    /** Returns at once (seed 004's sender and receiver): a core per thread, the lowest latency. */
    NOOP,
    /** Busy spin with the CPU's spin-wait hint (seed 004's conductor): a core per thread. */
    SPIN,
    /** {@code Thread.yield()}: gives the core away when another thread wants it. */
    YIELD,
    /** Aeron's default: spins, then yields, then parks from 1 µs growing to 1 ms. */
    BACKOFF,
    /** Sleeps 1 ms: cheap on CPU, adds up to a millisecond of latency. */
    SLEEP;

    public IdleStrategy create() {
        return switch (this) {
            case NOOP -> new NoOpIdleStrategy();
            case SPIN -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy();
            case SLEEP -> new SleepingMillisIdleStrategy(1);
        };
    }

    /** The name as written in a driver YAML. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

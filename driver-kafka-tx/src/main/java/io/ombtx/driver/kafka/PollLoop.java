package io.ombtx.driver.kafka;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer's own thread: polls until closed and hands each batch to a handler. KafkaConsumer is single-threaded,
 * so the consumer is used and closed only here; {@link #close} wakes it up and waits.
 */
abstract class PollLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PollLoop.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final long GATE_CHECK_NANOS = 10_000_000;

    protected final Consumer<String, byte[]> consumer;
    private final Thread thread;
    private volatile boolean running = true;
    /** A closed loop's hold on polling ({@link io.ombtx.driver.api.PollGate}): poll only while open. */
    private volatile boolean gated;

    private volatile boolean open;
    /**
     * Held by whichever thread polls: the poll thread, or a closed loop's thread in {@link #pollHere}. KafkaConsumer
     * may be used from several threads one at a time; this makes it one at a time.
     */
    private final ReentrantLock polling = new ReentrantLock();
    /** The client fault that ended the loop, or null. */
    private volatile ClientFault haltedBy;

    PollLoop(Consumer<String, byte[]> consumer, String threadName) {
        this.consumer = consumer;
        this.thread = new Thread(this::loop, threadName);
        this.thread.setDaemon(true);
    }

    /** Polls only while the gate is open, from the next poll on (the gate starts closed). */
    public final void gate() {
        open = false;
        gated = true;
    }

    public final void openGate() {
        open = true;
        LockSupport.unpark(thread);
    }

    public final void closeGate() {
        open = false;
    }

    public final void ungate() {
        gated = false;
        LockSupport.unpark(thread);
    }

    /**
     * One poll on the caller's thread, its records handled here ({@link io.ombtx.driver.api.PollGate#pollHere}); only
     * while gated and closed, so the poll thread waits at the gate meanwhile.
     */
    public final boolean pollHere() {
        if (!running || !gated || open || !lockWhileRunning()) {
            return false;
        }
        try {
            if (!running) {
                return false;
            }
            ConsumerRecords<String, byte[]> records = consumer.poll(POLL_TIMEOUT);
            if (!records.isEmpty()) {
                handle(records);
            } else {
                idle();
            }
            return true;
        } catch (ClientHalted e) {
            haltedBy = e.fault();
            running = false;
            LockSupport.unpark(thread); // the poll thread ends the loop and closes the consumer
            return false;
        } catch (WakeupException | InterruptException e) {
            return false; // a close (or an interrupt of the caller): the caller's wait notices why
        } catch (RuntimeException e) {
            LOG.error("consumer poll failed; the consumer's own thread polls on: {}", ErrorClassifier.describe(e));
            return false;
        } finally {
            polling.unlock();
        }
    }

    /**
     * Takes {@link #polling} unless the loop stops first: the poll thread keeps it from its last poll on, so a
     * caller that waited for it without looking would wait for ever.
     */
    private boolean lockWhileRunning() {
        try {
            while (!polling.tryLock(GATE_CHECK_NANOS, TimeUnit.NANOSECONDS)) {
                if (!running) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Starts polling; call once, after subscribing. */
    final void start() {
        thread.start();
    }

    /** Processes one poll's records on the poll thread. */
    protected abstract void handle(ConsumerRecords<String, byte[]> records);

    /** Runs on the poll thread after a poll that returned nothing; may end the loop as {@link #handle} may. */
    protected void idle() {}

    /** Runs on the poll thread after the last poll, before the consumer closes. */
    protected void shutdown() {}

    /** Whether {@link #close} was called: a handler stops at its next step, the loop after it. */
    protected final boolean closing() {
        return !running;
    }

    /** The client fault that ended the loop ({@link ClientHalted} out of {@link #handle}), or null. */
    protected final ClientFault haltedBy() {
        return haltedBy;
    }

    private void loop() {
        try {
            while (running) {
                try {
                    if (gated && !open) {
                        LockSupport.parkNanos(GATE_CHECK_NANOS); // woken by openGate; the bound notices a stop
                        continue;
                    }
                    polling.lock();
                    try {
                        if (gated && !open) {
                            continue; // closed while this thread waited for the lock
                        }
                        ConsumerRecords<String, byte[]> records = consumer.poll(POLL_TIMEOUT);
                        if (!records.isEmpty()) {
                            handle(records);
                        } else {
                            idle();
                        }
                    } finally {
                        polling.unlock();
                    }
                } catch (ClientHalted e) { // out of handle or idle
                    haltedBy = e.fault();
                    running = false;
                    break;
                } catch (WakeupException | InterruptException e) {
                    if (running) {
                        LOG.warn("consumer woken up unexpectedly; continuing");
                    }
                } catch (RuntimeException e) {
                    if (!running) {
                        break;
                    }
                    LOG.error("consumer poll failed, retrying in 1 s: {}", ErrorClassifier.describe(e));
                    sleepQuietly();
                }
            }
        } finally {
            polling.lock(); // a closed loop's pollHere, woken by close, is out of the consumer first; never released
            try {
                shutdown();
            } finally {
                try {
                    consumer.close(CLOSE_TIMEOUT);
                } catch (RuntimeException e) {
                    LOG.debug("consumer close failed", e);
                } finally {
                    ClientFault fault = haltedBy;
                    if (fault != null) {
                        fault.ended();
                    }
                }
            }
        }
    }

    private void sleepQuietly() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            running = false;
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        consumer.wakeup();
        try {
            thread.join(CLOSE_TIMEOUT.toMillis() * 2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

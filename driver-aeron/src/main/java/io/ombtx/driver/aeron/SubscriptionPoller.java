package io.ombtx.driver.aeron;

import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.ombtx.driver.api.PreciseConsumerCallback;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * One OMB subscription of one topic: one Aeron subscription to the topic's stream, polled by a thread of its own with
 * the configured idle strategy. Aeron delivers every message to every subscription (as OMB's subscriptions each get
 * every message); the consumers of one subscription share its messages, each message going to one of them in turn
 * (Aeron has no consumer groups, so this is the driver's stand-in for Kafka's partition assignment).
 */
final class SubscriptionPoller implements AutoCloseable {

    /** A consumer's call-back, with its microsecond form when the runner offers one. */
    record Target(ConsumerCallback callback, PreciseConsumerCallback precise) {
        static Target of(ConsumerCallback callback) {
            return new Target(callback, callback instanceof PreciseConsumerCallback p ? p : null);
        }
    }

    private final Subscription subscription;
    private final List<Target> registered = new ArrayList<>();
    private volatile Target[] targets = new Target[0]; // read per message: no copy, no lock
    private final FragmentAssembler assembler = new FragmentAssembler(this::onMessage);
    private final IdleStrategy idle;
    private final int fragmentLimit;
    private final Thread thread;
    private volatile boolean running = true;
    private int next;

    SubscriptionPoller(Subscription subscription, IdleStrategy idle, int fragmentLimit, String name) {
        this.subscription = subscription;
        this.idle = idle;
        this.fragmentLimit = fragmentLimit;
        this.thread = new Thread(this::pollLoop, name);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    synchronized void add(Target target) {
        registered.add(target);
        targets = registered.toArray(new Target[0]);
    }

    /** Removes a consumer; true when none is left. */
    synchronized boolean remove(Target target) {
        registered.remove(target);
        targets = registered.toArray(new Target[0]);
        return registered.isEmpty();
    }

    private void pollLoop() {
        while (running) {
            idle.idle(subscription.poll(assembler, fragmentLimit));
        }
    }

    private void onMessage(DirectBuffer buffer, int offset, int length, Header header) {
        Target[] current = targets;
        if (current.length == 0) {
            return; // the last consumer closed while this poll was under way
        }
        Target target = current[next++ % current.length];
        if (next == Integer.MAX_VALUE) {
            next = 0;
        }
        long publishMicros = MessageFrame.publishEpochMicros(buffer, offset);
        int payloadLength = MessageFrame.payloadLength(length);
        if (target.precise() != null) {
            target.precise().messageReceivedMicros(payloadLength, publishMicros);
        } else {
            byte[] payload = new byte[payloadLength];
            buffer.getBytes(offset + MessageFrame.HEADER_LENGTH, payload);
            target.callback().messageReceived(payload, publishMicros / 1000);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
        subscription.close();
    }
}

package io.ombtx.driver.aeron;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.ombtx.driver.api.CallbackProducer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * One OMB producer: an exclusive Aeron publication on the topic's stream. A send is acknowledged once Aeron has
 * accepted the message into the publication's log (there is no broker to acknowledge it).
 *
 * <p>Back-pressure policy: when {@code offer} answers BACK_PRESSURED (the slowest subscriber is a term window
 * behind), NOT_CONNECTED (no subscriber yet, or it went away) or ADMIN_ACTION (a term rotation), the same message is
 * offered again, idling between attempts with {@code publisher.retryIdleStrategy}, until it is accepted or
 * {@code publisher.offerTimeoutMs} has passed; then the send fails and the runner counts a publish error. Every
 * refused offer is counted by its answer. The publish timestamp is taken before the first offer, so the time spent
 * waiting is part of the end-to-end latency. CLOSED and MAX_POSITION_EXCEEDED fail the send at once. Sends block the
 * caller while they retry: an open-loop runner then falls behind its schedule, which its publish delay shows.
 */
final class AeronProducer implements BenchmarkProducer, CallbackProducer {

    private final ExclusivePublication publication;
    private final OfferCounts counts;
    private final long offerTimeoutNanos;
    private final IdleStrategy retryIdle;
    private final ExpandableArrayBuffer frame = new ExpandableArrayBuffer(256);

    AeronProducer(
            ExclusivePublication publication, OfferCounts counts, long offerTimeoutMillis, IdleStrategy retryIdle) {
        this.publication = publication;
        this.counts = counts;
        this.offerTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(offerTimeoutMillis);
        this.retryIdle = retryIdle;
    }

    @Override
    public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload) {
        Exception error = offer(payload);
        return error == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(error);
    }

    @Override
    public void send(
            String key, byte[] payload, boolean consumed, long intendedNanos, long sendNanos, SendCallback callback) {
        callback.completed(offer(payload), payload.length, intendedNanos, sendNanos);
    }

    /** Offers one message under the back-pressure policy; null when accepted, else why it failed. */
    synchronized Exception offer(byte[] payload) {
        int length = MessageFrame.write(frame, MessageFrame.nowEpochMicros(), payload);
        if (length > publication.maxMessageLength()) {
            counts.sendsFailed.increment();
            return new IllegalArgumentException("a " + payload.length + "-byte message is above this publication's"
                    + " largest (" + (publication.maxMessageLength() - MessageFrame.HEADER_LENGTH) + " bytes: a"
                    + " term buffer of " + publication.termBufferLength() + " bytes)");
        }
        long deadline = 0;
        boolean retrying = false;
        while (true) {
            long result = publication.offer(frame, 0, length);
            if (result > 0) {
                counts.sendsAccepted.increment();
                if (retrying) {
                    counts.sendsRetried.increment();
                    retryIdle.reset();
                }
                return null;
            }
            if (result == Publication.BACK_PRESSURED) {
                counts.backPressured.increment();
            } else if (result == Publication.NOT_CONNECTED) {
                counts.notConnected.increment();
            } else if (result == Publication.ADMIN_ACTION) {
                counts.adminAction.increment();
            } else {
                counts.sendsFailed.increment();
                return new IllegalStateException(
                        result == Publication.CLOSED
                                ? "the Aeron publication is closed"
                                : "the Aeron publication reached its largest position (offer answered " + result + ")");
            }
            long now = System.nanoTime();
            if (!retrying) {
                retrying = true;
                deadline = now + offerTimeoutNanos;
            } else if (now - deadline >= 0) {
                counts.sendsRetried.increment();
                counts.sendsFailed.increment();
                retryIdle.reset();
                return new TimeoutException("Aeron did not accept the message within offerTimeoutMs "
                        + TimeUnit.NANOSECONDS.toMillis(offerTimeoutNanos) + " (last answer: " + answer(result) + ")");
            }
            retryIdle.idle();
        }
    }

    static String answer(long result) {
        if (result == Publication.BACK_PRESSURED) {
            return "BACK_PRESSURED";
        } else if (result == Publication.NOT_CONNECTED) {
            return "NOT_CONNECTED: no subscriber";
        } else if (result == Publication.ADMIN_ACTION) {
            return "ADMIN_ACTION";
        }
        return Long.toString(result);
    }

    @Override
    public void close() {
        publication.close();
    }
}

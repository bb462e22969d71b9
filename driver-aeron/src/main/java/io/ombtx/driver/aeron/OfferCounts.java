package io.ombtx.driver.aeron;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What publishers met when offering messages, over the driver's life (warm-up included): every offer Aeron refused,
 * by its answer, the sends that needed more than one offer, and those given up on after {@code offerTimeoutMs} (each
 * also reported to the runner as a failed send, so none is lost silently).
 */
final class OfferCounts {

    final LongAdder backPressured = new LongAdder();
    final LongAdder notConnected = new LongAdder();
    final LongAdder adminAction = new LongAdder();
    final LongAdder sendsRetried = new LongAdder();
    final LongAdder sendsFailed = new LongAdder();
    final LongAdder sendsAccepted = new LongAdder();

    Map<String, Object> describe() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("sendsAccepted", sendsAccepted.sum());
        out.put("backPressured", backPressured.sum());
        out.put("notConnected", notConnected.sum());
        out.put("adminAction", adminAction.sum());
        out.put("sendsRetried", sendsRetried.sum());
        out.put("sendsFailed", sendsFailed.sum());
        return out;
    }
}

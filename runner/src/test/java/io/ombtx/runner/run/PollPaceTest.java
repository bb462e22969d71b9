package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How often the measurement asks its workers: seldom while nothing is due, closely as a count's end nears. */
class PollPaceTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SEC = TimeUnit.SECONDS.toNanos(1);

    @Test
    void withoutARateYetItAsksSoon() {
        assertEquals(PollPace.MIN_NANOS, new PollPace().next(0, 0, 10_000, Long.MAX_VALUE));
    }

    @Test
    void farFromTheCountItWaitsTheLongest() {
        PollPace pace = new PollPace();
        pace.next(0, 0, 10_000, Long.MAX_VALUE);
        // 1000 operations a second, 9950 left: ~10 s away, so a second is the wait.
        assertEquals(PollPace.MAX_NANOS, pace.next(50 * MS, 50, 9_950, Long.MAX_VALUE));
    }

    @Test
    void nearingTheCountTheWaitHalvesDownToTheShortest() {
        // A loop of 1000 operations a second with 2000 to go, asked when the pace says.
        PollPace pace = new PollPace();
        long now = 0;
        long left = 2_000;
        long wait = pace.next(now, 0, left, Long.MAX_VALUE);
        java.util.List<Long> waits = new java.util.ArrayList<>();
        while (left > 0) {
            now += wait;
            left = Math.max(0, 2_000 - now / MS);
            wait = pace.next(now, now / MS, left, Long.MAX_VALUE);
            waits.add(wait / MS);
            // never past half of what is left, nor under the shortest wait
            assertEquals(
                    Math.max(PollPace.MIN_NANOS / MS, Math.min(1000, left / 2)), wait / MS, "at " + left + " left");
        }
        assertEquals(java.util.List.of(975L, 487L, 244L, 122L, 61L, 50L, 50L, 50L), waits);
    }

    @Test
    void somethingDueByTheClockIsNotWaitedPast() {
        PollPace pace = new PollPace();
        assertEquals(300 * MS, pace.next(0, 0, -1, 300 * MS));
        assertEquals(PollPace.MAX_NANOS, pace.next(SEC, 10, -1, 5 * SEC));
        assertEquals(PollPace.MIN_NANOS, pace.next(2 * SEC, 20, -1, 0));
    }

    @Test
    void aStalledCountIsAskedAboutSoonAgain() {
        PollPace pace = new PollPace();
        pace.next(0, 100, 500, Long.MAX_VALUE);
        // no operation since the last ask: the stall watch and a resuming loop both want the next ask soon
        assertEquals(PollPace.MIN_NANOS, pace.next(SEC, 100, 500, Long.MAX_VALUE));
    }
}

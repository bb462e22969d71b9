package io.ombtx.runner.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * The threads an open loop's schedules share: at most {@link #threads} of them, each serving its share of the
 * {@link PacedLoop}s (loop {@code i} on thread {@code i % n}) and sending, of its loops, the one whose operation is
 * due first, when it is due. A thousand producers need not be a thousand threads parked on two cores; with no more
 * schedules than threads each gets one of its own, as before. Sending is never blocked for long by the driver (a
 * send is queued, a transaction committed on the producer's own thread), so one thread keeps several schedules; when
 * it cannot, what was due waits and the publish delay says so.
 */
final class SharedSenders {

    /** A loop and the intended time of its next send. */
    private static final class Due implements Comparable<Due> {
        final PacedLoop loop;
        long intendedNanos;

        Due(PacedLoop loop) {
            this.loop = loop;
            this.intendedNanos = loop.pacer.nextIntendedNanos();
        }

        @Override
        public int compareTo(Due other) {
            return Long.compare(intendedNanos, other.intendedNanos);
        }
    }

    private SharedSenders() {}

    /** How many threads {@code schedules} share on a machine of {@code cores}: all of them up to 4 per core, min 8. */
    static int threads(int schedules, int cores) {
        return Math.max(1, Math.min(schedules, Math.max(8, 4 * cores)));
    }

    /**
     * Threads (not started) that send {@code loops}' operations until their bounds or an interrupt; {@code ended}
     * runs on each thread as it ends, with what stopped it (null: its loops were done or it was interrupted).
     */
    static List<Thread> of(List<PacedLoop> loops, int cores, Consumer<RuntimeException> ended) {
        int n = threads(loops.size(), cores);
        List<Thread> threads = new ArrayList<>(n);
        for (int t = 0; t < n; t++) {
            List<PacedLoop> mine = new ArrayList<>();
            for (int i = t; i < loops.size(); i += n) {
                mine.add(loops.get(i));
            }
            Thread thread = new Thread(() -> run(mine, ended), n == loops.size() ? mine.get(0).name : "sender-" + t);
            thread.setDaemon(true);
            threads.add(thread);
        }
        return threads;
    }

    private static void run(List<PacedLoop> loops, Consumer<RuntimeException> ended) {
        RuntimeException failure = null;
        try {
            PriorityQueue<Due> due = new PriorityQueue<>(Math.max(1, loops.size()));
            for (PacedLoop loop : loops) {
                due.add(new Due(loop));
            }
            while (!due.isEmpty() && !loops.get(0).state.stopping) {
                Due next = due.poll();
                long now = Pacer.awaitNanos(next.intendedNanos);
                if (now == Pacer.INTERRUPTED || next.loop.state.stopping) {
                    return;
                }
                if (next.loop.sendAt(next.intendedNanos, now)) {
                    next.intendedNanos = next.loop.pacer.nextIntendedNanos();
                    due.add(next);
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            ended.accept(failure);
        }
    }
}

package io.ombtx.driver.api;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A diagnostic for {@code bin/bench fidelity}: how long a closed loop's thread takes from one transaction's end
 * (its commit returned) to the next one's begin. That gap decides whether the next transaction meets the previous
 * commit's markers still being written (the ~100 ms {@code CONCURRENT_TRANSACTIONS} back-off of seeds 001 and 003),
 * so a loop that claims to be the seeds' loop must leave the same gap as their bare loop. Plain writes record the
 * gap from one write's last ack to the next write's first send: the longer it is, the more often the client's I/O
 * thread is asleep when the send must wake it. Off, and free, unless the system property {@value #PROPERTY} names a
 * file: then every gap is kept, in nanoseconds, and written there one per line, in order, when the JVM exits.
 *
 * <p>The same for the time an operation's clock is stopped inside it ({@link #recordPause}, the system property
 * {@value #PAUSE_PROPERTY}): where a closed loop's runner does its bookkeeping, between a transaction's last request
 * and its commit, while the bare loop calls the commit at once. That time is in no latency, but the loop's thread
 * runs on a core the broker and the client's I/O thread share.
 */
public final class LoopGap {

    public static final String PROPERTY = "ombtx.loopGapFile";
    public static final String PAUSE_PROPERTY = "ombtx.pauseFile";
    private static final Log GAPS = Log.named(PROPERTY);
    private static final Log PAUSES = Log.named(PAUSE_PROPERTY);
    /** Whether gaps are recorded (a constant, so callers' checks cost nothing when off). */
    public static final boolean ON = GAPS != null;
    /** Whether paused times are recorded. */
    public static final boolean PAUSES_ON = PAUSES != null;

    private LoopGap() {}

    /** Records one gap; past the capacity the rest are dropped. */
    public static void record(long nanos) {
        GAPS.add(nanos);
    }

    /** Records how long one operation's clock was stopped; past the capacity the rest are dropped. */
    public static void recordPause(long nanos) {
        PAUSES.add(nanos);
    }

    /** Nanoseconds kept in order and written to a file, one per line, when the JVM exits. */
    private static final class Log {
        private static final int CAPACITY = 1 << 20;
        private final String file;
        private final long[] values = new long[CAPACITY];
        private final AtomicInteger count = new AtomicInteger();

        private Log(String file) {
            this.file = file;
        }

        /** The log the system property {@code property} names a file for, or null when it names none. */
        static Log named(String property) {
            String file = System.getProperty(property);
            if (file == null) {
                return null;
            }
            Log log = new Log(file);
            Runtime.getRuntime().addShutdownHook(new Thread(log::write, "ombtx-" + property));
            return log;
        }

        void add(long nanos) {
            int i = count.getAndIncrement();
            if (i < CAPACITY) {
                values[i] = nanos;
            }
        }

        private void write() {
            int n = Math.min(count.get(), CAPACITY);
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(file), StandardCharsets.UTF_8))) {
                for (int i = 0; i < n; i++) {
                    out.println(values[i]);
                }
            } catch (IOException e) {
                System.err.println("warning: could not write " + file + ": " + e.getMessage());
            }
        }
    }
}

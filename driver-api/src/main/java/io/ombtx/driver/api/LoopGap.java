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
 */
public final class LoopGap {

    public static final String PROPERTY = "ombtx.loopGapFile";
    private static final String FILE = System.getProperty(PROPERTY);
    /** Whether gaps are recorded (a constant, so callers' checks cost nothing when off). */
    public static final boolean ON = FILE != null;

    private static final int CAPACITY = 1 << 20;
    private static final long[] GAPS = ON ? new long[CAPACITY] : new long[0];
    private static final AtomicInteger COUNT = new AtomicInteger();

    static {
        if (ON) {
            Runtime.getRuntime().addShutdownHook(new Thread(LoopGap::write, "ombtx-loop-gap"));
        }
    }

    private LoopGap() {}

    /** Records one gap; past the capacity the rest are dropped. */
    public static void record(long nanos) {
        int i = COUNT.getAndIncrement();
        if (i < CAPACITY) {
            GAPS[i] = nanos;
        }
    }

    private static void write() {
        int n = Math.min(COUNT.get(), CAPACITY);
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(FILE), StandardCharsets.UTF_8))) {
            for (int i = 0; i < n; i++) {
                out.println(GAPS[i]);
            }
        } catch (IOException e) {
            System.err.println("warning: could not write the loop gaps to " + FILE + ": " + e.getMessage());
        }
    }
}

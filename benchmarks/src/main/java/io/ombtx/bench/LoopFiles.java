package io.ombtx.bench;

import io.ombtx.driver.api.LoopListener;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code bin/bench fidelity}'s {@link LoopListener}, installed in both sides' JVMs through {@code
 * META-INF/services} (the benchmarks jar is on {@code bin/benchmark}'s class path under {@code bin/bench}): it keeps
 * every loop gap when the system property {@value #GAPS} names a file and every paused time when {@value #PAUSES}
 * does, in nanoseconds, and writes them there one per line, in order, when the JVM exits. With neither property it
 * does not listen, and the driver holds {@link LoopListener#NONE}.
 *
 * <p>The gap decides whether the next transaction meets the previous commit's markers still being written (the ~100
 * ms {@code CONCURRENT_TRANSACTIONS} back-off of seeds 001 and 003), so a loop that claims to be the seeds' loop must
 * leave the same gap as their bare loop; for plain writes, the longer it is the more often the client's I/O thread is
 * asleep when the send must wake it. The paused time is where a closed loop's runner does its bookkeeping, between a
 * transaction's last request and its commit, while the bare loop calls the commit at once: in no latency, but on a
 * core the broker and the client's I/O thread share.
 */
public final class LoopFiles implements LoopListener {

    static final String GAPS = "ombtx.loopGapFile";
    static final String PAUSES = "ombtx.pauseFile";
    private final Log gaps = Log.named(GAPS);
    private final Log pauses = Log.named(PAUSES);

    /** For {@link java.util.ServiceLoader}. */
    public LoopFiles() {}

    @Override
    public boolean listening() {
        return gaps != null || pauses != null;
    }

    /** Records one gap unless gaps are not kept; past the capacity the rest are dropped. */
    @Override
    public void gap(long nanos) {
        if (gaps != null) {
            gaps.add(nanos);
        }
    }

    /** Records one paused time unless those are not kept; past the capacity the rest are dropped. */
    @Override
    public void paused(long nanos) {
        if (pauses != null) {
            pauses.add(nanos);
        }
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

package io.ombtx.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;

/**
 * How long this machine's disk takes to make a small append durable, right now: appends of 100 bytes to a fresh file,
 * each followed by {@link FileChannel#force force(true)} (the call a Kafka log's flush makes), for a given time. On a
 * broker that fsyncs every message ({@code log.flush.interval.messages=1}) an operation waits for two or three such
 * flushes, so how far the disk moves from one run to the next is in every loop's figures, whichever loop ran.
 */
final class DiskProbe {

    /** The flushes' median, µs, and how many were timed. */
    record Figures(double p50Micros, int flushes) {}

    private static final int RECORD_BYTES = 100;

    private DiskProbe() {}

    /** Flushes appends to a new file in {@code dir} for {@code duration} (at least 10 of them), then deletes it. */
    static Figures run(Path dir, Duration duration) throws IOException {
        Path file = Files.createTempFile(dir, "disk-probe-", ".log");
        long[] micros = new long[1024];
        int n = 0;
        ByteBuffer record = ByteBuffer.allocate(RECORD_BYTES);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            long end = System.nanoTime() + duration.toNanos();
            while (n < 10 || System.nanoTime() < end) {
                long start = System.nanoTime();
                record.clear();
                while (record.hasRemaining()) {
                    channel.write(record);
                }
                channel.force(true);
                if (n == micros.length) {
                    micros = Arrays.copyOf(micros, n * 2);
                }
                micros[n++] = (System.nanoTime() - start) / 1000;
            }
        } finally {
            Files.deleteIfExists(file);
        }
        long[] sorted = Arrays.copyOf(micros, n);
        Arrays.sort(sorted);
        return new Figures(sorted[n / 2], n);
    }
}

package io.ombtx.driver.kafka;

import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.LiveCheckReport.Kind;
import io.ombtx.driver.api.LiveCheckReport.Violation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * The live check's judgement of a STREAM's output, record by record as they are read, with no I/O (the thread and
 * the consumer are {@link LiveExactlyOnceChecker}'s). An output record names its source record by its key
 * {@code "<partition>:<offset>"} ({@link StreamProcessor#sourceKey}). Per source partition it keeps the source offsets
 * seen (a bit set: one bit per source offset) and the highest one, so a record is judged against all before it:
 * <ul>
 *   <li>marked {@link io.ombtx.driver.api.ExactlyOnceReport#ABORTED_HEADER}: a record of a transaction aborted on
 *       purpose, never to be visible;</li>
 *   <li>its source offset seen before: a duplicate;</li>
 *   <li>below the highest seen of its source partition: out of source order;</li>
 *   <li>when the group's committed offsets are read ({@link #committed}), after the records: each source offset seen
 *       at or above its partition's committed offset was visible though its offsets were not committed.</li>
 * </ul>
 * Not thread-safe: one thread feeds it.
 */
final class LiveCheckState {

    /** The highest source partition tracked (a topic has far fewer); a key naming a higher one is unknown. */
    static final int MAX_SOURCE_PARTITION = 1 << 16;

    private final String topic;
    private final int maxViolations;
    private SourcePartition[] sources = new SourcePartition[0];
    private final List<Violation> violations = new ArrayList<>();
    private long outputsRead;
    private long duplicates;
    private long abortedSeen;
    private long uncommitted;
    private long outOfOrder;
    private long unknownSource;

    /** @param topic the output topic, named in each violation */
    LiveCheckState(String topic, int maxViolations) {
        this.topic = topic;
        this.maxViolations = maxViolations;
    }

    /** What one source partition's outputs have shown so far. */
    private static final class SourcePartition {
        final BitSet seen = new BitSet();
        long highest = -1;
        int highestOutputPartition;
        long highestOutputOffset;
        /** The lowest source offset seen since the committed offsets were last read; MAX_VALUE: none. */
        long unjudgedFrom = Long.MAX_VALUE;
        /** The source offsets already counted as uncommitted (made only when there is one). */
        BitSet flaggedUncommitted;
    }

    /**
     * Judges one output record.
     *
     * @param key the record's key bytes (UTF-8), null when it has none
     * @param abortMarked whether it carries the mark of a transaction aborted on purpose
     * @param seenEpochMillis when it was read
     */
    void accept(int partition, long offset, byte[] key, boolean abortMarked, long seenEpochMillis) {
        outputsRead++;
        int sourcePartition = -1;
        long sourceOffset = -1;
        int colon = key == null ? -1 : indexOf(key, (byte) ':');
        if (colon > 0) {
            long p = digits(key, 0, colon);
            long o = digits(key, colon + 1, key.length);
            if (p >= 0 && p <= Integer.MAX_VALUE && o >= 0) {
                sourcePartition = (int) p;
                sourceOffset = o;
            }
        }
        if (abortMarked) {
            abortedSeen++;
            flag(
                    Kind.ABORTED,
                    partition,
                    offset,
                    sourcePartition,
                    sourceOffset,
                    seenEpochMillis,
                    "written in a transaction aborted on purpose");
            return;
        }
        if (sourcePartition < 0 || sourcePartition > MAX_SOURCE_PARTITION || sourceOffset >= Integer.MAX_VALUE) {
            unknownSource++;
            flag(
                    Kind.UNKNOWN_SOURCE,
                    partition,
                    offset,
                    sourcePartition,
                    sourceOffset,
                    seenEpochMillis,
                    sourcePartition < 0
                            ? "its key names no source record"
                            : "its source partition or offset is beyond what the check tracks");
            return;
        }
        SourcePartition source = source(sourcePartition);
        int bit = (int) sourceOffset;
        if (source.seen.get(bit)) {
            duplicates++;
            flag(
                    Kind.DUPLICATE,
                    partition,
                    offset,
                    sourcePartition,
                    sourceOffset,
                    seenEpochMillis,
                    "source record " + sourcePartition + ":" + sourceOffset + " was already in the output");
            return;
        }
        source.seen.set(bit);
        source.unjudgedFrom = Math.min(source.unjudgedFrom, sourceOffset);
        if (sourceOffset < source.highest) {
            outOfOrder++;
            flag(
                    Kind.OUT_OF_ORDER,
                    partition,
                    offset,
                    sourcePartition,
                    sourceOffset,
                    seenEpochMillis,
                    "after source offset " + source.highest + " of the same source partition");
            return;
        }
        source.highest = sourceOffset;
        source.highestOutputPartition = partition;
        source.highestOutputOffset = offset;
    }

    /**
     * The group's committed offsets (the next source offset to process, per source partition; absent: none), read
     * with {@code requireStable} after every record accepted so far had been read: a transaction's offsets are
     * committed by the time its outputs are visible, so each source offset seen at or above its partition's committed
     * offset is a visible output whose offsets were not committed. A source offset is judged at the first reading after
     * it was seen (every later one is higher), and counted at most once.
     */
    void committed(Map<Integer, Long> committedBelow, long readEpochMillis) {
        for (int p = 0; p < sources.length; p++) {
            SourcePartition source = sources[p];
            if (source == null || source.unjudgedFrom == Long.MAX_VALUE) {
                continue; // nothing seen since the last reading: the usual case, a few operations per partition
            }
            long committed = committedBelow.getOrDefault(p, 0L);
            long from = Math.max(committed, source.unjudgedFrom);
            source.unjudgedFrom = Long.MAX_VALUE;
            long visible = 0;
            long first = -1;
            for (int o = source.seen.nextSetBit((int) Math.min(from, Integer.MAX_VALUE));
                    o >= 0 && o <= source.highest;
                    o = source.seen.nextSetBit(o + 1)) {
                if (source.flaggedUncommitted == null) {
                    source.flaggedUncommitted = new BitSet();
                }
                if (!source.flaggedUncommitted.get(o)) {
                    source.flaggedUncommitted.set(o);
                    visible++;
                    first = first < 0 ? o : first;
                }
            }
            if (visible > 0) {
                uncommitted += visible;
                flag(
                        Kind.UNCOMMITTED,
                        source.highestOutputPartition,
                        source.highestOutputOffset,
                        p,
                        first,
                        readEpochMillis,
                        visible + " output(s) of source offsets " + first + ".." + source.highest
                                + " visible while the group's committed offset was " + committed);
            }
        }
    }

    LiveCheckReport report(boolean readToEnd) {
        return new LiveCheckReport(
                outputsRead, duplicates, abortedSeen, uncommitted, outOfOrder, unknownSource, readToEnd, violations);
    }

    private void flag(
            Kind kind,
            int partition,
            long offset,
            int sourcePartition,
            long sourceOffset,
            long seenEpochMillis,
            String detail) {
        if (violations.size() < maxViolations) {
            violations.add(new Violation(
                    kind, topic, partition, offset, sourcePartition, sourceOffset, seenEpochMillis, detail));
        }
    }

    private SourcePartition source(int partition) {
        if (partition >= sources.length) {
            sources = Arrays.copyOf(sources, Math.max(partition + 1, sources.length * 2));
        }
        SourcePartition source = sources[partition];
        if (source == null) {
            source = new SourcePartition();
            sources[partition] = source;
        }
        return source;
    }

    private static int indexOf(byte[] bytes, byte wanted) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    /** The decimal number in {@code bytes[from, to)}, or -1 when it is empty, not all digits, or too long. */
    private static long digits(byte[] bytes, int from, int to) {
        if (from >= to || to - from > 18) {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int digit = bytes[i] - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}

package io.ombtx.driver.api;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What the live exactly-once check saw: a read_committed consumer of a STREAM's output that ran during the whole
 * measurement and judged each output record as it read it ({@code operation.liveCheck}).
 *
 * @param outputsRead output records read
 * @param duplicates output records whose source record (the key {@code "<partition>:<offset>"}) had been seen before
 * @param abortedSeen output records marked {@link ExactlyOnceReport#ABORTED_HEADER}: written in a transaction aborted
 *     on purpose, which read_committed must never show
 * @param uncommitted output records seen while their source offset was not below the group's committed offset, read
 *     with {@code requireStable} after them: visible output of a transaction whose offsets were not committed
 * @param outOfOrder output records whose source offset is below one already seen from the same source partition
 * @param unknownSource output records whose key names no source record
 * @param readToEnd whether, when stopped, the check read the output up to its last stable offset
 * @param violations the first {@link #MAX_VIOLATIONS} violations, in the order they were seen
 */
public record LiveCheckReport(
        long outputsRead,
        long duplicates,
        long abortedSeen,
        long uncommitted,
        long outOfOrder,
        long unknownSource,
        boolean readToEnd,
        List<Violation> violations) {

    /** How many violations a report keeps (its counts cover them all). */
    public static final int MAX_VIOLATIONS = 20;

    public LiveCheckReport {
        violations = List.copyOf(violations);
    }

    /** No violation of any kind. */
    public boolean passed() {
        return duplicates == 0 && abortedSeen == 0 && uncommitted == 0 && outOfOrder == 0 && unknownSource == 0;
    }

    /** The reports of two outputs as one: counts added, the violations merged by the time seen, the first kept. */
    public LiveCheckReport plus(LiveCheckReport other) {
        List<Violation> merged = new ArrayList<>(violations);
        merged.addAll(other.violations);
        merged.sort(Comparator.comparingLong(Violation::seenEpochMillis));
        return new LiveCheckReport(
                outputsRead + other.outputsRead,
                duplicates + other.duplicates,
                abortedSeen + other.abortedSeen,
                uncommitted + other.uncommitted,
                outOfOrder + other.outOfOrder,
                unknownSource + other.unknownSource,
                readToEnd && other.readToEnd,
                merged.subList(0, Math.min(MAX_VIOLATIONS, merged.size())));
    }

    /**
     * One violation, where and when it was seen.
     *
     * @param topic the output topic
     * @param partition the output partition
     * @param offset the output record's offset (for {@code uncommitted}: of the last record seen from that source
     *     partition when the committed offsets were read)
     * @param sourcePartition the source partition its key names, -1 when it names none
     * @param sourceOffset the source offset its key names (for {@code uncommitted}: the first one seen that was not
     *     committed), -1 when it names none
     * @param seenEpochMillis when the checker read it (for {@code uncommitted}: when the committed offsets said so)
     * @param detail what was wrong, in words
     */
    public record Violation(
            Kind kind,
            String topic,
            int partition,
            long offset,
            int sourcePartition,
            long sourceOffset,
            long seenEpochMillis,
            String detail) {}

    /** The kinds of violation, by the name the result file gives them. */
    public enum Kind {
        DUPLICATE("duplicate"),
        ABORTED("aborted"),
        UNCOMMITTED("uncommitted"),
        OUT_OF_ORDER("outOfOrder"),
        UNKNOWN_SOURCE("unknownSource");

        private final String key;

        Kind(String key) {
            this.key = key;
        }

        @JsonValue
        public String key() {
            return key;
        }
    }
}

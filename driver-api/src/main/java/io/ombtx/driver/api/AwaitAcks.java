package io.ombtx.driver.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where a transactional operation (or a STREAM batch) waits for its sends' acks, relative to
 * {@code sendOffsetsToTransaction} and the commit. The other calls keep their order: begin, send, sendOffsets,
 * commit. The seeds differ here, and it changes the result: waiting after the commit lets the client's
 * sendOffsetsToTransaction meet the partitions' back-off (seeds 000 and 001), waiting first does not.
 */
public enum AwaitAcks {
    /** begin, send, resolve, sendOffsets, commit (seed 003's TxWrites: {@code f.get()} before the commit). */
    BEFORE_SEND_OFFSETS("before-send-offsets"),
    /** begin, send, sendOffsets, resolve, commit. */
    BEFORE_COMMIT("before-commit"),
    /** begin, send, sendOffsets, commit, resolve (seeds 000 and 001): the commit flushes the sends first. */
    AFTER_COMMIT("after-commit");

    private final String key;

    AwaitAcks(String key) {
        this.key = key;
    }

    /** The name in workload YAML, results and the dry run. */
    @JsonValue
    public String key() {
        return key;
    }

    /**
     * The phases one operation runs in this order, when nothing fails: what the dry run announces and what a
     * driver's recorded sequence is checked against.
     *
     * @param transactional begins a transaction (a naive STREAM does not; its commit is {@code commitSync})
     * @param sends writes records (a SEND_OFFSETS-only transaction does not, so it has no send and no resolve)
     * @param sendOffsets calls {@code sendOffsetsToTransaction}
     */
    public List<Phase> phases(boolean transactional, boolean sends, boolean sendOffsets) {
        List<Phase> phases = new ArrayList<>();
        if (transactional) {
            phases.add(Phase.BEGIN);
        }
        if (sends) {
            phases.add(Phase.SEND);
        }
        if (sends && this == BEFORE_SEND_OFFSETS) {
            phases.add(Phase.RESOLVE);
        }
        if (sendOffsets) {
            phases.add(Phase.SEND_OFFSETS);
        }
        if (sends && this == BEFORE_COMMIT) {
            phases.add(Phase.RESOLVE);
        }
        phases.add(Phase.COMMIT);
        if (sends && this == AFTER_COMMIT) {
            phases.add(Phase.RESOLVE);
        }
        return List.copyOf(phases);
    }

    /** The expected phases of {@code spec}'s operation, or an empty list when it has no order to choose. */
    public static List<Phase> phasesOf(OperationSpec spec) {
        if (spec.awaitAcks() == null) {
            return List.of();
        }
        boolean sendOffsets = spec.kind() == OperationKind.SEND_OFFSETS
                || spec.sendOffsets()
                || (spec.kind() == OperationKind.STREAM && spec.transactional());
        return spec.awaitAcks().phases(spec.transactional(), spec.kind() != OperationKind.SEND_OFFSETS, sendOffsets);
    }

    public static List<String> keys() {
        return Arrays.stream(values()).map(AwaitAcks::key).toList();
    }

    /** @throws IllegalArgumentException naming the valid keys */
    @JsonCreator
    public static AwaitAcks ofKey(String key) {
        return EnumKeys.find(values(), AwaitAcks::key, key)
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown order '" + key + "': expected one of " + String.join(", ", keys())));
    }
}

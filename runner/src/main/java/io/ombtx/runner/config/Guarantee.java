package io.ombtx.runner.config;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.config.ConfigFields;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A transactional guarantee of a Kafka-API broker that a workload's run judges ({@code conformance: ID}), with what
 * the workload needs for the judgement to mean something: the checks whose counts it is judged from, the faults it
 * must survive. Five are judged from what the run's own checks saw (the exactly-once check after the run, the live
 * check, the client faults' records); two ({@link #PROBE}) by a probe of the cluster after the measurement, whose
 * clients of its own hold a transaction open or let it time out.
 */
public enum Guarantee {
    ABORTED_INVISIBLE("aborted-invisible", "aborted records invisible to read_committed"),
    OFFSETS_ATOMIC("offsets-atomic", "outputs and committed offsets atomic"),
    NO_DUPLICATES_AFTER_KILL("no-duplicates-after-kill", "no duplicates after a client kill and restart"),
    ZOMBIE_FENCED("zombie-fenced", "a zombie fenced: its commit refused"),
    OPEN_TRANSACTION_HOLDS_LSO("open-transaction-holds-lso", "an open transaction holds read_committed readers"),
    TIMEOUT_ABORTS("timeout-aborts", "a transaction past transaction.timeout.ms aborted by the broker"),
    PARTITION_ORDER("partition-order", "per-partition order kept");

    private final String id;
    private final String title;

    Guarantee(String id, String title) {
        this.id = id;
        this.title = title;
    }

    /** Its name in workloads and results: {@code aborted-invisible}, … */
    public String id() {
        return id;
    }

    public String title() {
        return title;
    }

    /** Judged by a probe of the cluster's own (after the measurement), not from the run's checks. */
    public boolean probe() {
        return this == OPEN_TRANSACTION_HOLDS_LSO || this == TIMEOUT_ABORTS;
    }

    public static String ids() {
        return Arrays.stream(values()).map(Guarantee::id).collect(Collectors.joining(", "));
    }

    /**
     * A workload's {@code conformance}, or null when it names none; checked against the parts read before it, so that
     * a guarantee is never judged from a check the run does not make (exit 2, naming the key).
     */
    static Guarantee read(
            ConfigFields f, OperationSpec operation, OperationOptions options, List<Fault> faults, int consumers) {
        if (!f.has("conformance")) {
            return null;
        }
        String given = f.text("conformance", "").trim().toLowerCase(Locale.ROOT);
        Guarantee g = Arrays.stream(values())
                .filter(v -> v.id.equals(given))
                .findFirst()
                .orElseThrow(() -> f.error("conformance", "expected one of " + ids() + ", got '" + given + "'"));
        if (!operation.transactional()) {
            throw f.error(
                    "conformance", "judging " + g.id + " needs a transactional operation (operation.transactional)");
        }
        if (g.probe()) {
            return g;
        }
        if (operation.kind() != OperationKind.STREAM || !options.verifyExactlyOnce() || !options.liveCheck()) {
            throw f.error(
                    "conformance",
                    g.id + " is judged from a STREAM's checks: needs operation.kind STREAM with verifyExactlyOnce and"
                            + " liveCheck true");
        }
        switch (g) {
            case ABORTED_INVISIBLE -> {
                if (operation.abortRatio() <= 0) {
                    throw f.error(
                            "conformance", g.id + " needs transactions aborted on purpose: operation.abortRatio > 0");
                }
            }
            case NO_DUPLICATES_AFTER_KILL -> needsClientFault(f, faults, FaultAction.KILL, "a client kill", "");
            case ZOMBIE_FENCED -> needsClientFault(f, faults, FaultAction.PAUSE, "a zombie", ", resumeAfter");
            default -> {}
        }
        return g;
    }

    /** Refuses a guarantee judged by what a client fault did when the workload declares no such fault. */
    private static void needsClientFault(
            ConfigFields f, List<Fault> faults, FaultAction action, String what, String recovery) {
        if (faults.stream().noneMatch(x -> x.action() == action && x.target().isClient())) {
            throw f.error(
                    "conformance",
                    f.text("conformance", "") + " needs " + what + " among the faults (action: "
                            + action.name().toLowerCase(Locale.ROOT) + ", target: stream-processor" + recovery + ")");
        }
    }
}

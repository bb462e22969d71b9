package io.ombtx.runner.config;

import java.time.Duration;
import java.util.Locale;

/**
 * One fault a workload declares in its {@code faults:} list, validated: what happens to which broker or client, when
 * (seconds after the measurement started, or once so many measured operations completed) and whether and when the
 * target comes back.
 *
 * @param position the fault's index in the workload's list (its key is {@code faults[position]})
 * @param action kill, pause or stop; for a stream processor in group mode also add or remove
 * @param target the role or index that picks the broker, or the kind of client
 * @param brokerIndex for {@link FaultTarget#BROKER}: the broker's index, from 0; else null
 * @param partition for {@link FaultTarget#PARTITION_LEADER}: the partition of the first topic; else null
 * @param at when, from the start of the measurement; null when {@code afterOperations} says
 * @param afterOperations when: once this many measured operations completed; null when {@code at} says
 * @param recoverAfter how long after the injection the broker is restarted or resumed (a client: its new instance
 *     starts); null: not during the run
 * @param clientIndex for a client target: which stream processor or transactional producer, from 0 in the order the
 *     runner creates them (processors added by {@code action: add} follow); null for add and for brokers
 */
public record Fault(
        int position,
        FaultAction action,
        FaultTarget target,
        Integer brokerIndex,
        Integer partition,
        Duration at,
        Long afterOperations,
        Duration recoverAfter,
        Integer clientIndex) {

    /** The workload key of this fault, {@code faults[N]}. */
    public String key() {
        return "faults[" + position + "]";
    }

    /** Whether the broker comes back during the run. */
    public boolean recovers() {
        return recoverAfter != null;
    }

    /** The target as a workload names it: a role, the broker index, or the client and its index. */
    public String targetName() {
        if (target == FaultTarget.BROKER) {
            return "broker " + brokerIndex;
        }
        return clientIndex != null ? target.key() + " " + clientIndex : target.key();
    }

    /** One line for the dry run and the console: "kill partition-leader (partition 0) at 20 s, restart after 10 s". */
    public String describe() {
        StringBuilder text = new StringBuilder(action.key()).append(' ').append(targetName());
        if (partition != null) {
            text.append(" (partition ").append(partition).append(" of the first topic)");
        }
        text.append(at != null ? " at " + seconds(at) + " s" : " after " + afterOperations + " measured operation(s)");
        if (action.recovery() != null) {
            text.append(
                    recoverAfter != null
                            ? ", " + action.recovery() + " after " + seconds(recoverAfter) + " s"
                            : ", no " + action.recovery() + " during the run");
        }
        return text.toString();
    }

    static String seconds(Duration d) {
        double s = d.toMillis() / 1000.0;
        return s == Math.rint(s)
                ? Long.toString((long) s)
                : String.format(Locale.ROOT, "%.3f", s).replaceAll("0+$", "");
    }
}

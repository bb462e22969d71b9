package io.ombtx.runner.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.driver.api.KeySuggestions;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.ConfigFields;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and checks a workload's {@code faults:} list with the strictness of every other workload key: unknown keys
 * (with a did-you-mean), wrong types and values the run cannot meet are errors naming {@code faults[N].key}. What
 * depends on the brokers (an index beyond the cluster, a fault that leaves no broker) or on the driver (whether it
 * can fault its clients) is checked while planning.
 */
final class FaultsReader {

    static final List<String> FAULT_KEYS =
            List.of("action", "target", "index", "partition", "at", "afterOperations", "restartAfter", "resumeAfter");
    private static final List<String> ROLE_KEYS = List.of(
            FaultTarget.PARTITION_LEADER.key(),
            FaultTarget.TRANSACTION_COORDINATOR.key(),
            FaultTarget.GROUP_COORDINATOR.key(),
            FaultTarget.STREAM_PROCESSOR.key(),
            FaultTarget.TRANSACTIONAL_PRODUCER.key());
    private static final Duration LONGEST_RECOVERY = Duration.ofHours(1);
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9}(?:\\.\\d{1,3})?)\\s*(ms|s|m)?");
    private static final int MOST_FAULTS = 100;

    /** What the checks need to know of the run. */
    record Run(
            boolean countBased,
            Duration testDuration,
            long measureOperations,
            boolean transactional,
            int consumers,
            int partitionsPerTopic,
            OperationKind kind,
            int topics,
            int subscriptionsPerTopic,
            int consumerPerSubscription,
            int producers) {

        /** Group mode: one topic, one subscription, several stream processors sharing its partitions. */
        boolean groupMode() {
            return kind == OperationKind.STREAM
                    && topics == 1
                    && subscriptionsPerTopic == 1
                    && consumerPerSubscription > 1;
        }
    }

    private FaultsReader() {}

    static List<Fault> read(ConfigFields workload, Run run) {
        if (!workload.has("faults")) {
            return List.of();
        }
        JsonNode list = workload.node().get("faults");
        if (!list.isArray()) {
            throw workload.error(
                    "faults",
                    "expected a list of faults, each '- action: kill' with a target and a time," + " got "
                            + ConfigFields.show(list));
        }
        if (list.size() > MOST_FAULTS) {
            throw workload.error("faults", "at most " + MOST_FAULTS + " faults, got " + list.size());
        }
        List<Fault> faults = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String key = workload.path("faults") + "[" + i + "]";
            JsonNode entry = list.get(i);
            if (!entry.isObject()) {
                throw new ConfigException(
                        workload.file(),
                        key,
                        "expected a mapping (action, target, at or"
                                + " afterOperations, and optionally restartAfter/resumeAfter), got "
                                + ConfigFields.show(entry));
            }
            faults.add(one(new ConfigFields(workload.file(), entry, key), i, run));
        }
        return List.copyOf(faults);
    }

    private static Fault one(ConfigFields f, int position, Run run) {
        f.onlyKeys(FAULT_KEYS);
        if (!f.has("action")) {
            throw f.error(
                    "action",
                    "required: kill (SIGKILL) | pause (SIGSTOP) | stop (a controlled shutdown); for a stream processor"
                            + " in group mode also add | remove");
        }
        FaultAction action = f.choice("action", FaultAction.class, null);

        if (!f.has("target")) {
            throw f.error(
                    "target",
                    "required: " + FaultTarget.ROLES + ", a broker index (0 for the first broker) or "
                            + FaultTarget.CLIENTS);
        }
        Integer brokerIndex = null;
        FaultTarget target;
        JsonNode value = f.node().get("target");
        if (value.isContainerNode()) {
            throw f.error(
                    "target",
                    "expected " + FaultTarget.ROLES + ", a broker index or " + FaultTarget.CLIENTS + ", got "
                            + ConfigFields.show(value));
        }
        String text = value.asText().trim();
        if (value.isIntegralNumber() || text.matches("-?\\d+")) {
            brokerIndex = f.wholeNumber("target", 0, 0, BrokerSetup.MAX_EMBEDDED_BROKERS - 1);
            target = FaultTarget.BROKER;
        } else {
            target = role(f, text);
        }
        if (target == FaultTarget.TRANSACTION_COORDINATOR && !run.transactional()) {
            throw f.error(
                    "target",
                    "transaction-coordinator: the workload's operation is not transactional"
                            + " (operation.transactional), so its run has no transaction coordinator");
        }
        if (target == FaultTarget.GROUP_COORDINATOR && run.consumers() == 0) {
            throw f.error(
                    "target",
                    "group-coordinator: the workload has no consumers (subscriptionsPerTopic,"
                            + " consumerPerSubscription), so its run has no consumer group");
        }

        Integer clientIndex = clientIndex(f, action, target, run);

        Integer partition = null;
        if (f.has("partition")) {
            if (target != FaultTarget.PARTITION_LEADER) {
                throw f.error("partition", "applies to target: partition-leader only");
            }
            partition = f.wholeNumber("partition", 0, 0, Integer.MAX_VALUE);
            if (partition >= run.partitionsPerTopic()) {
                throw f.error(
                        "partition",
                        "the first topic has " + run.partitionsPerTopic() + " partition(s)"
                                + " (partitionsPerTopic): expected 0 to " + (run.partitionsPerTopic() - 1) + ", got "
                                + partition);
            }
        } else if (target == FaultTarget.PARTITION_LEADER) {
            partition = 0;
        }

        boolean hasAt = f.has("at");
        boolean hasCount = f.has("afterOperations");
        if (hasAt == hasCount) {
            throw f.error(
                    hasAt ? "afterOperations" : "at",
                    hasAt
                            ? "give the time (at) or the operation count (afterOperations), not both"
                            : "required: when the fault happens, as a time from the start of the measurement (at: 20s) or"
                                    + " a count of measured operations (afterOperations: 500)");
        }
        Duration at = null;
        Long afterOperations = null;
        if (hasAt) {
            at = duration(f, "at", Duration.ZERO, Duration.ofDays(31));
            if (!run.countBased() && at.compareTo(run.testDuration()) >= 0) {
                throw f.error(
                        "at",
                        "at " + Fault.seconds(at) + " s is not within the measurement, which lasts "
                                + run.testDuration().toSeconds() + " s");
            }
        } else {
            if (!run.countBased()) {
                throw f.error(
                        "afterOperations",
                        "counts measured operations, but this run is time-based: give the" + " time instead (at: 20s)");
            }
            afterOperations = f.wholeNumber("afterOperations", 0L, 0L, Long.MAX_VALUE);
            if (afterOperations >= run.measureOperations()) {
                throw f.error(
                        "afterOperations",
                        "the run measures " + run.measureOperations() + " operation(s): expected" + " 0 to "
                                + (run.measureOperations() - 1) + ", got " + afterOperations);
            }
        }

        if (action.changesGroup()) {
            for (String key : List.of("restartAfter", "resumeAfter")) {
                if (f.has(key)) {
                    throw f.error(
                            key,
                            action.key() + " changes the group for the rest of the run; nothing brings it back (a"
                                    + " later fault can " + (action == FaultAction.ADD ? "remove" : "add")
                                    + " a processor)");
                }
            }
            return new Fault(position, action, target, null, null, at, afterOperations, null, clientIndex);
        }
        String wrongKey = action == FaultAction.PAUSE ? "restartAfter" : "resumeAfter";
        String what = target.isClient() ? "client" : "broker";
        if (f.has(wrongKey)) {
            throw f.error(
                    wrongKey,
                    action == FaultAction.PAUSE
                            ? "a paused " + what + " is resumed, not restarted: write resumeAfter"
                            : "a " + (action == FaultAction.KILL ? "killed" : "stopped") + " " + what
                                    + " is restarted, not resumed:" + " write restartAfter");
        }
        if (action == FaultAction.PAUSE && target.isClient() && !f.has("resumeAfter")) {
            throw f.error(
                    "resumeAfter",
                    "required for a paused client: when its new instance (same transactional id) starts and the"
                            + " zombie goes on, to be fenced");
        }
        Duration recoverAfter = null;
        if (f.has(action.recoveryKey())) {
            recoverAfter = duration(f, action.recoveryKey(), Duration.ofMillis(1), LONGEST_RECOVERY);
            if (at != null && !run.countBased() && at.plus(recoverAfter).compareTo(run.testDuration()) > 0) {
                throw f.error(
                        action.recoveryKey(),
                        "the " + what + " would come back " + Fault.seconds(at.plus(recoverAfter))
                                + " s into the measurement, after it ends ("
                                + run.testDuration().toSeconds() + " s)");
            }
        }
        return new Fault(
                position, action, target, brokerIndex, partition, at, afterOperations, recoverAfter, clientIndex);
    }

    /**
     * A client target's checks against the run, and its index (null for add, which makes a new processor, and for
     * brokers): a client fault restarts the client with the same transactional id, so the operation must be
     * transactional and of the client's kind; add and remove need group mode.
     */
    private static Integer clientIndex(ConfigFields f, FaultAction action, FaultTarget target, Run run) {
        if (!target.isClient()) {
            if (action.changesGroup()) {
                throw f.error(
                        "action",
                        action.key() + " adds or removes a stream processor: it needs target: stream-processor, got "
                                + target.key());
            }
            if (f.has("index")) {
                throw f.error(
                        "index",
                        "applies to target: " + FaultTarget.CLIENTS + " (a broker is named by target: 0, 1, ...)");
            }
            return null;
        }
        if (target == FaultTarget.STREAM_PROCESSOR && run.kind() != OperationKind.STREAM) {
            throw f.error(
                    "target",
                    "stream-processor: the workload's operation is " + run.kind()
                            + ", which runs no stream processor (operation.kind: STREAM does)");
        }
        if (target == FaultTarget.TRANSACTIONAL_PRODUCER
                && run.kind() != OperationKind.WRITE
                && run.kind() != OperationKind.SEND_OFFSETS) {
            throw f.error(
                    "target",
                    "transactional-producer: the workload's operation is " + run.kind()
                            + ", whose loop runs no whole transactions on a producer (WRITE or SEND_OFFSETS does;"
                            + " for STREAM write target: stream-processor)");
        }
        if (!run.transactional()) {
            throw f.error(
                    "target",
                    target.key() + ": the workload's operation is not transactional (operation.transactional), so"
                            + " there is no transactional id for a new instance to take over");
        }
        if (action.changesGroup() && target != FaultTarget.STREAM_PROCESSOR) {
            throw f.error("action", action.key() + " applies to target: stream-processor only");
        }
        if (action.changesGroup() && !run.groupMode()) {
            throw f.error(
                    "action",
                    action.key() + " needs group mode: one topic, one subscription and several stream processors in"
                            + " its group (topics: 1, subscriptionsPerTopic: 1, consumerPerSubscription: 2 or more),"
                            + " got topics " + run.topics() + ", subscriptionsPerTopic " + run.subscriptionsPerTopic()
                            + ", consumerPerSubscription " + run.consumerPerSubscription());
        }
        if (action == FaultAction.ADD) {
            if (f.has("index")) {
                throw f.error("index", "add makes a new stream processor, which takes the next index: give no index");
            }
            return null;
        }
        int clients = target == FaultTarget.STREAM_PROCESSOR ? run.consumers() : run.producers();
        String counted = target == FaultTarget.STREAM_PROCESSOR
                ? "stream processor(s) (topics × subscriptionsPerTopic × consumerPerSubscription)"
                : "transactional producer(s) (topics × producersPerTopic)";
        int index = f.wholeNumber("index", 0, 0, Integer.MAX_VALUE);
        if (index >= clients) {
            throw f.error(
                    "index",
                    "the run starts " + clients + " " + counted + ": expected 0 to " + (clients - 1) + ", got "
                            + index);
        }
        return index;
    }

    private static FaultTarget role(ConfigFields f, String text) {
        String normalized = text.toLowerCase(Locale.ROOT).replace('_', '-');
        for (FaultTarget role : FaultTarget.values()) {
            if (role != FaultTarget.BROKER && role.key().equals(normalized)) {
                return role;
            }
        }
        if (normalized.equals("broker")) {
            throw f.error("target", "name the broker by its index: target: 0 for the first broker (by node id)");
        }
        String hint = KeySuggestions.closest(normalized, ROLE_KEYS)
                .map(s -> " (did you mean '" + s + "'?)")
                .orElse("");
        throw f.error(
                "target",
                "expected " + FaultTarget.ROLES + ", a broker index (0, 1, ...) or " + FaultTarget.CLIENTS + ", got '"
                        + text + "'" + hint);
    }

    /** A duration: a number of seconds, or a number with a unit, ms, s or m (20s, 500ms, 1.5s, 2m). */
    static Duration duration(ConfigFields f, String key, Duration min, Duration max) {
        JsonNode value = f.node().get(key);
        if (value.isContainerNode() || value.isBoolean()) {
            throw f.error(
                    key,
                    "expected a duration such as 20s, 500ms or 2m (a bare number is seconds), got "
                            + ConfigFields.show(value));
        }
        Matcher m = DURATION.matcher(value.asText().trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw f.error(
                    key,
                    "expected a duration such as 20s, 500ms or 2m (a bare number is seconds), got "
                            + ConfigFields.show(value));
        }
        BigDecimal amount = new BigDecimal(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        BigDecimal millis =
                switch (unit) {
                    case "ms" -> amount;
                    case "m" -> amount.multiply(BigDecimal.valueOf(60_000));
                    default -> amount.multiply(BigDecimal.valueOf(1000));
                };
        if (millis.stripTrailingZeros().scale() > 0) {
            throw f.error(key, "expected whole milliseconds, got " + ConfigFields.show(value));
        }
        Duration d = Duration.ofMillis(millis.longValueExact());
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw f.error(
                    key,
                    "expected a duration from " + Fault.seconds(min) + " s to " + Fault.seconds(max) + " s, got "
                            + ConfigFields.show(value));
        }
        return d;
    }
}

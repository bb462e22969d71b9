package io.ombtx.runner.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.AwaitAcks;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.ConfigFields;
import io.ombtx.driver.api.config.YamlFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a workload YAML (OMB's fields plus omb-tx's), applies an optional profile, expands sweeps (a list
 * given for a field means one run per value) and validates every resulting run. Unknown keys are errors.
 */
public final class WorkloadLoader {

    static final List<String> OMB_KEYS = List.of(
            "name",
            "topics",
            "partitionsPerTopic",
            "keyDistributor",
            "messageSize",
            "useRandomizedPayloads",
            "randomBytesRatio",
            "randomizedPayloadPoolSize",
            "payloadFile",
            "subscriptionsPerTopic",
            "producersPerTopic",
            "consumerPerSubscription",
            "producerRate",
            "consumerBacklogSizeGB",
            "backlogDrainRatio",
            "testDurationMinutes",
            "warmupDurationMinutes");
    static final List<String> OMB_TX_KEYS = List.of(
            "description",
            "testDurationSeconds",
            "warmupDurationSeconds",
            "warmupOperations",
            "measureOperations",
            "warmupMessages",
            "measureMessages",
            "loop",
            "operation",
            "brokers",
            "brokerProfile",
            "brokerSettings",
            "driverOverrides",
            "reportingIntervalSeconds",
            "stallTimeoutSeconds",
            "faults",
            "profiles",
            "brokerVersion",
            "brokerSystem",
            "brokerSecurity",
            "transactionVersion",
            "clientVersion",
            "partitionVerification",
            "groupProtocol",
            "latencyTarget",
            "conformance");
    /** The most runs one workload's sweep may expand into. */
    public static final int MAX_SWEEP_POINTS = 1000;

    /** Fields whose value is a list by nature (not a sweep). */
    static final Set<String> LISTS = Set.of("faults");
    /** Fields that may be given as a list to sweep over. */
    static final Set<String> SWEEPABLE = Set.of(
            "producerRate",
            "messageSize",
            "topics",
            "partitionsPerTopic",
            "producersPerTopic",
            "subscriptionsPerTopic",
            "consumerPerSubscription",
            "warmupOperations",
            "measureOperations",
            "warmupMessages",
            "measureMessages",
            "testDurationSeconds",
            "testDurationMinutes");

    /** Where acks are awaited when a workload does not say: the seeds' order (000, 001). */
    public static final AwaitAcks DEFAULT_AWAIT_ACKS = AwaitAcks.AFTER_COMMIT;

    private WorkloadLoader() {}

    /** A workload file's runs, and whether the file defines the profile they were loaded with. */
    public record Loaded(List<Workload> runs, boolean definesProfile) {}

    /** Loads {@code file} and returns one validated workload per run (one, or one per sweep point). */
    public static List<Workload> load(Path file, String profile) {
        return read(file, profile).runs();
    }

    /** As {@link #load}, also telling whether the file defines {@code profile}; the file is read once. */
    public static Loaded read(Path file, String profile) {
        JsonNode root = YamlFiles.read(file);
        boolean defines = profile != null && root.path("profiles").has(profile);
        return new Loaded(
                expand(file.toString(), file.toAbsolutePath().getParent(), (ObjectNode) root, profile), defines);
    }

    /**
     * Pure: YAML tree → validated runs. {@code baseDir} resolves a relative payloadFile. Every profile is checked,
     * chosen or not, as the runs it would give; a mistake a profile makes is blamed on its key under
     * {@code profiles.<name>.}.
     */
    public static List<Workload> expand(String fileName, Path baseDir, ObjectNode root, String profile) {
        checkKeys(fileName, "", root, concat(OMB_KEYS, OMB_TX_KEYS));
        JsonNode profiles = root.get("profiles");
        if (profiles != null && !profiles.isNull() && !profiles.isObject()) {
            // Checked whether or not a profile is chosen: a list (- quick) would otherwise pass unseen without one.
            throw new ConfigException(
                    fileName,
                    "profiles",
                    "expected a mapping of profile name to overrides (e.g. profiles: {quick: {measureOperations:"
                            + " 100}}), got " + ConfigFields.show(profiles));
        }
        List<Workload> runs =
                inProfile(profiles, profile, () -> runsOf(fileName, baseDir, applyProfile(fileName, root, profile)));
        if (profiles != null && profiles.isObject()) {
            for (Iterator<String> it = profiles.fieldNames(); it.hasNext(); ) {
                String other = it.next();
                if (!other.equals(profile)) {
                    inProfile(profiles, other, () -> runsOf(fileName, baseDir, applyProfile(fileName, root, other)));
                }
            }
        }
        return runs;
    }

    /**
     * {@code runs.get()}, with a mistake in a key {@code profile} sets blamed on {@code profiles.<profile>.<key>};
     * one in a key it does not set is the base workload's and stays as it is (with a note when the base alone is
     * fine but not with the profile).
     */
    private static List<Workload> inProfile(
            JsonNode profiles, String profile, java.util.function.Supplier<List<Workload>> runs) {
        try {
            return runs.get();
        } catch (ConfigException e) {
            JsonNode set = profile == null || profiles == null ? null : profiles.get(profile);
            if (set == null || !set.isObject() || e.key() == null || e.key().startsWith("profiles.")) {
                throw e;
            }
            if (setsKey(set, e.key())) {
                throw e.withKey("profiles." + profile + "." + e.key());
            }
            throw e.withNote("with profile " + profile);
        }
    }

    /** Whether a profile's overrides set {@code key} ("operation.kind", "faults[0].at") or the block holding it. */
    static boolean setsKey(JsonNode overrides, String key) {
        String top = key.split("[.\\[]", 2)[0];
        JsonNode value = overrides.get(top);
        if (value == null) {
            return false;
        }
        // A mapping is merged into the base's key by key; anything else replaces the base's value whole.
        if (!value.isObject() || key.length() == top.length()) {
            return true;
        }
        String rest = key.substring(top.length() + 1);
        for (Iterator<String> it = value.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (rest.equals(field) || rest.startsWith(field + ".") || rest.startsWith(field + "[")) {
                return true;
            }
        }
        return false;
    }

    private static List<Workload> runsOf(String fileName, Path baseDir, ObjectNode merged) {
        List<String> swept = new ArrayList<>();
        for (Iterator<String> it = merged.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (merged.get(key).isArray() && !LISTS.contains(key)) {
                if (!SWEEPABLE.contains(key)) {
                    throw new ConfigException(
                            fileName,
                            key,
                            "a list (sweep) is not allowed here; fields that can be" + " swept: "
                                    + String.join(
                                            ", ", SWEEPABLE.stream().sorted().toList()));
                }
                if (merged.get(key).isEmpty()) {
                    throw new ConfigException(fileName, key, "a sweep needs at least one value");
                }
                swept.add(key);
            }
        }
        checkSweepSize(fileName, merged, swept);
        List<ObjectNode> points = new ArrayList<>();
        List<Map<String, String>> labels = new ArrayList<>();
        cartesian(merged, swept, 0, new LinkedHashMap<>(), points, labels);
        List<Workload> runs = new ArrayList<>();
        String baseName = merged.path("name")
                .asText(stripExtension(Path.of(fileName).getFileName().toString()));
        for (int i = 0; i < points.size(); i++) {
            SweepPoint sweep = null;
            ObjectNode point = points.get(i);
            if (!swept.isEmpty()) {
                Map<String, String> label = labels.get(i);
                String suffix = String.join("-", label.values());
                point.put("name", baseName + "-" + suffix);
                sweep = new SweepPoint(baseName, String.join(",", label.keySet()), String.join(",", label.values()));
            }
            runs.add(validate(fileName, baseDir, point, sweep));
        }
        return runs;
    }

    /**
     * A sweep's runs are every combination of its lists: above {@link #MAX_SWEEP_POINTS} it is refused before any
     * is built (a million points once ran silently for minutes before printing anything).
     */
    private static void checkSweepSize(String fileName, ObjectNode merged, List<String> swept) {
        long points = 1;
        for (String key : swept) {
            points *= merged.get(key).size();
            if (points > MAX_SWEEP_POINTS) {
                throw new ConfigException(
                        fileName,
                        key,
                        "the sweep over " + String.join(", ", swept) + " has more than " + MAX_SWEEP_POINTS
                                + " runs (every combination of its lists: "
                                + swept.stream()
                                        .map(k -> merged.get(k).size() + " value(s) of " + k)
                                        .collect(java.util.stream.Collectors.joining(" × "))
                                + "); split it into several workloads or use fewer values");
            }
        }
    }

    private static void cartesian(
            ObjectNode base,
            List<String> swept,
            int index,
            Map<String, String> label,
            List<ObjectNode> out,
            List<Map<String, String>> labels) {
        if (index == swept.size()) {
            out.add(base.deepCopy());
            labels.add(new LinkedHashMap<>(label));
            return;
        }
        String key = swept.get(index);
        JsonNode values = base.get(key);
        for (JsonNode value : values) {
            ObjectNode copy = base.deepCopy();
            copy.set(key, value);
            label.put(key, value.asText());
            cartesian(copy, swept, index + 1, label, out, labels);
            label.remove(key);
        }
    }

    private static ObjectNode applyProfile(String fileName, ObjectNode root, String profile) {
        ObjectNode merged = root.deepCopy();
        JsonNode profiles = merged.remove("profiles");
        if (profiles == null || profile == null) {
            return merged;
        }
        if (!profiles.isObject()) {
            throw new ConfigException(fileName, "profiles", "expected a mapping of profile name to overrides");
        }
        JsonNode chosen = profiles.get(profile);
        if (chosen == null) {
            return merged; // a workload without this profile runs as written
        }
        if (!chosen.isObject()) {
            throw new ConfigException(fileName, "profiles." + profile, "expected a mapping of overrides");
        }
        checkKeys(fileName, "profiles." + profile, chosen, concat(OMB_KEYS, OMB_TX_KEYS));
        chosen.fields().forEachRemaining(entry -> {
            JsonNode existing = merged.get(entry.getKey());
            if (existing != null && existing.isObject() && entry.getValue().isObject()) {
                ((ObjectNode) existing).setAll((ObjectNode) entry.getValue().deepCopy());
            } else {
                merged.set(entry.getKey(), entry.getValue().deepCopy());
            }
        });
        return merged;
    }

    /** One run's workload: each part read and checked by its own reader, in the order the file's checks run. */
    static Workload validate(String file, Path baseDir, ObjectNode node, SweepPoint sweep) {
        ConfigFields f = new ConfigFields(file, node, "");
        String name = f.text("name", null);
        if (name == null || name.isBlank()) {
            throw f.error("name", "required: a name for the workload");
        }
        TopicLayout layout = TopicLayout.read(f);
        ConfigFields op = f.block("operation");
        OperationSpec operation = OperationReader.read(op, layout.partitionsPerTopic());
        PayloadSpec payload = PayloadSpec.read(f, baseDir, operation.kind());
        ClientCounts clients = ClientCounts.read(f);
        LoadRate load = LoadRate.read(f, operation);
        RunLength length = RunLength.read(f, operation, load);
        OperationOptions options =
                OperationOptions.read(f, op, new OperationOptions.Run(layout, operation, clients, load, length));
        BrokerSetup brokerSetup = BrokerSetup.read(f);
        Reporting reporting = Reporting.read(f);
        int consumers =
                (int) ((long) layout.topics() * clients.subscriptionsPerTopic() * clients.consumerPerSubscription());
        List<Fault> faults = FaultsReader.read(
                f,
                new FaultsReader.Run(
                        length.countBased(),
                        length.testDuration(),
                        length.measureOperations(),
                        operation.transactional(),
                        consumers,
                        layout.partitionsPerTopic(),
                        operation.kind(),
                        layout.topics(),
                        clients.subscriptionsPerTopic(),
                        clients.consumerPerSubscription(),
                        layout.topics() * clients.producersPerTopic()));
        Guarantee conformance = Guarantee.read(f, operation, options, faults, consumers);
        return new Workload(
                name,
                file,
                f.text("description", ""),
                layout,
                operation,
                payload,
                clients,
                load,
                length,
                options,
                brokerSetup,
                reporting,
                faults,
                conformance,
                sweep);
    }

    /**
     * A mapping's {@code brokerVersion} as written, or null when not given; the planner resolves it to a release the
     * installed broker system knows (and refuses one it does not), since this package knows no broker system.
     */
    public static String brokerVersion(ConfigFields f) {
        return f.has("brokerVersion") ? f.text("brokerVersion", null) : null;
    }

    /** A mapping's {@code transactionVersion}: 0 to 2, or null when not given (whether the release has it is the planner's check). */
    public static Integer transactionVersion(ConfigFields f) {
        return f.has("transactionVersion")
                ? f.wholeNumber("transactionVersion", 0, 0, BrokerSetup.MAX_TRANSACTION_VERSION)
                : null;
    }

    static void checkKeys(String file, String prefix, JsonNode node, List<String> known) {
        new ConfigFields(file, node, prefix).onlyKeys(known);
    }

    private static String stripExtension(String name) {
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}

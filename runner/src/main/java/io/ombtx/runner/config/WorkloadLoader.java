package io.ombtx.runner.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.AwaitAcks;
import io.ombtx.driver.api.KeySuggestions;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.ConfigFields;
import io.ombtx.driver.api.config.YamlFiles;
import io.ombtx.runner.cluster.ClusterProfile;
import io.ombtx.runner.cluster.ClusterSystem;
import io.ombtx.runner.cluster.ClusterSystems;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    /** The most producers (or consumers) one run can create: they are counted in an {@code int}. */
    static final long MAX_CLIENTS = Integer.MAX_VALUE;

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
            "transactionVersion");
    static final List<String> OPERATION_KEYS = List.of(
            "kind",
            "transactional",
            "messagesPerOperation",
            "partitionsPerOperation",
            "sendOffsets",
            "readCommitted",
            "waitForConsume",
            "prefillMessages",
            "verifyExactlyOnce",
            "awaitAcks");
    static final List<String> OVERRIDE_KEYS =
            List.of("replicationFactor", "topicConfig", "commonConfig", "producerConfig", "consumerConfig");
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

    /** Pure: YAML tree → validated runs. {@code baseDir} resolves a relative payloadFile. */
    public static List<Workload> expand(String fileName, Path baseDir, ObjectNode root, String profile) {
        checkKeys(fileName, "", root, concat(OMB_KEYS, OMB_TX_KEYS));
        ObjectNode merged = applyProfile(fileName, root, profile);
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

    static Workload validate(String file, Path baseDir, ObjectNode node, SweepPoint sweep) {
        ConfigFields f = new ConfigFields(file, node, "");
        String name = f.text("name", null);
        if (name == null || name.isBlank()) {
            throw f.error("name", "required: a name for the workload");
        }
        // OMB's own workloads go to a million topics; more than WorkloadWarnings.MANY is accepted with a warning.
        int topics = f.wholeNumber("topics", 1, 1, 10_000_000);
        int partitions = f.wholeNumber("partitionsPerTopic", 1, 1, 100_000);
        KeyDistributorType keys = f.choice("keyDistributor", KeyDistributorType.class, KeyDistributorType.NO_KEY);

        ConfigFields op = f.block("operation");
        checkKeys(file, "operation", op.node(), OPERATION_KEYS);
        OperationKind kind = op.choice("kind", OperationKind.class, OperationKind.PUBLISH);
        boolean transactional = op.bool("transactional", false);
        int messagesPerOperation = op.wholeNumber(
                "messagesPerOperation",
                kind == OperationKind.SEND_OFFSETS ? 0 : 1,
                kind == OperationKind.SEND_OFFSETS ? 0 : 1,
                10_000_000);
        int partitionsPerOperation = op.wholeNumber("partitionsPerOperation", 1, 1, 100_000);
        if (partitionsPerOperation > partitions) {
            throw op.error(
                    "partitionsPerOperation",
                    "the operation spreads over " + partitionsPerOperation + " partitions but partitionsPerTopic is "
                            + partitions);
        }
        boolean sendOffsets = op.bool("sendOffsets", false);
        boolean readCommitted = op.bool("readCommitted", transactional);
        if (kind == OperationKind.SEND_OFFSETS && !transactional) {
            throw op.error("transactional", "SEND_OFFSETS only exists inside a transaction: set transactional: true");
        }
        if (sendOffsets && (!transactional || kind != OperationKind.WRITE)) {
            throw op.error("sendOffsets", "only a transactional WRITE can also send offsets");
        }
        AwaitAcks awaitAcks = awaitAcks(op, kind, transactional);
        OperationSpec operation = new OperationSpec(
                kind,
                transactional,
                messagesPerOperation,
                partitionsPerOperation,
                sendOffsets,
                readCommitted,
                awaitAcks);

        int messageSize = f.wholeNumber("messageSize", -1, 0, 100 * 1024 * 1024);
        if (messageSize < 0) {
            throw f.error("messageSize", "required: the payload size in bytes");
        }
        if (messageSize == 0 && kind != OperationKind.SEND_OFFSETS) {
            throw f.error(
                    "messageSize",
                    "0-byte messages: give the payload size in bytes, at least 1 (only"
                            + " SEND_OFFSETS, which sends no messages, takes 0)");
        }
        Path payloadFile = null;
        if (f.has("payloadFile")) {
            payloadFile = resolve(baseDir, f.text("payloadFile", null));
            if (!Files.exists(payloadFile)) {
                throw f.error("payloadFile", "payload file " + payloadFile + " not found");
            }
            if (!Files.isRegularFile(payloadFile)) {
                throw f.error("payloadFile", payloadFile + " is not a regular file (a folder?): name the payload file");
            }
            if (!Files.isReadable(payloadFile)) {
                throw f.error("payloadFile", "payload file " + payloadFile + " is not readable");
            }
            long size;
            try {
                size = Files.size(payloadFile);
            } catch (IOException e) {
                throw f.error("payloadFile", "cannot read payload file " + payloadFile + ": " + e.getMessage());
            }
            if (size != messageSize) {
                throw f.error(
                        "payloadFile",
                        "payload file " + payloadFile + " is " + size + " bytes but messageSize is " + messageSize
                                + "; they must be equal");
            }
        }
        boolean randomized = f.bool("useRandomizedPayloads", false);
        double randomRatio = f.number("randomBytesRatio", 0.0, 0.0, 1.0);
        int poolSize = f.wholeNumber("randomizedPayloadPoolSize", 1000, 1, 1_000_000);

        int subscriptions = f.wholeNumber("subscriptionsPerTopic", 1, 0, 1000);
        int producersPerTopic = f.wholeNumber("producersPerTopic", 1, 0, 1000);
        int consumersPerSubscription = f.wholeNumber("consumerPerSubscription", 1, 0, 1000);
        long producerRate = f.wholeNumber("producerRate", 0L, 0L, 100_000_000L);
        double backlogGb = f.number("consumerBacklogSizeGB", 0.0, 0.0, 100_000.0);
        double drainRatio = f.number("backlogDrainRatio", 1.0, 0.0001, 1_000.0);
        // Counts and no producerRate: there is no rate to pace by, and the maximum-rate search needs a time-based
        // run, so unless the workload says otherwise each producer runs closed-loop, as fast as its operations
        // complete.
        boolean countsWithoutRate = (f.has("measureOperations") || f.has("measureMessages"))
                && !f.has("producerRate")
                && kind != OperationKind.STREAM;
        LoopMode loop = f.choice("loop", LoopMode.class, countsWithoutRate ? LoopMode.CLOSED : LoopMode.OPEN);
        if (loop == LoopMode.CLOSED && producerRate > 0) {
            throw f.error(
                    "producerRate",
                    "a closed loop runs one operation at a time per producer, as fast as it"
                            + " completes; remove producerRate or use loop: open");
        }
        if (backlogGb > 0 && (loop == LoopMode.CLOSED || producerRate == 0)) {
            throw f.error(
                    "consumerBacklogSizeGB",
                    "building a backlog needs an open loop at a fixed producerRate"
                            + " (as in OMB, it cannot be combined with searching for the maximum rate)");
        }

        // Run length: durations (OMB) or counts (the seeds).
        boolean hasCounts = f.has("measureOperations") || f.has("measureMessages");
        boolean hasDuration = f.has("testDurationMinutes") || f.has("testDurationSeconds");
        if (hasCounts && hasDuration) {
            throw f.error(
                    f.has("testDurationMinutes") ? "testDurationMinutes" : "testDurationSeconds",
                    "give the run length either as a duration or as a count (measureOperations/measureMessages), not both");
        }
        if (!hasCounts && !hasDuration) {
            throw f.error(
                    "testDurationMinutes",
                    "required: a run length (testDurationMinutes, testDurationSeconds, measureOperations or measureMessages)");
        }
        if (f.has("testDurationMinutes") && f.has("testDurationSeconds")) {
            throw f.error("testDurationSeconds", "give testDurationMinutes or testDurationSeconds, not both");
        }
        if (f.has("measureOperations") && f.has("measureMessages")) {
            throw f.error("measureMessages", "give measureOperations or measureMessages, not both");
        }
        Duration warmup = Duration.ZERO;
        Duration test = Duration.ZERO;
        long warmupOps = 0;
        long measureOps = 0;
        if (hasDuration) {
            test = f.has("testDurationSeconds")
                    ? Duration.ofSeconds(f.wholeNumber("testDurationSeconds", 0L, 1L, 31L * 24 * 3600))
                    : Duration.ofMinutes(f.wholeNumber("testDurationMinutes", 0L, 1L, 31L * 24 * 60));
            if (f.has("warmupOperations") || f.has("warmupMessages")) {
                throw f.error(
                        f.has("warmupOperations") ? "warmupOperations" : "warmupMessages",
                        "a duration-based run warms up for a duration: use warmupDurationSeconds or warmupDurationMinutes");
            }
            warmup = f.has("warmupDurationSeconds")
                    ? Duration.ofSeconds(f.wholeNumber("warmupDurationSeconds", 0L, 0L, 31L * 24 * 3600))
                    : Duration.ofMinutes(f.wholeNumber("warmupDurationMinutes", 1L, 0L, 31L * 24 * 60));
        } else {
            if (f.has("warmupDurationSeconds") || f.has("warmupDurationMinutes")) {
                throw f.error(
                        f.has("warmupDurationSeconds") ? "warmupDurationSeconds" : "warmupDurationMinutes",
                        "a count-based run warms up for a count: use warmupOperations or warmupMessages");
            }
            int perOp = Math.max(1, kind == OperationKind.SEND_OFFSETS ? 1 : messagesPerOperation);
            measureOps = f.has("measureOperations")
                    ? f.wholeNumber("measureOperations", 0L, 1L, Long.MAX_VALUE)
                    : messagesToOperations(f, "measureMessages", perOp, 1L);
            warmupOps = f.has("warmupMessages")
                    ? messagesToOperations(f, "warmupMessages", perOp, 0L)
                    : f.wholeNumber("warmupOperations", 0L, 0L, Long.MAX_VALUE);
        }

        if (backlogGb > 0 && hasCounts) {
            throw f.error(
                    "consumerBacklogSizeGB",
                    "a backlog run is time-based: use testDurationMinutes or testDurationSeconds");
        }
        boolean waitForConsume = op.bool("waitForConsume", false);
        long prefill = op.wholeNumber("prefillMessages", 0L, 0L, Long.MAX_VALUE);
        boolean verify = op.bool("verifyExactlyOnce", false);
        long producerCount = (long) topics * producersPerTopic;
        long consumerCount = (long) topics * subscriptions * consumersPerSubscription;
        if (producerCount > MAX_CLIENTS) {
            throw f.error(
                    "producersPerTopic",
                    "topics × producersPerTopic is " + producerCount + " producers; one run can create at most "
                            + MAX_CLIENTS);
        }
        if (consumerCount > MAX_CLIENTS) {
            throw f.error(
                    "consumerPerSubscription",
                    "topics × subscriptionsPerTopic × consumerPerSubscription is " + consumerCount
                            + " consumers; one run can create at most " + MAX_CLIENTS);
        }
        int producers = (int) producerCount;
        int consumers = (int) consumerCount;
        if (waitForConsume) {
            if (loop != LoopMode.CLOSED) {
                throw op.error("waitForConsume", "waiting for the consumer to see each operation needs loop: closed");
            }
            if (producers != 1 || consumers != 1) {
                throw op.error(
                        "waitForConsume",
                        "needs exactly one producer and one consumer (topics: 1,"
                                + " producersPerTopic: 1, subscriptionsPerTopic: 1, consumerPerSubscription: 1)");
            }
        }
        if (kind == OperationKind.STREAM) {
            if (consumers == 0) {
                throw f.error(
                        "subscriptionsPerTopic", "a STREAM operation runs in the consumers: at least one is needed");
            }
            if (prefill > 0 && producers == 0) {
                throw f.error("producersPerTopic", "prefilling the source topic needs at least one producer");
            }
            if (producerRate == 0 && prefill == 0) {
                throw op.error(
                        "prefillMessages",
                        "a STREAM run needs input: prefill the source topic"
                                + " (prefillMessages) or feed it at a rate (producerRate)");
            }
            if (hasCounts && producerRate == 0) {
                long needed = (warmupOps + measureOps) * messagesPerOperation;
                if (prefill < needed) {
                    throw op.error(
                            "prefillMessages",
                            "the run processes " + needed + " records (warm-up plus"
                                    + " measured operations × messagesPerOperation) but only " + prefill
                                    + " are prefilled");
                }
            }
        } else {
            if (producers == 0) {
                throw f.error(
                        "producersPerTopic", "a " + kind + " operation runs in the producers: at least one is needed");
            }
            if (prefill > 0) {
                throw op.error("prefillMessages", "only a STREAM operation reads a prefilled source topic");
            }
        }
        if (verify && kind != OperationKind.STREAM) {
            throw op.error("verifyExactlyOnce", "the exactly-once check applies to STREAM operations");
        }

        int brokers = f.wholeNumber("brokers", 1, 1, ClusterSystem.MAX_EMBEDDED_BROKERS);
        ClusterProfile profile;
        try {
            profile = f.has("brokerProfile")
                    ? ClusterProfile.parse(f.text("brokerProfile", null))
                    : ClusterProfile.DEFAULT;
        } catch (IllegalArgumentException e) {
            throw f.error("brokerProfile", e.getMessage());
        }
        Map<String, String> brokerSettings = stringMap(f.block("brokerSettings"));
        DriverOverrides overrides = overrides(file, f.block("driverOverrides"), brokers);
        String brokerVersion = brokerVersion(f);
        Integer transactionVersion = transactionVersion(f);
        int reportInterval = f.wholeNumber("reportingIntervalSeconds", 10, 1, 3600);
        int stallTimeout = f.wholeNumber("stallTimeoutSeconds", 60, 1, 86_400);
        List<Fault> faults = FaultsReader.read(
                f, new FaultsReader.Run(hasCounts, test, measureOps, transactional, consumers, partitions));

        return new Workload(
                name,
                file,
                f.text("description", ""),
                topics,
                partitions,
                keys,
                messageSize,
                randomized,
                randomRatio,
                poolSize,
                payloadFile,
                subscriptions,
                producersPerTopic,
                consumersPerSubscription,
                producerRate,
                backlogGb,
                drainRatio,
                warmup,
                test,
                warmupOps,
                measureOps,
                loop,
                operation,
                waitForConsume,
                prefill,
                verify,
                brokers,
                profile,
                brokerSettings,
                overrides,
                reportInterval,
                stallTimeout,
                faults,
                sweep,
                brokerVersion,
                transactionVersion);
    }

    /** A mapping's {@code brokerVersion}: a supported Kafka release, or null when not given. */
    public static String brokerVersion(ConfigFields f) {
        if (!f.has("brokerVersion")) {
            return null;
        }
        try {
            return ClusterSystems.installed().release(f.text("brokerVersion", null));
        } catch (IllegalArgumentException e) {
            throw f.error("brokerVersion", e.getMessage());
        }
    }

    /** A mapping's {@code transactionVersion}: 0 to 2, or null when not given (whether the release has it is the planner's check). */
    public static Integer transactionVersion(ConfigFields f) {
        return f.has("transactionVersion")
                ? f.wholeNumber("transactionVersion", 0, 0, ClusterSystem.MAX_TRANSACTION_VERSION)
                : null;
    }

    /**
     * {@code operation.awaitAcks}: where a transaction (or a STREAM batch) waits for its acks. Only operations with
     * that choice take it; for them it defaults to the seeds' order (000 and 001: send, sendOffsets, commit, then
     * wait). A naive STREAM has no sendOffsets, so before-send-offsets means nothing there.
     */
    private static AwaitAcks awaitAcks(ConfigFields op, OperationKind kind, boolean transactional) {
        boolean applies = OperationSpec.hasAckOrder(kind, transactional);
        if (!op.has("awaitAcks")) {
            return applies ? DEFAULT_AWAIT_ACKS : null;
        }
        String value = op.text("awaitAcks", "").trim();
        if (!applies) {
            throw op.error(
                    "awaitAcks",
                    "only a transactional operation (or a STREAM) waits for acks relative to"
                            + " sendOffsets and commit; a non-transactional " + kind + " waits right after its sends:"
                            + " remove awaitAcks or set transactional: true");
        }
        AwaitAcks order;
        try {
            order = AwaitAcks.ofKey(value);
        } catch (IllegalArgumentException e) {
            throw op.error(
                    "awaitAcks",
                    "expected one of " + String.join(" | ", AwaitAcks.keys()) + ", got '" + value
                            + "'"
                            + KeySuggestions.closest(value, AwaitAcks.keys())
                                    .map(s -> " (did you mean '" + s + "'?)")
                                    .orElse(""));
        }
        if (order == AwaitAcks.BEFORE_SEND_OFFSETS && !transactional) {
            throw op.error(
                    "awaitAcks",
                    "a naive (non-transactional) STREAM has no sendOffsetsToTransaction: use"
                            + " before-commit (wait, then commitSync) or after-commit (commitSync, then wait)");
        }
        return order;
    }

    private static long messagesToOperations(ConfigFields f, String key, int perOperation, long min) {
        long messages = f.wholeNumber(key, 0L, min, Long.MAX_VALUE);
        if (messages % perOperation != 0) {
            throw f.error(
                    key,
                    messages + " messages is not a whole number of operations of " + perOperation
                            + " messages (operation.messagesPerOperation)");
        }
        return messages / perOperation;
    }

    private static DriverOverrides overrides(String file, ConfigFields block, int brokers) {
        checkKeys(file, "driverOverrides", block.node(), OVERRIDE_KEYS);
        Integer rf = block.has("replicationFactor")
                ? block.wholeNumber("replicationFactor", 1, 1, ClusterSystem.MAX_EMBEDDED_BROKERS)
                : null;
        Map<String, String> blocks = new LinkedHashMap<>();
        for (String key : DriverOverrides.BLOCKS) {
            if (!block.has(key)) {
                continue;
            }
            JsonNode value = block.node().get(key);
            if (value.isObject()) {
                StringBuilder text = new StringBuilder();
                value.fields().forEachRemaining(e -> text.append(e.getKey())
                        .append('=')
                        .append(e.getValue().asText())
                        .append('\n'));
                blocks.put(key, text.toString());
            } else {
                blocks.put(key, block.text(key, ""));
            }
        }
        return new DriverOverrides(rf, blocks);
    }

    private static Map<String, String> stringMap(ConfigFields block) {
        Map<String, String> map = new LinkedHashMap<>();
        block.node().fields().forEachRemaining(e -> {
            if (e.getValue().isContainerNode()) {
                throw block.error(e.getKey(), "expected a single value for a broker setting");
            }
            map.put(e.getKey(), e.getValue().asText());
        });
        return map;
    }

    static void checkKeys(String file, String prefix, JsonNode node, List<String> known) {
        new ConfigFields(file, node, prefix).onlyKeys(known);
    }

    /**
     * A relative payload file is looked for from the working folder (as OMB does), beside the workload, and beside
     * the workload's folder: OMB's layout, {@code workloads/} next to {@code payload/}, so OMB's files name
     * {@code payload/payload-1Kb.data} from wherever they are run.
     */
    private static Path resolve(Path baseDir, String path) {
        Path candidate = Path.of(path);
        if (candidate.isAbsolute() || Files.exists(candidate) || baseDir == null) {
            return candidate;
        }
        Path besideWorkload = baseDir.resolve(path);
        if (Files.exists(besideWorkload)) {
            return besideWorkload;
        }
        Path besideFolder =
                baseDir.getParent() == null ? null : baseDir.getParent().resolve(path);
        return besideFolder != null && Files.exists(besideFolder) ? besideFolder : candidate;
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

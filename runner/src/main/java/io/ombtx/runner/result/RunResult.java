package io.ombtx.runner.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.ombtx.driver.api.AwaitAcks;
import io.ombtx.driver.api.EnumKeys;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.Phase;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.StatsSnapshot;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run's result, as written to result JSON (defined by docs/result.schema.json, explained in
 * docs/result-format.md): OMB's {@code TestResult} fields with OMB's
 * names, units and number types first, then omb-tx's. {@link ResultBuilder} makes it from measured statistics,
 * {@link ResultWriter} writes it, {@link ResultReader} reads a file back into it. The component order is the file's
 * field order.
 *
 * <p>OMB's latency statistics are written flat ({@code publishLatency50pct}, {@code aggregatedEndToEndLatencyMax},
 * …): each group of eight is one {@link OmbLatency}, unwrapped under its prefix. Quantile maps are keyed by
 * percentile. Members that are absent from a file are null: {@code partialReason} (runs that did not end early),
 * {@code failureReason} (runs that did not fail), {@code sweep}
 * (not a sweep point), {@code exactlyOnce} (not checked), {@code faults} (none declared).
 */
@JsonPropertyOrder({
    "workload",
    "driver",
    "messageSize",
    "topics",
    "partitions",
    "producersPerTopic",
    "consumersPerTopic",
    "publishRate",
    "publishErrorRate",
    "consumeRate",
    "backlog",
    "publishLatency",
    "publishDelayLatency",
    "endToEndLatency",
    "aggregatedPublishLatency",
    "aggregatedPublishDelayLatency",
    "aggregatedEndToEndLatency",
    "aggregatedPublishLatencyQuantiles",
    "aggregatedPublishDelayLatencyQuantiles",
    "aggregatedEndToEndLatencyQuantiles",
    "schemaVersion",
    "startTime",
    "endTime",
    "status",
    "partialReason",
    "failureReason",
    "description",
    "runMode",
    "scenario",
    "sweep",
    "versions",
    "broker",
    "host",
    "driverConfig",
    "environment",
    "counts",
    "summary",
    "operationLatency",
    "intendedPublishLatency",
    "transactionPhases",
    "transactions",
    "coordinators",
    "rate",
    "clientWarnings",
    "exactlyOnce",
    "faults",
    "conformance",
    "histograms",
    "periods",
    "repetition",
    "drain"
})
public record RunResult(
        // OMB's fields
        String workload,
        String driver,
        int messageSize,
        int topics,
        int partitions,
        int producersPerTopic,
        // OMB's meaning: consumers per subscription.
        int consumersPerTopic,
        // msg/s per reporting period.
        List<Double> publishRate,
        List<Double> publishErrorRate,
        List<Double> consumeRate,
        // Messages per reporting period.
        List<Long> backlog,
        // ms per reporting period.
        @JsonUnwrapped(prefix = "publishLatency") OmbLatency<List<Double>, List<Double>> publishLatency,
        // µs per reporting period.
        @JsonUnwrapped(prefix = "publishDelayLatency") OmbLatency<List<Double>, List<Long>> publishDelayLatency,
        // ms per reporting period.
        @JsonUnwrapped(prefix = "endToEndLatency") OmbLatency<List<Double>, List<Double>> endToEndLatency,
        // ms over the measured phase.
        @JsonUnwrapped(prefix = "aggregatedPublishLatency") OmbLatency<Double, Double> aggregatedPublishLatency,
        // µs over the measured phase.
        @JsonUnwrapped(prefix = "aggregatedPublishDelayLatency") OmbLatency<Double, Long> aggregatedPublishDelayLatency,
        // ms over the measured phase.
        @JsonUnwrapped(prefix = "aggregatedEndToEndLatency") OmbLatency<Double, Double> aggregatedEndToEndLatency,
        // Percentile → ms, see Quantiles.
        Map<Double, Double> aggregatedPublishLatencyQuantiles,
        // Percentile → µs.
        Map<Double, Long> aggregatedPublishDelayLatencyQuantiles,
        // Percentile → ms.
        Map<Double, Double> aggregatedEndToEndLatencyQuantiles,
        // omb-tx's fields
        int schemaVersion,
        @JsonSerialize(using = JsonCodecs.InstantWriter.class) @JsonDeserialize(using = JsonCodecs.InstantReader.class)
                Instant startTime,
        @JsonSerialize(using = JsonCodecs.InstantWriter.class) @JsonDeserialize(using = JsonCodecs.InstantReader.class)
                Instant endTime,
        Status status,
        @JsonInclude(JsonInclude.Include.NON_NULL) String partialReason,
        // Why the run failed, when status is "failed".
        @JsonInclude(JsonInclude.Include.NON_NULL) String failureReason,
        String description,
        RunMode runMode,
        Scenario scenario,
        @JsonInclude(JsonInclude.Include.NON_NULL) Sweep sweep,
        Versions versions,
        Broker broker,
        // The machine the runner ran on and how it reached the brokers; absent in files written before it existed.
        @JsonInclude(JsonInclude.Include.NON_NULL) Host host,
        // The driver YAML, secrets redacted.
        Map<String, Object> driverConfig,
        // What the driver reported about itself and the cluster.
        Map<String, Object> environment,
        Counts counts,
        Summary summary,
        LatencySummary operationLatency,
        LatencySummary intendedPublishLatency,
        // The phases that occurred, in Phase order; no 'transaction' for non-transactional runs.
        @JsonSerialize(keyUsing = JsonCodecs.PhaseKeyWriter.class)
                @JsonDeserialize(keyUsing = JsonCodecs.PhaseKeyReader.class)
                Map<Phase, LatencySummary> transactionPhases,
        // A transactional PUBLISH: how its messages were cut into transactions, and what they held; absent otherwise.
        @JsonInclude(JsonInclude.Include.NON_NULL) Transactions transactions,
        // A transactional run on a cluster with a transaction log: the transactions its coordinators ended, by log
        // partition and broker, over the measured phase; absent otherwise.
        @JsonInclude(JsonInclude.Include.NON_NULL) Coordinators coordinators,
        // An open loop at a target rate: whether the measured phase held it; absent otherwise.
        @JsonInclude(JsonInclude.Include.NON_NULL) RateVerdict rate,
        // What the client library warned during the run, each distinct message once with its count; absent if none.
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ClientWarning> clientWarnings,
        @JsonInclude(JsonInclude.Include.NON_NULL) ExactlyOnce exactlyOnce,
        // The faults the workload declared and what became of each; absent when it declared none.
        @JsonInclude(JsonInclude.Include.NON_NULL) List<FaultEvent> faults,
        // The broker guarantee the run judged (workload key conformance) and its verdict; absent when it judged none.
        @JsonInclude(JsonInclude.Include.NON_NULL) Conformance conformance,
        // Full histograms of the measured phase (µs), compressed and base64-encoded, by name.
        Map<String, String> histograms,
        PeriodSeries periods,
        // Which repetition of its (driver, workload) this run was, and its group; absent in older files.
        @JsonInclude(JsonInclude.Include.NON_NULL) Repetition repetition,
        // How a count-based run waited for its consumers after the last measured operation; absent when it did not.
        @JsonInclude(JsonInclude.Include.NON_NULL) Drain drain,
        // Spells in the measured phase when nothing completed for a while, and whether the run went on; absent if none.
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Stall> stalls) {

    /** A file written before {@code stalls} existed (or with none) reads as no stalls. */
    public RunResult {
        stalls = stalls == null ? List.of() : stalls;
    }

    /**
     * The verdict on one transactional guarantee of the broker (docs/conformance.md): judged from the run's own checks
     * (the exactly-once check after the run, the live check, the client faults' records) or by a probe of the
     * cluster after the measurement.
     *
     * @param guarantee its id, as the workload's {@code conformance} names it
     * @param title what it promises, in words
     * @param counts the figures the verdict was judged from, by name (records checked, violations of each kind, …)
     * @param firstViolation the first thing seen that broke it, in words (where and when), or null when none was
     * @param note how it was judged, or why it could not be (a check that did not run)
     */
    @JsonPropertyOrder({"guarantee", "title", "verdict", "counts", "firstViolation", "note"})
    public record Conformance(
            String guarantee,
            String title,
            Verdict verdict,
            Map<String, Long> counts,
            @JsonInclude(JsonInclude.Include.NON_NULL) String firstViolation,
            @JsonInclude(JsonInclude.Include.NON_NULL) String note) {

        public Conformance {
            counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        }

        public boolean passed() {
            return verdict == Verdict.PASS;
        }

        /** pass: held; fail: broken, {@code firstViolation} says where; not-judged: a check it needs did not run. */
        public enum Verdict {
            PASS,
            FAIL,
            NOT_JUDGED;

            /** Its name in results: pass, fail, not-judged. */
            @JsonValue
            public String key() {
                return name().toLowerCase(Locale.ROOT).replace('_', '-');
            }

            @JsonCreator
            public static Verdict ofKey(String key) {
                return EnumKeys.find(values(), Verdict::key, key)
                        .orElseThrow(() -> new IllegalArgumentException("not a conformance verdict: '" + key + "'"));
            }
        }
    }

    /**
     * A transactional PUBLISH's transactions: the driver cut the stream of messages at {@code commitIntervalMs} from
     * each begin or at {@code maxMessagesPerTransaction} messages, whichever came first.
     *
     * @param maxMessagesPerTransaction null: no count bound
     * @param messagesPerTransaction what the measured transactions held (committed and failed)
     */
    @JsonPropertyOrder({"commitIntervalMs", "maxMessagesPerTransaction", "committed", "failed", "messagesPerTransaction"
    })
    public record Transactions(
            long commitIntervalMs,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer maxMessagesPerTransaction,
            long committed,
            long failed,
            CountSummary messagesPerTransaction) {}

    /**
     * The transaction coordinators' load over the measured phase, read from the broker's own transaction log (Kafka's
     * {@code __transaction_state}): the transactions that ended in it (a complete commit or abort written), by log
     * partition (each transactional id hashes to one; its leader is the id's coordinator) and by broker. On a cluster
     * shared with other clients their transactions count too.
     *
     * @param partitions the log's partitions
     * @param transactionalIds the distinct transactional ids whose transactions ended
     * @param busiestShare the busiest partition's share of the ended transactions (0..1; 0 when none ended)
     * @param byPartition the partitions in which a transaction ended, by partition number
     * @param byBroker every broker leading a partition of the log, by broker id
     */
    @JsonPropertyOrder({
        "log",
        "partitions",
        "committed",
        "aborted",
        "transactionalIds",
        "partitionsUsed",
        "busiestShare",
        "byPartition",
        "byBroker"
    })
    public record Coordinators(
            String log,
            int partitions,
            long committed,
            long aborted,
            int transactionalIds,
            int partitionsUsed,
            double busiestShare,
            List<PartitionLoad> byPartition,
            List<BrokerLoad> byBroker) {

        /** One log partition's ended transactions; {@code leader} -1 when it had none. */
        @JsonPropertyOrder({"partition", "leader", "committed", "aborted", "transactionalIds"})
        public record PartitionLoad(int partition, int leader, long committed, long aborted, int transactionalIds) {}

        /** One broker's share as a coordinator: the log partitions it leads and the transactions ended in them. */
        @JsonPropertyOrder({"broker", "partitionsLed", "committed", "aborted"})
        public record BrokerLoad(int broker, int partitionsLed, long committed, long aborted) {}
    }

    /** A distribution of counts (not times): its mean and percentiles. */
    @JsonPropertyOrder({"count", "mean", "p50", "p99", "max"})
    public record CountSummary(long count, double mean, long p50, long p99, long max) {}

    /**
     * Whether an open loop held its target rate over the measured phase: {@code achieved} (msg/s acknowledged) at
     * least {@link #HELD_RATIO} of {@code target}, and the publish delay's p99 (how late sends left against their
     * schedule) within {@code publishDelayBoundMillis}. When not held, {@code limitedBy} says what held it back as far
     * as the run can tell: {@code "load generator"} (its process was busy on every core it had) or {@code "broker"} (the
     * sends waited for the client's buffers and the commits, the load generator had CPU to spare), and {@code
     * evidence} the figures behind it.
     *
     * @param loadGeneratorCpu the worker process's CPU time over the measured phase, as a share of all its cores
     *     (0..1); absent when the load ran on remote workers
     * @param machineCpu the whole machine's busy share over the measured phase (0..1, all processes: an embedded
     *     broker too); absent where it cannot be read or the load ran on remote workers
     * @param cores the cores of the load generator's process; absent with {@code loadGeneratorCpu}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({
        "target",
        "achieved",
        "ratio",
        "held",
        "publishDelayP99Millis",
        "publishDelayBoundMillis",
        "loadGeneratorCpu",
        "machineCpu",
        "cores",
        "limitedBy",
        "evidence"
    })
    public record RateVerdict(
            double target,
            double achieved,
            double ratio,
            boolean held,
            Double publishDelayP99Millis,
            double publishDelayBoundMillis,
            Double loadGeneratorCpu,
            Double machineCpu,
            Integer cores,
            String limitedBy,
            String evidence) {

        /** The share of the target an achieved rate must reach to hold it. */
        public static final double HELD_RATIO = 0.95;
        /** The publish delay p99 past which the rate is not held, however many messages went out. */
        public static final double PUBLISH_DELAY_BOUND_MILLIS = 1000;
    }

    /**
     * One distinct warning of the client library, its variable parts (ids, numbers, topic names) as {@code #}: how
     * often it came, from how many clients, first and last.
     */
    @JsonPropertyOrder({"level", "logger", "message", "count", "clients", "first", "last"})
    public record ClientWarning(
            String level,
            String logger,
            String message,
            long count,
            int clients,
            @JsonSerialize(using = JsonCodecs.InstantWriter.class)
                    @JsonDeserialize(using = JsonCodecs.InstantReader.class)
                    Instant first,
            @JsonSerialize(using = JsonCodecs.InstantWriter.class)
                    @JsonDeserialize(using = JsonCodecs.InstantReader.class)
                    Instant last) {}

    /** The result format's version, written as {@code schemaVersion}. */
    public static final int SCHEMA_VERSION = 1;

    /** A builder that names every field it sets: the result is never made from 45 positional arguments. */
    public static RunResultBuilder builder() {
        return new RunResultBuilder();
    }

    /**
     * Whether the run completed, was ended early (Ctrl-C, a broker fault, a lost worker), or failed: every measured
     * operation failed ({@link Counts#nothingSucceeded()}).
     */
    public enum Status {
        COMPLETE("complete"),
        PARTIAL("partial"),
        FAILED("failed");

        private final String key;

        Status(String key) {
            this.key = key;
        }

        @JsonValue
        public String key() {
            return key;
        }

        @JsonCreator
        public static Status ofKey(String key) {
            for (Status status : values()) {
                if (status.key.equals(key)) {
                    return status;
                }
            }
            throw new IllegalArgumentException("status is 'complete', 'partial' or 'failed', not '" + key + "'");
        }
    }

    /**
     * How the load was driven ({@code runMode.loop}): closed, one operation outstanding per producer; open, operations
     * paced to a target rate. The result's own names, the same as a workload's {@code loop}.
     */
    public enum Loop {
        OPEN,
        CLOSED;

        /** Its name in results: open, closed. */
        @JsonValue
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Loop ofKey(String key) {
            return EnumKeys.find(values(), Loop::key, key)
                    .orElseThrow(() -> new IllegalArgumentException("loop is 'open' or 'closed', not '" + key + "'"));
        }
    }

    /** How the load was driven and for how long. */
    @JsonPropertyOrder({
        "loop",
        "targetRate",
        "findMaximumRate",
        "warmup",
        "measure",
        "reportingIntervalSeconds",
        "maxRateSearch",
        "ombPeriodSeconds"
    })
    public record RunMode(
            Loop loop,
            // msg/s; null in closed loop and when the maximum rate is searched for.
            Long targetRate,
            boolean findMaximumRate,
            RunLength warmup,
            RunLength measure,
            // The length of omb-tx's `periods` (and of the progress lines).
            int reportingIntervalSeconds,
            // With findMaximumRate: how the rate was found and what it was; absent otherwise.
            @JsonInclude(JsonInclude.Include.NON_NULL) RateSearchRecord maxRateSearch,
            // The length of the periods of OMB's per-period lists (publishRate, …): OMB's 10 s whenever the
            // reporting interval divides 10 s (see OmbPeriods); absent in files written before it existed.
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer ombPeriodSeconds) {

        /** This run mode with the search that found its rate. */
        public RunMode withSearch(RateSearchRecord search) {
            return new RunMode(
                    loop,
                    targetRate,
                    findMaximumRate,
                    warmup,
                    measure,
                    reportingIntervalSeconds,
                    search,
                    ombPeriodSeconds);
        }

        /**
         * The run mode of a run in {@code loop}, at {@code targetRate} msg/s (null: none, or searched for), lasting
         * {@code warmup} then {@code measure}, reporting every {@code reportingIntervalSeconds}: OMB's lists are on
         * {@link OmbPeriods#seconds}. (The planner makes it from the workload: {@code plan.AsRecorded}.)
         */
        public static RunMode of(
                Loop loop,
                Long targetRate,
                boolean findMaximumRate,
                RunLength warmup,
                RunLength measure,
                int reportingIntervalSeconds) {
            return new RunMode(
                    loop,
                    targetRate,
                    findMaximumRate,
                    warmup,
                    measure,
                    reportingIntervalSeconds,
                    null,
                    OmbPeriods.seconds(reportingIntervalSeconds));
        }
    }

    /** The length of warm-up or measurement: seconds, or operations and the messages they write. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"seconds", "operations", "messages"})
    public record RunLength(Long seconds, Long operations, Long messages) {

        public static RunLength seconds(long seconds) {
            return new RunLength(seconds, null, null);
        }

        public static RunLength operations(long operations, long messages) {
            return new RunLength(null, operations, messages);
        }
    }

    /**
     * The measured operation. {@code awaitAcks} is the workload's order of the ack wait (transactional and STREAM
     * operations only); {@code phaseSequence} the phases the driver actually ran, in order, as most of its operations
     * measured operations ran them (null when the driver does not report it; every sequence with its count is in
     * {@code environment.phaseSequences}).
     */
    @JsonPropertyOrder({
        "kind",
        "transactional",
        "messagesPerOperation",
        "partitionsPerOperation",
        "sendOffsets",
        "readCommitted",
        "waitForConsume",
        "prefillMessages",
        "awaitAcks",
        "abortRatio",
        "abortSeed",
        "transactionsPerProducer",
        "phaseSequence"
    })
    public record Scenario(
            OperationKind kind,
            boolean transactional,
            int messagesPerOperation,
            int partitionsPerOperation,
            boolean sendOffsets,
            boolean readCommitted,
            boolean waitForConsume,
            long prefillMessages,
            @JsonInclude(JsonInclude.Include.NON_NULL) AwaitAcks awaitAcks,
            // The share of transactions aborted on purpose and the seed that chose them; absent without aborts.
            @JsonInclude(JsonInclude.Include.NON_NULL) Double abortRatio,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long abortSeed,
            // Producer churn: transactions per transactional id before a new producer takes a new one; absent without.
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer transactionsPerProducer,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> phaseSequence) {

        /** @param phaseSequence the phases as the driver ran them (null: not reported) */
        public static Scenario of(WorkloadRecord w, List<String> phaseSequence) {
            OperationSpec op = w.operation();
            return new Scenario(
                    op.kind(),
                    op.transactional(),
                    op.messagesPerOperation(),
                    op.partitionsPerOperation(),
                    op.sendOffsets(),
                    op.readCommitted(),
                    w.waitForConsume(),
                    w.prefillMessages(),
                    op.awaitAcks(),
                    op.abortRatio() > 0 ? op.abortRatio() : null,
                    op.abortRatio() > 0 ? op.abortSeed() : null,
                    op.transactionsPerProducer() > 0 ? op.transactionsPerProducer() : null,
                    phaseSequence);
        }
    }

    /** Which point of a sweep this run is; the value is written as a number when it is a whole number. */
    @JsonPropertyOrder({"name", "parameter", "value"})
    public record Sweep(
            String name, String parameter, @JsonSerialize(using = JsonCodecs.NumberOrTextWriter.class) String value) {}

    /** Software versions; {@code broker} is the embedded broker's, null for an external cluster. */
    @JsonPropertyOrder({"ombTx", "java", "kafkaClients", "broker"})
    public record Versions(String ombTx, String java, String kafkaClients, String broker) {

        /** This runner's versions with {@code broker}'s; an external cluster's version is not guessed here. */
        public static Versions of(Broker broker) {
            return of(broker, Map.of());
        }

        /**
         * As {@link #of(Broker)}, with the client release the drivers ran on as the worker's driver reports it (its
         * {@code kafkaClientsVersion}, read from the client it loaded: a worker on another release, {@code
         * --client-version}, or a distributed worker, may run another than this JVM's), else this JVM's.
         */
        public static Versions of(Broker broker, Map<String, Object> environment) {
            Object reported = environment == null ? null : environment.get("kafkaClientsVersion");
            String clients = reported instanceof String s && !s.isBlank() ? s : kafkaClientsVersion();
            return new Versions(OmbTxVersion.VERSION, System.getProperty("java.version"), clients, broker.version());
        }

        /**
         * The kafka-clients release on the class path, read from its own version file as kafka-clients reads it
         * ({@code unknown} when unreadable), or null when there is none (a run without a broker may have none).
         */
        static String kafkaClientsVersion() {
            try (java.io.InputStream in = RunResult.class.getResourceAsStream("/kafka/kafka-version.properties")) {
                if (in == null) {
                    return null;
                }
                java.util.Properties properties = new java.util.Properties();
                properties.load(in);
                return properties.getProperty("version", "unknown").trim();
            } catch (java.io.IOException e) {
                return "unknown";
            }
        }
    }

    /**
     * The broker the run used. Embedded: count, version, settings profile and every setting omb-tx chose. External:
     * count and bootstrap servers (the driver reads the broker's own settings back into {@code environment}).
     *
     * <p>Read back from the running brokers: {@code version} (embedded: what the broker's app-info reports),
     * {@code transactionVersion} (the finalized KIP-890 {@code transaction.version}; 0 when the cluster reports none,
     * as Kafka before 4.0 does) and {@code transactionProtocol}, what that means. {@code coordination} is
     * {@code zookeeper} or {@code kraft} and {@code requestedTransactionVersion} the level the embedded storage was
     * formatted with (absent: the broker's default).
     */
    @JsonPropertyOrder({
        "embedded",
        "brokers",
        "version",
        "profile",
        "settings",
        "bootstrapServers",
        "coordination",
        "transactionVersion",
        "transactionProtocol",
        "requestedTransactionVersion"
    })
    public record Broker(
            boolean embedded,
            int brokers,
            @JsonInclude(JsonInclude.Include.NON_NULL) String version,
            @JsonInclude(JsonInclude.Include.NON_NULL) String profile,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> settings,
            @JsonInclude(JsonInclude.Include.NON_NULL) String bootstrapServers,
            @JsonInclude(JsonInclude.Include.NON_NULL) Coordination coordination,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer transactionVersion,
            @JsonInclude(JsonInclude.Include.NON_NULL) String transactionProtocol,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer requestedTransactionVersion,
            // The broker system that answered (kafka or redpanda) and the cluster id it reported, read back from the
            // cluster, so a result is labelled with what really ran rather than with a driver file's name.
            @JsonInclude(JsonInclude.Include.NON_NULL) SystemKind system,
            @JsonInclude(JsonInclude.Include.NON_NULL) String clusterId,
            // With --reuse-brokers: which run this was on the embedded cluster (1: the run that started it); absent
            // when every run starts its own.
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer runOnCluster,
            // The disk under an embedded cluster's data directories, as this host's kernel describes it; absent for
            // an external cluster (its disks are on its hosts) and in files written before it existed.
            @JsonInclude(JsonInclude.Include.NON_NULL) Disk dataDisk,
            // How the system was told from what the cluster answered on the wire (the rule that matched and its
            // evidence); absent when the cluster did not answer, and in files written before it existed.
            @JsonInclude(JsonInclude.Include.NON_NULL) Identity identity,
            // What the cluster serves of the transactional protocol, probed before the load (ApiVersions and
            // InitProducerId); absent when the cluster did not answer, and in files written before it existed.
            @JsonInclude(JsonInclude.Include.NON_NULL) Capabilities capabilities,
            // How the runner's clients reached the cluster (Kafka's security.protocol: PLAINTEXT, SASL_SSL, SSL, ...);
            // absent when not known, and in files written before it existed.
            @JsonInclude(JsonInclude.Include.NON_NULL) String securityProtocol) {

        public Broker(
                boolean embedded,
                int brokers,
                String version,
                String profile,
                Map<String, String> settings,
                String bootstrapServers) {
            this(
                    embedded,
                    brokers,
                    version,
                    profile,
                    settings,
                    bootstrapServers,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null);
        }

        /** This broker as its clients reached it: {@code protocol} is their {@code security.protocol}. */
        public Broker withSecurityProtocol(String protocol) {
            return new Broker(
                    embedded,
                    brokers,
                    version,
                    profile,
                    settings,
                    bootstrapServers,
                    coordination,
                    transactionVersion,
                    transactionProtocol,
                    requestedTransactionVersion,
                    system,
                    clusterId,
                    runOnCluster,
                    dataDisk,
                    identity,
                    capabilities,
                    protocol);
        }

        /** How the brokers agree on the cluster's metadata: ZooKeeper (Kafka before 3.3) or KRaft. */
        public enum Coordination {
            ZOOKEEPER,
            KRAFT;

            /** Its name in results: zookeeper, kraft. */
            @JsonValue
            public String key() {
                return name().toLowerCase(Locale.ROOT);
            }
        }

        /**
         * The broker system that answered, told from what the cluster answers on the wire (its {@link Identity}),
         * never from a driver's name; {@code unknown} when it answered but no rule matched.
         */
        public enum SystemKind {
            KAFKA,
            REDPANDA,
            TANSU,
            /** The cluster answered, but no rule told which system it is: its identity's evidence says what it showed. */
            UNKNOWN;

            /** Its name in results: kafka, redpanda, tansu, unknown. */
            @JsonValue
            public String key() {
                return name().toLowerCase(Locale.ROOT);
            }
        }

        /** This broker with the system and cluster id read back from the cluster. */
        public Broker withSystem(SystemKind system, String clusterId) {
            return with(
                    coordination,
                    transactionVersion,
                    transactionProtocol,
                    requestedTransactionVersion,
                    system,
                    clusterId,
                    runOnCluster,
                    dataDisk,
                    identity,
                    capabilities);
        }

        /**
         * This broker with what the cluster answered on the wire: the system told from it, its identity's evidence,
         * the cluster id it reported and its {@link Capabilities} (null when not read).
         */
        public Broker withIdentity(Identity identity, String clusterId, Capabilities capabilities) {
            return with(
                    coordination,
                    transactionVersion,
                    transactionProtocol,
                    requestedTransactionVersion,
                    identity.system(),
                    clusterId,
                    runOnCluster,
                    dataDisk,
                    identity,
                    capabilities);
        }

        /** This broker as the {@code run}-th run on a cluster kept between runs ({@link #runOnCluster}). */
        public Broker withRunOnCluster(int run) {
            return with(
                    coordination,
                    transactionVersion,
                    transactionProtocol,
                    requestedTransactionVersion,
                    system,
                    clusterId,
                    run,
                    dataDisk,
                    identity,
                    capabilities);
        }

        private Broker with(
                Coordination coordination,
                Integer transactionVersion,
                String transactionProtocol,
                Integer requestedTransactionVersion,
                SystemKind system,
                String clusterId,
                Integer runOnCluster,
                Disk dataDisk,
                Identity identity,
                Capabilities capabilities) {
            return new Broker(
                    embedded,
                    brokers,
                    version,
                    profile,
                    settings,
                    bootstrapServers,
                    coordination,
                    transactionVersion,
                    transactionProtocol,
                    requestedTransactionVersion,
                    system,
                    clusterId,
                    runOnCluster,
                    dataDisk,
                    identity,
                    capabilities,
                    securityProtocol);
        }

        /** This broker with the disk under its data directories ({@link #dataDisk}). */
        public Broker withDataDisk(Disk disk) {
            return with(
                    coordination,
                    transactionVersion,
                    transactionProtocol,
                    requestedTransactionVersion,
                    system,
                    clusterId,
                    runOnCluster,
                    disk,
                    identity,
                    capabilities);
        }

        public static Broker embedded(int brokers, String version, String profile, Map<String, String> settings) {
            return new Broker(true, brokers, version, profile, settings, null);
        }

        /** No broker: the driver brings its own transport (driver-aeron). */
        public static Broker none() {
            return new Broker(false, 0, null, null, null, null);
        }

        public static Broker external(int brokers, String bootstrapServers) {
            return new Broker(false, brokers, null, null, null, bootstrapServers);
        }

        /**
         * This broker with what was read back from it: the transaction protocol in force ({@code transactionVersion}
         * null when it could not be read) and, for an embedded cluster, how it is coordinated and what transaction
         * version its storage was formatted with.
         */
        public Broker withReadBack(
                Coordination coordination,
                Integer transactionVersion,
                String transactionProtocol,
                Integer requestedTransactionVersion) {
            return with(
                    coordination,
                    transactionVersion,
                    transactionProtocol,
                    requestedTransactionVersion,
                    system,
                    clusterId,
                    runOnCluster,
                    dataDisk,
                    identity,
                    capabilities);
        }
    }

    /**
     * The machine the runner ran on, and how it reached the brokers: what a seed's hardware and network are compared
     * with. Read from the operating system when the result is written; what it does not tell is null. An embedded
     * cluster's brokers and the local worker share this machine's {@code cpus}.
     *
     * @param cpus the processors this JVM may use
     * @param cpuModel the processor's name as the kernel gives it ({@code /proc/cpuinfo}), else null
     * @param memoryMiB the machine's memory
     * @param os the kernel's name, release and architecture
     * @param network {@code loopback} when every broker address is this machine's (an embedded cluster, or an
     *     external one on this host), {@code network} when some broker is on another host, null without a broker
     */
    @JsonPropertyOrder({"cpus", "cpuModel", "memoryMiB", "os", "network"})
    public record Host(
            int cpus,
            @JsonInclude(JsonInclude.Include.NON_NULL) String cpuModel,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long memoryMiB,
            @JsonInclude(JsonInclude.Include.NON_NULL) String os,
            @JsonInclude(JsonInclude.Include.NON_NULL) String network) {
        public static final String LOOPBACK = "loopback";
        public static final String NETWORK = "network";
    }

    /**
     * A disk as this host's kernel describes it.
     *
     * @param device the block device ({@code nvme0n1}, {@code vda}), null when the file system has none of its own
     *     (overlay, tmpfs)
     * @param fileSystem the file system's type ({@code ext4}, {@code xfs}, {@code tmpfs})
     * @param kind {@code NVMe}, {@code SSD}, {@code rotational}, {@code virtual disk} (a virtio or Xen disk: the
     *     kernel cannot tell what backs it), {@code memory} (tmpfs, zram: an fsync costs nothing), or null when not known
     */
    @JsonPropertyOrder({"device", "fileSystem", "kind"})
    public record Disk(
            @JsonInclude(JsonInclude.Include.NON_NULL) String device,
            @JsonInclude(JsonInclude.Include.NON_NULL) String fileSystem,
            @JsonInclude(JsonInclude.Include.NON_NULL) String kind) {}

    /**
     * How a cluster's system was told from what it answered, never from a driver's name: {@code system} the one the
     * first matching rule names ({@code unknown} when none matched), {@code rule} that rule in words, {@code evidence}
     * what each probe read (DescribeCluster's cluster id and nodes, ApiVersions' API count, DescribeConfigs' broker
     * setting names), and {@code apiVersions} the ApiVersions answer, API key to {@code MIN-MAX}, when it was read.
     */
    @JsonPropertyOrder({"system", "rule", "evidence", "apiVersions"})
    public record Identity(
            Broker.SystemKind system,
            String rule,
            List<String> evidence,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> apiVersions) {
        public Identity {
            evidence = List.copyOf(evidence);
        }
    }

    /**
     * What a cluster serves of the transactional protocol, probed before the load: {@code apis} the versions one
     * broker's ApiVersions answer gives of each transactional API (API name to {@code MIN-MAX}, {@code none} when it
     * does not serve it); what they make possible — {@code groupMetadata} (TxnOffsetCommit v3 and later: KIP-447's
     * offsets with the consumer's group metadata), {@code transactionV2} (EndTxn v5: KIP-890 part 2),
     * {@code consumerGroupProtocol} (ConsumerGroupHeartbeat: KIP-848); and what InitProducerId answered for an
     * idempotent and for a transactional producer ({@code allowed}, or {@code refused: ERROR (code)}, or why there was
     * no answer). When the probe could not run (TLS or SASL, no broker answered ApiVersions) only {@code problem} says
     * why.
     */
    @JsonPropertyOrder({
        "apis",
        "groupMetadata",
        "transactionV2",
        "consumerGroupProtocol",
        "idempotentProducer",
        "transactionalProducer",
        "problem"
    })
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Capabilities(
            Map<String, String> apis,
            Boolean groupMetadata,
            Boolean transactionV2,
            Boolean consumerGroupProtocol,
            String idempotentProducer,
            String transactionalProducer,
            String problem) {

        /** What {@code apis} says of an API the broker does not serve. */
        public static final String NONE = "none";

        public Capabilities {
            apis = apis == null ? null : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(apis));
        }

        /** Not probed, for {@code problem}. */
        public static Capabilities notProbed(String problem) {
            return new Capabilities(null, null, null, null, null, null, problem);
        }

        /** Whether the probe ran (the versions are known). */
        public boolean probed() {
            return apis != null;
        }

        /** The highest version of {@code api} the broker serves, or -1 when it serves none (or was not probed). */
        public int maxVersion(String api) {
            String range = apis == null ? null : apis.get(api);
            if (range == null || range.equals(NONE)) {
                return -1;
            }
            return Integer.parseInt(range.substring(range.indexOf('-') + 1));
        }
    }

    /**
     * Counters over the measured phase. The recovery counts ({@code retries}, {@code fenced},
     * {@code producersReplaced}, {@code clientRetries}) are absent from files written before they existed.
     */
    @JsonPropertyOrder({
        "messagesSent",
        "messagesReceived",
        "publishErrors",
        "operations",
        "messagesProcessed",
        "committed",
        "aborted",
        "abortedOnPurpose",
        "failed",
        "fatalErrors",
        "retries",
        "fenced",
        "producersReplaced",
        "clientRetries"
    })
    public record Counts(
            long messagesSent,
            long messagesReceived,
            long publishErrors,
            long operations,
            // Source records STREAM operations consumed and wrote on.
            long messagesProcessed,
            long committed,
            // Attempts aborted after a failure (and retried).
            long aborted,
            // Transactions aborted on purpose (operation.abortRatio); absent from a run without them.
            @JsonInclude(JsonInclude.Include.NON_NULL) Long abortedOnPurpose,
            long failed,
            long fatalErrors,
            // Attempts begun again after a failed one, plus commits repeated after a time-out.
            @JsonInclude(JsonInclude.Include.NON_NULL) Long retries,
            // Failures that said the producer had been fenced.
            @JsonInclude(JsonInclude.Include.NON_NULL) Long fenced,
            // New producers created after a fatal error.
            @JsonInclude(JsonInclude.Include.NON_NULL) Long producersReplaced,
            // Record batches kafka-clients sent again on its own (record-retry-total).
            @JsonInclude(JsonInclude.Include.NON_NULL) Long clientRetries) {

        public static Counts of(StatsSnapshot s) {
            return of(s, false);
        }

        /** @param abortsOnPurpose the workload aborts transactions on purpose: {@code abortedOnPurpose} is written */
        public static Counts of(StatsSnapshot s, boolean abortsOnPurpose) {
            long onPurpose = s.counter(Counter.ABORTED_ON_PURPOSE);
            return new Counts(
                    s.counter(Counter.MESSAGES_SENT),
                    s.counter(Counter.MESSAGES_RECEIVED),
                    s.counter(Counter.PUBLISH_ERRORS),
                    s.counter(Counter.OPERATIONS),
                    s.counter(Counter.MESSAGES_PROCESSED),
                    s.counter(Counter.COMMITTED),
                    s.counter(Counter.ABORTED),
                    abortsOnPurpose || onPurpose > 0 ? onPurpose : null,
                    s.counter(Counter.FAILED),
                    s.counter(Counter.FATAL_ERRORS),
                    s.counter(Counter.RETRIES),
                    s.counter(Counter.FENCED),
                    s.counter(Counter.PRODUCERS_REPLACED),
                    s.counter(Counter.CLIENT_RETRIES));
        }

        /**
         * Whether something failed and nothing succeeded: no transaction committed, no message was acknowledged and
         * no record processed. (Every successful operation does one of these: a non-transactional one writes at
         * least one message, SEND_OFFSETS and STREAM are transactional.)
         */
        public boolean nothingSucceeded() {
            return (failed > 0 || publishErrors > 0) && committed == 0 && messagesSent == 0 && messagesProcessed == 0;
        }
    }

    /**
     * The seeds' run summary over the measured phase: duration, msg/s, operations/s, and {@code millisPerMessage},
     * duration ÷ messages (what seed 002 calls "average latency": a cost per message, not a latency), null when
     * there were no messages. A STREAM run's messages are the records it processed.
     *
     * <p>Files of schema version 1 carry the same value under its first name, {@code averageLatencyMillisPerMessage},
     * too (deprecated, see docs/result-format.md); reading takes the new name and falls back to the old.
     */
    @JsonPropertyOrder({
        "durationSeconds",
        "messagesPerSecond",
        "operationsPerSecond",
        "millisPerMessage",
        "averageLatencyMillisPerMessage"
    })
    public record Summary(
            double durationSeconds, double messagesPerSecond, double operationsPerSecond, Double millisPerMessage) {

        @JsonCreator
        static Summary read(
                @JsonProperty("durationSeconds") double durationSeconds,
                @JsonProperty("messagesPerSecond") double messagesPerSecond,
                @JsonProperty("operationsPerSecond") double operationsPerSecond,
                @JsonProperty("millisPerMessage") Double millisPerMessage,
                @JsonProperty("averageLatencyMillisPerMessage") Double averageLatencyMillisPerMessage) {
            return new Summary(
                    durationSeconds,
                    messagesPerSecond,
                    operationsPerSecond,
                    millisPerMessage != null ? millisPerMessage : averageLatencyMillisPerMessage);
        }

        /** The deprecated JSON name of {@link #millisPerMessage()}, written only for readers of schema version 1. */
        @Deprecated
        @JsonProperty("averageLatencyMillisPerMessage")
        private Double averageLatencyMillisPerMessage() {
            return millisPerMessage;
        }
    }

    /**
     * The verdict of the exactly-once check of a STREAM run. {@code abortedSeen}, records of transactions aborted on
     * purpose that the checker read with read_committed, is written when the run aborted on purpose or any was seen.
     * {@code passed} is the check after the run; {@code live}, what the live check saw during it
     * ({@code operation.liveCheck}), has its own verdict; absent when there was none.
     */
    @JsonPropertyOrder({"checked", "duplicated", "missing", "unexpected", "abortedSeen", "passed", "live"})
    public record ExactlyOnce(
            long checked,
            long duplicated,
            long missing,
            long unexpected,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long abortedSeen,
            boolean passed,
            @JsonInclude(JsonInclude.Include.NON_NULL) LiveCheck live) {

        /** This verdict with the live check's beside it. */
        public ExactlyOnce withLive(LiveCheck live) {
            return new ExactlyOnce(checked, duplicated, missing, unexpected, abortedSeen, passed, live);
        }

        public static ExactlyOnce of(ExactlyOnceReport report) {
            return of(report, false);
        }

        /** @param abortsOnPurpose the run aborted transactions on purpose: {@code abortedSeen} is written */
        public static ExactlyOnce of(ExactlyOnceReport report, boolean abortsOnPurpose) {
            return new ExactlyOnce(
                    report.checked(),
                    report.duplicated(),
                    report.missing(),
                    report.unexpected(),
                    abortsOnPurpose || report.abortedSeen() > 0 ? report.abortedSeen() : null,
                    report.passed(),
                    null);
        }
    }

    /**
     * What the live check saw during the run ({@code exactlyOnce.live}, docs/result-format.md): counts of each kind of
     * violation over every output record it read, its own verdict, and the first violations in the order seen.
     *
     * @param readToEnd whether, when stopped, it read the output up to its last stable offset
     */
    @JsonPropertyOrder({
        "outputsRead",
        "duplicates",
        "abortedSeen",
        "uncommitted",
        "outOfOrder",
        "unknownSource",
        "readToEnd",
        "passed",
        "violations"
    })
    public record LiveCheck(
            long outputsRead,
            long duplicates,
            long abortedSeen,
            long uncommitted,
            long outOfOrder,
            long unknownSource,
            boolean readToEnd,
            boolean passed,
            List<LiveViolation> violations) {

        /** @param measurementStart the start of the measurement, from which {@code seenAtSeconds} counts */
        public static LiveCheck of(LiveCheckReport report, Instant measurementStart) {
            return new LiveCheck(
                    report.outputsRead(),
                    report.duplicates(),
                    report.abortedSeen(),
                    report.uncommitted(),
                    report.outOfOrder(),
                    report.unknownSource(),
                    report.readToEnd(),
                    report.passed(),
                    report.violations().stream()
                            .map(v -> LiveViolation.of(v, measurementStart))
                            .toList());
        }
    }

    /**
     * One violation the live check saw: its kind, the output record (topic, partition, offset), the source record its
     * key names (absent when it names none), when it was seen — epoch milliseconds and seconds from the start of the
     * measurement (negative: during the warm-up) — and what was wrong.
     */
    @JsonPropertyOrder({
        "kind",
        "topic",
        "partition",
        "offset",
        "sourcePartition",
        "sourceOffset",
        "seenEpochMillis",
        "seenAtSeconds",
        "detail"
    })
    public record LiveViolation(
            LiveCheckReport.Kind kind,
            String topic,
            int partition,
            long offset,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer sourcePartition,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long sourceOffset,
            long seenEpochMillis,
            double seenAtSeconds,
            String detail) {

        static LiveViolation of(LiveCheckReport.Violation v, Instant measurementStart) {
            boolean hasSource = v.sourcePartition() >= 0 && v.sourceOffset() >= 0;
            return new LiveViolation(
                    v.kind(),
                    v.topic(),
                    v.partition(),
                    v.offset(),
                    hasSource ? v.sourcePartition() : null,
                    hasSource ? v.sourceOffset() : null,
                    v.seenEpochMillis(),
                    (v.seenEpochMillis() - measurementStart.toEpochMilli()) / 1000.0,
                    v.detail());
        }
    }

    /**
     * Which repetition of its (driver, workload) a run was ({@code index} of {@code count}, from 1) and the
     * {@code group} it belongs to: every repetition of one (driver, workload), or with {@code interleaved} every run
     * of the comparison, which then alternated (A B A B …); {@code comparison} names it (a suite entry's).
     */
    @JsonPropertyOrder({"index", "count", "group", "interleaved", "comparison"})
    public record Repetition(
            int index,
            int count,
            String group,
            boolean interleaved,
            @JsonInclude(JsonInclude.Include.NON_NULL) String comparison) {}

    /**
     * omb-tx's per-period series, one element per reporting period. An operation's latency falls in the period it
     * completed in, so a stall shows as periods with (almost) no operations followed by one with a high maximum.
     * {@code operationLatencyMaxMillis} is absent from files written before it existed.
     */
    @JsonPropertyOrder({
        "elapsedSeconds",
        "operationRate",
        "operationLatency50pctMillis",
        "operationLatency99pctMillis",
        "operationLatencyMaxMillis"
    })
    public record PeriodSeries(
            // Seconds from the start of the measurement to the end of each period.
            List<Double> elapsedSeconds,
            // Operations/s.
            List<Double> operationRate,
            List<Double> operationLatency50pctMillis,
            List<Double> operationLatency99pctMillis,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<Double> operationLatencyMaxMillis) {}

    /**
     * One fault the workload declared, as planned and as it happened. Times are given twice: as epoch milliseconds
     * and as seconds from the start of the measurement (the scale of {@code periods.elapsedSeconds}). Absent fields:
     * what does not apply or did not happen ({@code error} when all went well, {@code recovery} when the broker was
     * not to come back during the run, ...).
     *
     * @param fault the workload key, {@code faults[N]}
     * @param atSeconds planned: seconds after the measurement started (or {@code afterOperations})
     * @param recovery planned: restart or resume, after {@code recoverAfterSeconds}
     * @param brokerId the node id the target resolved to when the fault was injected
     * @param broker that broker's host:port
     * @param resolvedVia what the role was resolved through (e.g. the leader of a topic partition)
     * @param injectedEpochMillis when the signal (or the fault command) was sent
     * @param recoveredEpochMillis when the restart or resume was issued
     * @param rejoinedEpochMillis when the broker answered requests again
     * @param error why injecting or recovering failed
     * @param note what else happened to the plan (not injected, recovery brought forward to the end of the run)
     * @param index a client fault's client: which stream processor or transactional producer (for add: the new one's)
     * @param fencings a client fault's: calls of the faulted instance that failed as fenced (a resumed zombie's)
     * @param zombieCommits a client fault's: commits the faulted instance made after it was replaced (must be 0)
     * @param abortedTransactions a client fault's: transactions it aborted or left open for the next instance to abort
     * @param reprocessedRecords a client fault's: the records of those transactions, read again (STREAM) or sent
     *     again (WRITE, SEND_OFFSETS) by the next instance
     * @param stallSeconds a client fault's: from the fault until the next instance's first commit
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({
        "fault",
        "action",
        "target",
        "index",
        "partition",
        "brokerIndex",
        "atSeconds",
        "afterOperations",
        "recovery",
        "recoverAfterSeconds",
        "brokerId",
        "broker",
        "resolvedVia",
        "injectedEpochMillis",
        "injectedAtSeconds",
        "recoveredEpochMillis",
        "recoveredAtSeconds",
        "rejoinedEpochMillis",
        "rejoinedAtSeconds",
        "fencings",
        "zombieCommits",
        "abortedTransactions",
        "reprocessedRecords",
        "stallSeconds",
        "error",
        "note"
    })
    public record FaultEvent(
            String fault,
            Action action,
            Target target,
            Integer partition,
            Integer brokerIndex,
            Double atSeconds,
            Long afterOperations,
            Recovery recovery,
            Double recoverAfterSeconds,
            Integer brokerId,
            String broker,
            String resolvedVia,
            Long injectedEpochMillis,
            Double injectedAtSeconds,
            Long recoveredEpochMillis,
            Double recoveredAtSeconds,
            Long rejoinedEpochMillis,
            Double rejoinedAtSeconds,
            String error,
            String note,
            Integer index,
            Integer fencings,
            Integer zombieCommits,
            Integer abortedTransactions,
            Long reprocessedRecords,
            Double stallSeconds) {

        /** Whether the fault was injected without error (and, if planned, recovered from). */
        public boolean succeeded() {
            return error == null && injectedEpochMillis != null;
        }

        /**
         * What the fault did: kill, pause, stop (to a broker or a client), add, remove (a stream processor of a
         * group). The result's own names, the same as a workload's {@code action}.
         */
        public enum Action {
            KILL,
            PAUSE,
            STOP,
            ADD,
            REMOVE;

            /** Its name in results: kill, pause, stop, add, remove. */
            @JsonValue
            public String key() {
                return name().toLowerCase(Locale.ROOT);
            }

            @JsonCreator
            public static Action ofKey(String key) {
                return EnumKeys.find(values(), Action::key, key)
                        .orElseThrow(() -> new IllegalArgumentException("not a fault action: '" + key + "'"));
            }
        }

        /**
         * What the fault hit: a broker by its role or its index, or a client of the run. The result's own names, the
         * same as a workload's {@code target}.
         */
        public enum Target {
            PARTITION_LEADER,
            TRANSACTION_COORDINATOR,
            GROUP_COORDINATOR,
            BROKER,
            STREAM_PROCESSOR,
            TRANSACTIONAL_PRODUCER;

            /**
             * Its name in results: partition-leader, transaction-coordinator, group-coordinator, broker,
             * stream-processor, transactional-producer.
             */
            @JsonValue
            public String key() {
                return name().toLowerCase(Locale.ROOT).replace('_', '-');
            }

            /** Whether it names a client of the run (a stream processor, a transactional producer), not a broker. */
            public boolean isClient() {
                return this == STREAM_PROCESSOR || this == TRANSACTIONAL_PRODUCER;
            }

            @JsonCreator
            public static Target ofKey(String key) {
                return EnumKeys.find(values(), Target::key, key)
                        .orElseThrow(() -> new IllegalArgumentException("not a fault target: '" + key + "'"));
            }
        }

        /** How the target was to come back: a restart (after a kill or a stop) or a resume (after a pause). */
        public enum Recovery {
            RESTART,
            RESUME;

            /** Its name in results: restart, resume. */
            @JsonValue
            public String key() {
                return name().toLowerCase(Locale.ROOT);
            }

            @JsonCreator
            public static Recovery ofKey(String key) {
                return EnumKeys.find(values(), Recovery::key, key)
                        .orElseThrow(() -> new IllegalArgumentException("not a fault recovery: '" + key + "'"));
            }
        }
    }

    /**
     * How a count-based run with consumers waited, after its last measured operation completed, for the consumers to
     * receive what had been sent (docs/result-format.md, {@code drain}). Counts are per subscription and cover the
     * whole load, warm-up included: {@code messagesSent × subscriptionsPerTopic − messagesReceived}.
     *
     * @param inFlight messages sent but not yet received when the last measured operation completed
     * @param notReceived messages still not received when the drain ended (0 when it completed)
     * @param seconds how long the drain took
     * @param limitSeconds the drain ended early once nothing more was received for this long (the stall timeout)
     * @param completed whether every message sent was received
     */
    @JsonPropertyOrder({"inFlight", "notReceived", "seconds", "limitSeconds", "completed"})
    public record Drain(long inFlight, long notReceived, double seconds, int limitSeconds, boolean completed) {}

    /**
     * A spell of the measured phase in which nothing completed: no operation, no acknowledged message, no message
     * received (an undeclared broker pause, a long GC, a network cut). Found by the coordinator's polls, so to within
     * a second.
     *
     * @param atSeconds when the last completion before it was seen, in seconds from the start of the measurement
     * @param seconds how long nothing completed
     * @param recovered whether completions came again (false: the run ended, or was ended, within it)
     */
    @JsonPropertyOrder({"atSeconds", "seconds", "recovered"})
    public record Stall(double atSeconds, double seconds, boolean recovered) {}
}

package io.ombtx.driver.kafka;

import io.ombtx.driver.api.CheckedConfiguration;
import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.ProducerBudget;
import io.ombtx.driver.api.ScenarioDriver;
import io.ombtx.driver.api.config.ConfigException;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.bookkeeper.stats.StatsLogger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional Kafka driver. Loads into stock OMB as a plain {@link BenchmarkDriver} (transactions then come
 * from the YAML's {@code transactions:} block and are reported through the StatsLogger), and into the omb-tx
 * runner as a {@link ScenarioDriver} that runs whole operations with per-phase timings.
 *
 * <p>Created by reflection, then {@link #initialize}; {@link #configureOperation} (omb-tx only) comes before any
 * topic, producer or consumer is created.
 */
public class KafkaTxBenchmarkDriver
        implements BenchmarkDriver, ScenarioDriver, CheckedConfiguration, ClientFaults, ProducerBudget {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaTxBenchmarkDriver.class);
    private static final long ADMIN_TIMEOUT_SECONDS = 60;
    /** What {@link #fitProducers} changed, for the result's environment; null when nothing. */
    private volatile Map<String, Object> producerMemory;

    private static final Duration VERIFY_TIMEOUT = Duration.ofMinutes(5);
    /** How long a fault's report waits for the next instance's first commit, when none was seen yet. */
    private static final long FIRST_COMMIT_WAIT_MILLIS = 30_000;
    /** How long a resumed zombie gets to make its (fenced) call and close. */
    private static final long ZOMBIE_END_SECONDS = 60;
    /** How long stopping the live check may read on to the output's end (and then read the committed offsets). */
    private static final Duration LIVE_CHECK_STOP_TIMEOUT = Duration.ofMinutes(2);

    private DriverConfig config;
    private TxStatsReporter stats;
    private ClientFactory clients;
    private Admin admin;
    private int brokerCount;
    private String runId;
    private volatile OperationSpec configuredSpec; // null: stock OMB, the YAML decides
    private final AtomicInteger producerIndex = new AtomicInteger();
    private final AtomicInteger streamIndex = new AtomicInteger();
    private final List<AutoCloseable> openClients = new ArrayList<>();
    /** The live checks running ({@code operation.liveCheck}), by source topic and subscription. */
    private final Map<LiveCheckKey, LiveExactlyOnceChecker> liveChecks = new java.util.concurrent.ConcurrentHashMap<>();
    /** The consumer groups this driver's consumers joined, whose protocol the environment reads back. */
    private final Set<String> consumerGroups = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Transactional stream processors by index (creation order, added ones after), for client faults. */
    private final Map<Integer, StreamSlot> processors = new java.util.concurrent.ConcurrentHashMap<>();
    /** Transactional WRITE / SEND_OFFSETS producers by index (creation order), for client faults. */
    private final Map<Integer, KafkaTxProducer> txProducers = new java.util.concurrent.ConcurrentHashMap<>();
    /** The client faults injected so far, by the workload's key. */
    private final Map<String, InjectedFault> clientFaults = new java.util.concurrent.ConcurrentHashMap<>();
    /** Clients a kill, stop or pause took out and no new instance replaced yet ("STREAM_PROCESSOR 0") → the fault. */
    private final Map<String, String> down = new java.util.concurrent.ConcurrentHashMap<>();
    /** Stream processors that client faults took out or removed, closed with the driver. */
    private final List<StreamProcessor> retired = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final ExecutorService setup = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "ombtx-driver-setup");
        thread.setDaemon(true);
        return thread;
    });

    public KafkaTxBenchmarkDriver() {}

    @Override
    public void initialize(File configurationFile, StatsLogger statsLogger) throws IOException, InterruptedException {
        try {
            config = new DriverConfigParser(extraYamlKeys()).parse(configurationFile);
        } catch (ConfigException e) {
            throw new IOException(e.getMessage()); // OMB's contract; the message names the file and the key
        }
        String bootstrap = config.bootstrapServers();
        if (KafkaDriverYaml.namesNoCluster(bootstrap)) {
            throw new IOException(
                    config.source() + ": commonConfig has no bootstrap.servers (the omb-tx runner fills it "
                            + "in when it starts the embedded broker; for an existing cluster write e.g. bootstrap.servers=host:9092)");
        }
        stats = new TxStatsReporter(statsLogger);
        runId = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        clients = new ClientFactory(config);
        admin = clients.admin();
        try {
            brokerCount = admin.describeCluster()
                    .nodes()
                    .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .size();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            admin.close(Duration.ZERO);
            throw new IOException(
                    config.source() + ": cannot reach the brokers at " + config.bootstrapServers() + ": "
                            + ErrorClassifier.describe(e),
                    e);
        }
        try {
            afterConnect(admin, config);
        } catch (IOException | InterruptedException | RuntimeException e) {
            admin.close(Duration.ZERO); // a failed initialize must not leave a client running
            throw e;
        }
    }

    @Override
    public void checkConfiguration(String source, String yamlText) {
        new DriverConfigParser(extraYamlKeys()).parse(source, yamlText);
    }

    /** Top-level YAML keys a subclass driver understands besides the common ones. */
    protected Set<String> extraYamlKeys() {
        return Set.of();
    }

    /** Runs at the end of {@link #initialize}, connected; a subclass checks the cluster here (a preflight). */
    protected void afterConnect(Admin admin, DriverConfig config) throws IOException, InterruptedException {}

    /** The topic configs new topics get; a subclass may drop keys its broker does not understand. */
    protected Map<String, String> topicConfigs(DriverConfig config) {
        return config.topicConfigMap();
    }

    /** Every non-sensitive config entry of the broker with the lowest node id, as the broker reports it. */
    protected final Map<String, String> describeBrokerConfig() throws IOException {
        try {
            int first = admin.describeCluster().nodes().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).stream()
                    .mapToInt(org.apache.kafka.common.Node::id)
                    .min()
                    .orElseThrow();
            return BrokerEnvironment.brokerConfig(admin, first);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the broker configuration", e);
        } catch (Exception e) {
            throw new IOException(
                    config.source() + ": cannot read the broker configuration from " + config.bootstrapServers() + ": "
                            + ErrorClassifier.describe(e),
                    e);
        }
    }

    protected final DriverConfig config() {
        return config;
    }

    protected final Admin admin() {
        return admin;
    }

    @Override
    public String getTopicNamePrefix() {
        return "omb-tx";
    }

    @Override
    public void configureOperation(OperationSpec spec) {
        if (spec == null) {
            throw new IllegalArgumentException("spec is required");
        }
        this.configuredSpec = spec;
    }

    /** What one operation is: the runner's spec, or for stock OMB a publish, transactional if the YAML says so. */
    OperationSpec operationSpec() {
        OperationSpec spec = configuredSpec;
        if (spec != null) {
            return spec;
        }
        TransactionSettings tx = config.transactions();
        return tx.enabled()
                ? new OperationSpec(OperationKind.PUBLISH, true, tx.messagesPerTransaction(), 1, false, true)
                : OperationSpec.publish();
    }

    /**
     * Where this run's transactions (and STREAM batches) wait for their acks: the workload's order when the runner
     * gave one, else the YAML's {@code transactions.resolveBeforeCommit} (stock OMB).
     */
    AckWait ackWait(OperationSpec spec) {
        return spec.awaitAcks() != null
                ? AckWait.of(spec.awaitAcks())
                : config.transactions().ackWait();
    }

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions) {
        return CompletableFuture.runAsync(
                () -> {
                    if (brokerCount < config.replicationFactor()) {
                        throw new IllegalStateException(config.source() + ": replicationFactor "
                                + config.replicationFactor()
                                + " needs at least that many brokers, but the cluster at " + config.bootstrapServers()
                                + " has " + brokerCount);
                    }
                    NewTopic newTopic = new NewTopic(topic, partitions, (short) config.replicationFactor())
                            .configs(topicConfigs(config));
                    await(
                            () -> admin.createTopics(List.of(newTopic))
                                    .all()
                                    .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS),
                            "create topic " + topic);
                    await(() -> awaitLeaders(topic, partitions), "wait for the leaders of " + topic);
                },
                setup);
    }

    /**
     * Topic creation returns once the controller has accepted it; brokers learn the topic and its leaders a moment
     * later, each at its own pace. Every later admin step (describing the topic for a producer or a consumer, listing
     * offsets, the exactly-once check) may be answered by any broker, and the clients' first requests go to the
     * leaders: so this returns only once the leaders are known and every broker of the cluster knows every partition.
     * Waiting here also keeps that moment (NOT_LEADER_OR_FOLLOWER retries) out of the first measured operation.
     */
    private Void awaitLeaders(String topic, int partitions) throws Exception {
        TopicDescription description = describeWhenVisible(
                topic,
                d -> d.partitions().size() == partitions
                        && d.partitions().stream()
                                .allMatch(p -> p.leader() != null && !p.leader().isEmpty()),
                "partitions of " + topic + " have no leader");
        if (ClientCompat.DESCRIBE_PRODUCERS) {
            awaitEveryBroker(topic, description);
        }
        return null;
    }

    /**
     * Asks each broker in turn, by a request addressed to it, whether it has applied the topic's creation: DescribeProducers
     * sent to one broker answers UNKNOWN_TOPIC_OR_PARTITION until its metadata has the partition, then
     * NOT_LEADER_OR_FOLLOWER until it has created its replica (or for good, when it holds none), then the partition's
     * producers. So a broker agrees once each partition answers as it should: with producers where the broker is one
     * of the partition's replicas, with NOT_LEADER_OR_FOLLOWER elsewhere. An answer that cannot tell (a broker too
     * old for the request, one that may not describe the topic) is taken as agreement. A client older than 3.0 has no
     * DescribeProducers: with it, the leaders being known is all that is awaited.
     */
    private void awaitEveryBroker(String topic, TopicDescription description) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ADMIN_TIMEOUT_SECONDS);
        for (org.apache.kafka.common.Node node :
                admin.describeCluster().nodes().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            while (!hasApplied(node.id(), topic, description)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("broker " + node.id() + " did not apply the creation of " + topic
                            + " within " + ADMIN_TIMEOUT_SECONDS + " s");
                }
                Thread.sleep(20);
            }
        }
    }

    private boolean hasApplied(int brokerId, String topic, TopicDescription description) throws Exception {
        List<TopicPartition> partitions = description.partitions().stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        var result = admin.describeProducers(partitions, new DescribeProducersOptions().brokerId(brokerId));
        for (var info : description.partitions()) {
            boolean replica = info.replicas().stream().anyMatch(n -> n.id() == brokerId);
            try {
                result.partitionResult(new TopicPartition(topic, info.partition()))
                        .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException
                        || e.getCause() instanceof NotLeaderOrFollowerException && replica) {
                    return false;
                }
                if (!(e.getCause() instanceof NotLeaderOrFollowerException)) {
                    LOG.debug(
                            "broker {} cannot say whether it has {}-{}: {}",
                            brokerId,
                            topic,
                            info.partition(),
                            ErrorClassifier.describe(e));
                }
            }
        }
        return true;
    }

    /**
     * The topic's description once {@code ready} holds for it. On a cluster of several brokers the admin client asks
     * any of them, and one that has not yet applied the topic's creation answers UnknownTopicOrPartition: the topic
     * exists (it was created before this call), so that answer means "not yet", never "no".
     */
    private TopicDescription describeWhenVisible(
            String topic, java.util.function.Predicate<TopicDescription> ready, String notReady) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ADMIN_TIMEOUT_SECONDS);
        while (true) {
            try {
                TopicDescription description = ClientCompat.describeTopics(admin, List.of(topic))
                        .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                        .get(topic);
                if (ready.test(description)) {
                    return description;
                }
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(notReady + " after " + ADMIN_TIMEOUT_SECONDS + " s");
            }
            Thread.sleep(20);
        }
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
        return CompletableFuture.supplyAsync(
                () -> {
                    OperationSpec spec = operationSpec();
                    int partitions = partitionCount(topic);
                    int index = producerIndex.getAndIncrement();
                    TransactionSettings tx = config.transactions();
                    KafkaTxProducer producer;
                    if (spec.transactional() && spec.kind() != OperationKind.STREAM) {
                        TransactionFlow flow = TransactionFlow.start(
                                tx.transactionalIdPrefix() + "-" + runId + "-" + index,
                                clients::producer,
                                tx,
                                ackWait(spec),
                                stats);
                        flow.abortOnPurpose(AbortChoice.of(spec.abortRatio(), spec.abortSeed(), index));
                        flow.renewEvery(spec.transactionsPerProducer());
                        SyntheticOffsets offsets = new SyntheticOffsets(
                                sendOffsetsGroupId(), new TopicPartition(topic, index % partitions));
                        // Stock OMB (no runner configured the operation) group-commits within the YAML's bounds.
                        producer = KafkaTxProducer.transactional(
                                topic,
                                partitions,
                                spec,
                                flow,
                                tx,
                                offsets,
                                stats,
                                configuredSpec == null,
                                sizeSetting(clients.producerProperties(null), "buffer.memory", DEFAULT_BUFFER_MEMORY));
                        txProducers.put(index, producer);
                    } else {
                        producer = KafkaTxProducer.plain(topic, partitions, spec, clients.producer(null), stats, tx);
                    }
                    track(producer);
                    return producer;
                },
                setup);
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscriptionName, ConsumerCallback consumerCallback) {
        return CompletableFuture.supplyAsync(
                () -> {
                    OperationSpec spec = operationSpec();
                    CallbackDispatch dispatch = new CallbackDispatch(consumerCallback);
                    consumerGroups.add(subscriptionName);
                    BenchmarkConsumer consumer = spec.kind() == OperationKind.STREAM
                            ? streamProcessor(spec, topic, subscriptionName, dispatch)
                            : plainConsumer(spec, topic, subscriptionName, dispatch);
                    track((AutoCloseable) consumer);
                    return consumer;
                },
                setup);
    }

    private BenchmarkConsumer plainConsumer(OperationSpec spec, String topic, String group, CallbackDispatch dispatch) {
        Map<String, String> required = new LinkedHashMap<>();
        if (spec.readCommitted() || spec.transactional()) {
            required.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        }
        return new KafkaTxConsumer(clients.consumer(group, required), topic, dispatch, !clients.consumersAutoCommit());
    }

    private BenchmarkConsumer streamProcessor(
            OperationSpec spec, String source, String group, CallbackDispatch dispatch) {
        // The processor owns its offsets: it starts from the group's committed position (or the beginning) and
        // only ever sees committed input.
        TransactionSettings tx = config.transactions();
        if (spec.transactional()) {
            int index = streamIndex.getAndIncrement();
            String transactionalId = tx.transactionalIdPrefix() + "-" + runId + "-stream-" + group + "-" + index;
            StreamSlot slot = new StreamSlot(
                    index,
                    transactionalId,
                    spec,
                    source,
                    group,
                    dispatch,
                    AbortChoice.of(spec.abortRatio(), spec.abortSeed(), index));
            StreamProcessor processor = startProcessor(slot, null);
            processors.put(index, slot);
            return processor;
        }
        String target = streamTargetTopic(source);
        int targetPartitions = partitionCount(target);
        var consumer = clients.consumer(group, processorConsumerSettings());
        return StreamProcessor.naive(
                consumer,
                source,
                target,
                targetPartitions,
                spec.messagesPerOperation(),
                clients.producer(null),
                tx,
                ackWait(spec),
                dispatch,
                stats);
    }

    /** The consumer settings a stream processor cannot do without. */
    private static Map<String, String> processorConsumerSettings() {
        return Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    }

    /**
     * Starts an instance of a transactional stream processor: a consumer in the slot's group, a producer holding the
     * slot's transactional id (its initTransactions fences any earlier instance and aborts what it left open).
     *
     * @param replacing the client fault this instance recovers from (its first commit ends the stall), or null
     */
    private StreamProcessor startProcessor(StreamSlot slot, ClientFault replacing) {
        String target = streamTargetTopic(slot.source());
        int targetPartitions = partitionCount(target);
        var consumer = clients.consumer(slot.group(), processorConsumerSettings());
        TransactionFlow flow;
        try {
            flow = TransactionFlow.start(
                    slot.transactionalId(), clients::producer, config.transactions(), ackWait(slot.spec()), stats);
            flow.abortOnPurpose(slot.aborts());
        } catch (RuntimeException e) {
            consumer.close(Duration.ZERO);
            throw e;
        }
        StreamProcessor processor = StreamProcessor.transactional(
                consumer,
                slot.source(),
                target,
                targetPartitions,
                slot.spec().messagesPerOperation(),
                flow,
                slot.dispatch(),
                replacing);
        slot.current = processor;
        return processor;
    }

    /**
     * One transactional stream processor over its instances: what a new instance needs (the same transactional id,
     * group and call-back), and the instance running now (null once removed).
     */
    private static final class StreamSlot {
        private final int index;
        private final String transactionalId;
        private final OperationSpec spec;
        private final String source;
        private final String group;
        private final CallbackDispatch dispatch;
        private final AbortChoice aborts;
        private volatile StreamProcessor current;

        StreamSlot(
                int index,
                String transactionalId,
                OperationSpec spec,
                String source,
                String group,
                CallbackDispatch dispatch,
                AbortChoice aborts) {
            this.index = index;
            this.transactionalId = transactionalId;
            this.spec = spec;
            this.source = source;
            this.group = group;
            this.dispatch = dispatch;
            this.aborts = aborts;
        }

        int index() {
            return index;
        }

        String transactionalId() {
            return transactionalId;
        }

        OperationSpec spec() {
            return spec;
        }

        String source() {
            return source;
        }

        String group() {
            return group;
        }

        CallbackDispatch dispatch() {
            return dispatch;
        }

        AbortChoice aborts() {
            return aborts;
        }
    }

    /** A client fault as injected: on which client, and what it has come to. */
    private record InjectedFault(Client client, int index, ClientFault fault) {}

    @Override
    public CompletableFuture<Report> clientFault(Request request) {
        return CompletableFuture.supplyAsync(
                () -> await(
                        () -> clientFaultStep(request),
                        request.step().name().toLowerCase(java.util.Locale.ROOT)
                                + " "
                                + request.client()
                                        .name()
                                        .toLowerCase(java.util.Locale.ROOT)
                                        .replace('_', '-') + " "
                                + request.index()),
                setup);
    }

    private Report clientFaultStep(Request request) throws Exception {
        switch (request.step()) {
            case KILL, STOP, PAUSE -> {
                String client = request.client() + " " + request.index();
                String earlier = down.putIfAbsent(client, request.fault());
                if (earlier != null) {
                    throw new IllegalArgumentException(
                            client.toLowerCase(java.util.Locale.ROOT).replace('_', '-') + " is out since " + earlier
                                    + ", which brings no new instance of it yet");
                }
                ClientFault fault = new ClientFault(request.step(), request.index());
                try {
                    boolean armed;
                    if (request.client() == Client.STREAM_PROCESSOR) {
                        StreamProcessor processor = liveProcessor(request.index());
                        armed = processor.cut(fault);
                        if (armed) {
                            retired.add(processor); // a killed one's abandoned producer is closed with the driver
                        }
                    } else {
                        armed = txProducer(request.index()).cut(fault);
                    }
                    if (!armed) {
                        throw new IllegalArgumentException(request.client() + " " + request.index()
                                + " does not run transactions that a client fault can cut");
                    }
                } catch (RuntimeException e) {
                    down.remove(client);
                    throw e;
                }
                clientFaults.put(request.fault(), new InjectedFault(request.client(), request.index(), fault));
                fault.actedFuture().get(); // the client acts at its next transaction's decision point
                return fault.report(0);
            }
            case RESTART, RESUME -> {
                InjectedFault injected = clientFaults.get(request.fault());
                if (injected == null) {
                    throw new IllegalArgumentException("no client fault " + request.fault() + " was injected");
                }
                ClientFault fault = injected.fault();
                down.remove(injected.client() + " " + injected.index());
                if (injected.client() == Client.STREAM_PROCESSOR) {
                    StreamSlot slot = processors.get(injected.index());
                    if (fault.step() != Step.PAUSE) {
                        fault.endedFuture().get(); // the old instance's consumer has left the group
                    }
                    track(startProcessor(slot, fault));
                } else {
                    KafkaTxProducer producer = txProducer(injected.index());
                    OperationSpec spec = operationSpec();
                    TransactionFlow next = TransactionFlow.start(
                            producer.transactionalId(), clients::producer, config.transactions(), ackWait(spec), stats);
                    next.abortOnPurpose(producer.abortChoice());
                    next.renewEvery(spec.transactionsPerProducer());
                    producer.takeOver(next, fault);
                }
                if (fault.step() == Step.PAUSE) {
                    fault.resume();
                    fault.endedFuture().get(ZOMBIE_END_SECONDS, TimeUnit.SECONDS);
                }
                return fault.report(0);
            }
            case ADD -> {
                StreamSlot template = processors.values().stream()
                        .min(java.util.Comparator.comparingInt(StreamSlot::index))
                        .orElseThrow(() -> new IllegalArgumentException("no stream processor to add another to"));
                int index = streamIndex.getAndIncrement();
                OperationSpec spec = template.spec();
                String transactionalId = config.transactions().transactionalIdPrefix() + "-" + runId + "-stream-"
                        + template.group() + "-" + index;
                StreamSlot slot = new StreamSlot(
                        index,
                        transactionalId,
                        spec,
                        template.source(),
                        template.group(),
                        template.dispatch(),
                        AbortChoice.of(spec.abortRatio(), spec.abortSeed(), index));
                track(startProcessor(slot, null));
                processors.put(index, slot);
                return new Report(index, 0, 0, 0, 0, null, null);
            }
            case REMOVE -> {
                String earlier = down.get(Client.STREAM_PROCESSOR + " " + request.index());
                if (earlier != null) {
                    throw new IllegalArgumentException(
                            "stream-processor " + request.index() + " is out since " + earlier + ": nothing to remove");
                }
                StreamProcessor processor = liveProcessor(request.index());
                processors.get(request.index()).current = null;
                processor.close(); // clean: the group rebalances while the others are in their transactions
                retired.add(processor);
                return new Report(request.index(), 0, 0, 0, 0, null, null);
            }
            case REPORT -> {
                InjectedFault injected = clientFaults.get(request.fault());
                if (injected == null) {
                    throw new IllegalArgumentException("no client fault " + request.fault() + " was injected");
                }
                return injected.fault().report(FIRST_COMMIT_WAIT_MILLIS);
            }
            default -> throw new IllegalArgumentException("unknown step " + request.step());
        }
    }

    private StreamProcessor liveProcessor(int index) {
        StreamSlot slot = processors.get(index);
        if (slot == null) {
            throw new IllegalArgumentException("there is no transactional stream processor " + index
                    + " (this driver has " + processors.size() + ")");
        }
        StreamProcessor current = slot.current;
        if (current == null) {
            throw new IllegalArgumentException("stream processor " + index + " was removed");
        }
        return current;
    }

    private KafkaTxProducer txProducer(int index) {
        KafkaTxProducer producer = txProducers.get(index);
        if (producer == null) {
            throw new IllegalArgumentException(
                    "there is no transactional producer " + index + " (this driver has " + txProducers.size() + ")");
        }
        return producer;
    }

    @Override
    public String streamTargetTopic(String sourceTopic) {
        return sourceTopic + "-out";
    }

    @Override
    public CompletableFuture<ExactlyOnceReport> verifyExactlyOnce(String sourceTopic, String subscriptionName) {
        return CompletableFuture.supplyAsync(
                () -> await(
                        () -> new ExactlyOnceVerifier(admin, clients.consumerProperties(), VERIFY_TIMEOUT)
                                .verify(sourceTopic, streamTargetTopic(sourceTopic), subscriptionName),
                        "verify exactly-once delivery of " + sourceTopic),
                setup);
    }

    @Override
    public CompletableFuture<Void> startLiveCheck(String sourceTopic, String subscriptionName) {
        return startLiveCheck(sourceTopic, subscriptionName, "read_committed");
    }

    /**
     * As {@link #startLiveCheck(String, String)}, reading with {@code isolationLevel}: read_committed always, except
     * in the test that shows a checker reading read_uncommitted sees aborted records.
     */
    CompletableFuture<Void> startLiveCheck(String sourceTopic, String subscriptionName, String isolationLevel) {
        return CompletableFuture.supplyAsync(
                () -> {
                    LiveCheckKey key = new LiveCheckKey(sourceTopic, subscriptionName);
                    LiveExactlyOnceChecker checker = new LiveExactlyOnceChecker(
                            clients.consumerProperties(),
                            sourceTopic,
                            streamTargetTopic(sourceTopic),
                            subscriptionName,
                            operationSpec().transactional(),
                            isolationLevel,
                            LIVE_CHECK_STOP_TIMEOUT);
                    if (liveChecks.putIfAbsent(key, checker) != null) {
                        checker.close();
                        throw new IllegalStateException("a live check of " + sourceTopic + " is already running");
                    }
                    synchronized (openClients) {
                        openClients.add(checker);
                    }
                    checker.start();
                    return null;
                },
                setup);
    }

    @Override
    public CompletableFuture<LiveCheckReport> stopLiveCheck(String sourceTopic, String subscriptionName) {
        LiveExactlyOnceChecker checker = liveChecks.remove(new LiveCheckKey(sourceTopic, subscriptionName));
        if (checker == null) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("no live check of " + sourceTopic + " was started"));
        }
        return checker.stop();
    }

    private record LiveCheckKey(String sourceTopic, String subscriptionName) {}

    @Override
    public String firstError() {
        TxStatsReporter reporter = stats;
        return reporter == null ? null : reporter.firstError();
    }

    @Override
    public Map<String, Object> environment() {
        Map<String, Object> environment = new LinkedHashMap<>();
        environment.put("driver", config.name());
        environment.put("runId", runId);
        environment.putAll(BrokerEnvironment.collect(admin, clients.producerProperties(null)));
        environment.put("consumerSettings", BrokerEnvironment.consumerSettings(clients.consumerProperties()));
        Map<String, String> groupProtocols = BrokerEnvironment.groupProtocols(admin, List.copyOf(consumerGroups));
        if (!groupProtocols.isEmpty()) {
            environment.put("consumerGroupProtocols", groupProtocols);
        }
        TransactionSettings tx = config.transactions();
        Map<String, Object> transactions = new LinkedHashMap<>();
        transactions.put("transactionalIdPrefix", tx.transactionalIdPrefix());
        transactions.put("maxRetries", tx.maxRetries());
        transactions.put("commitIntervalMs", tx.commitIntervalMs());
        transactions.put("maxMessagesPerTransaction", tx.messagesPerTransaction());
        transactions.put("maxBytesPerTransaction", tx.maxBytesPerTransaction());
        transactions.put("closeTimeoutMs", tx.closeTimeoutMs());
        OperationSpec spec = operationSpec();
        if (OperationSpec.hasAckOrder(spec.kind(), spec.transactional())) {
            // The order in force and where it came from: the workload's, or stock OMB's resolveBeforeCommit.
            transactions.put("awaitAcks", ackWait(spec).order().key());
            transactions.put(
                    "awaitAcksFrom", spec.awaitAcks() != null ? "workload" : "transactions.resolveBeforeCommit");
        }
        if (spec.cutsTransactions()) {
            transactions.put("cutBy", "workload");
            transactions.put("commitIntervalMs", spec.commitIntervalMs());
            transactions.put(
                    "maxMessagesPerTransaction",
                    spec.messagesPerTransaction() > 0 ? spec.messagesPerTransaction() : null);
        }
        environment.put("transactions", transactions);
        if (producerMemory != null) {
            environment.put("producerMemory", producerMemory);
        }
        return environment;
    }

    /** kafka-clients' default {@code buffer.memory}. */
    static final long DEFAULT_BUFFER_MEMORY = 32L << 20;
    /** kafka-clients' default {@code batch.size}. */
    static final long DEFAULT_BATCH_SIZE = 16L << 10;
    /** The smallest buffer this driver gives a producer to fit the heap: four default batches and their headroom. */
    static final long MIN_BUFFER_MEMORY = 256L << 10;

    /**
     * Fits {@code producers} producers in {@code bytes}: each reserves its {@code buffer.memory} (plus what a
     * transactional one queues before a commit, at most a quarter of it, see {@link KafkaTxProducer}). When they do not
     * fit as configured, every producer created from now on gets {@code bytes / producers}, and a batch of at most an
     * eighth of that; below {@link #MIN_BUFFER_MEMORY} each, they cannot fit.
     */
    @Override
    public String fitProducers(int producers, long bytes) {
        if (producers <= 0) {
            return null;
        }
        java.util.Properties yaml = config.producerProperties();
        long buffer = sizeSetting(yaml, "buffer.memory", DEFAULT_BUFFER_MEMORY);
        long batch = sizeSetting(yaml, "batch.size", DEFAULT_BATCH_SIZE);
        long perProducer = bytes / producers;
        long need = buffer + buffer / 4;
        if (need <= perProducer) {
            clients.overrideProducers(Map.of());
            return null;
        }
        long fitted = perProducer * 4 / 5 / 1024 * 1024; // the buffer and its quarter of queue within the share
        if (fitted < MIN_BUFFER_MEMORY) {
            throw new IllegalArgumentException(String.format(
                    "%d producers need at least %d MB of this JVM's heap for their buffers (%d KiB each at the"
                            + " smallest), but %d MB is theirs (half the heap): give the worker more heap"
                            + " (OMBTX_JAVA_OPTS=-Xmx…) or spread the producers over more workers",
                    producers,
                    producers * (MIN_BUFFER_MEMORY + MIN_BUFFER_MEMORY / 4) >> 20,
                    MIN_BUFFER_MEMORY >> 10,
                    bytes >> 20));
        }
        long fittedBatch = Math.min(batch, fitted / 8);
        clients.overrideProducers(
                Map.of("buffer.memory", Long.toString(fitted), "batch.size", Long.toString(fittedBatch)));
        producerMemory = new LinkedHashMap<>();
        producerMemory.put("producers", producers);
        producerMemory.put("heapShareBytes", bytes);
        producerMemory.put("bufferMemory", fitted);
        producerMemory.put("bufferMemoryConfigured", buffer);
        producerMemory.put("batchSize", fittedBatch);
        producerMemory.put("batchSizeConfigured", batch);
        return String.format(
                "%d producers × buffer.memory %d MiB would not fit the %d MiB of heap they may take: each gets"
                        + " buffer.memory %d KiB and batch.size %d KiB instead (recorded in the result)",
                producers, buffer >> 20, bytes >> 20, fitted >> 10, fittedBatch >> 10);
    }

    private static long sizeSetting(java.util.Properties props, String key, long fallback) {
        String value = props.getProperty(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return fallback; // kafka-clients refuses it when the producer is made, naming the key
        }
    }

    /** The consumer group whose offsets SEND_OFFSETS (and WRITE with sendOffsets) transactions commit. */
    public String sendOffsetsGroupId() {
        return config.transactions().transactionalIdPrefix() + "-" + runId + "-offsets";
    }

    private int partitionCount(String topic) {
        return await(
                () -> describeWhenVisible(topic, d -> true, "topic " + topic + " is not visible")
                        .partitions()
                        .size(),
                "describe topic " + topic);
    }

    private void track(AutoCloseable client) {
        synchronized (openClients) {
            openClients.add(client);
        }
    }

    @Override
    public void close() throws Exception {
        // A zombie still held (its fault was never recovered) goes on, so its loop can end.
        clientFaults.values().forEach(injected -> injected.fault().resume());
        List<AutoCloseable> clientsToClose;
        synchronized (openClients) {
            clientsToClose = new ArrayList<>(openClients);
            openClients.clear();
        }
        for (StreamProcessor processor : retired) {
            TransactionFlow abandoned = processor.abandoned();
            if (abandoned != null) {
                abandoned.forceClose(); // a killed instance's producer, fenced by now
            }
        }
        for (AutoCloseable client : clientsToClose) {
            try {
                client.close(); // idempotent: OMB has usually closed them already
            } catch (Exception e) {
                LOG.warn("closing {} failed: {}", client, ErrorClassifier.describe(e));
            }
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(10));
        }
        setup.shutdownNow();
    }

    private interface Blocking<T> {
        T call() throws Exception;
    }

    /** Runs a blocking admin call, turning its checked failure into a CompletionException that names the action. */
    private static <T> T await(Blocking<T> call, String what) {
        try {
            return call.call();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException(new IllegalStateException("interrupted: " + what, e));
        } catch (Exception e) {
            throw new CompletionException(new IllegalStateException(
                    "could not " + what + ": " + ErrorClassifier.describe(e), ErrorClassifier.unwrap(e)));
        }
    }
}

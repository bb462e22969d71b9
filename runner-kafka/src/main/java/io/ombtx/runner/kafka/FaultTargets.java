package io.ombtx.runner.kafka;

import io.ombtx.runner.config.Fault;
import io.ombtx.runner.fault.BrokerControl;
import io.ombtx.runner.fault.FaultCluster;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * Finds the broker a fault's target names, when the fault is injected, through the Admin API:
 * <ul>
 *   <li>partition-leader: the leader of the given partition of the run's first topic ({@code describeTopics});</li>
 *   <li>transaction-coordinator: the coordinator of the first (by name) of the run's transactional ids
 *       ({@code describeTransactions}). A STREAM run's ids are those the Kafka driver names after the consumer group,
 *       {@code <prefix>-<runId>-stream-<group>-<n>}; any other run's are those whose producers wrote to its first
 *       topic ({@code describeProducers}, then {@code listTransactions} filtered by producer id). Kafka before 3.0
 *       answers none of these three (KIP-664); there the ids are read from the transaction log itself, see
 *       {@link TransactionLog};</li>
 *   <li>group-coordinator: the coordinator of the run's first consumer group ({@code describeConsumerGroups});</li>
 *   <li>a broker index: the brokers as they were when the measurement started, sorted by node id.</li>
 * </ul>
 */
public final class FaultTargets implements FaultCluster {

    private static final long TIMEOUT_SECONDS = 30;
    private static final java.time.Duration SERVING_TIMEOUT = java.time.Duration.ofSeconds(120);

    private final Admin admin;
    private final RunNames names;
    /** The admin client's settings, for a consumer of the transaction log (Kafka before 3.0). */
    private final java.util.Properties clientSettings;

    FaultTargets(Admin admin, java.util.Properties clientSettings, RunNames names) {
        this.admin = admin;
        this.clientSettings = clientSettings;
        this.names = names;
    }

    /** The live brokers now, sorted by node id. */
    @Override
    public List<BrokerControl.Broker> brokers() throws Exception {
        Collection<Node> nodes = admin.describeCluster().nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        List<BrokerControl.Broker> brokers = new ArrayList<>();
        nodes.stream()
                .sorted(java.util.Comparator.comparingInt(Node::id))
                .forEach(n -> brokers.add(new BrokerControl.Broker(n.id(), n.host(), n.port())));
        return brokers;
    }

    @Override
    public Resolved resolve(Fault fault, List<BrokerControl.Broker> brokersAtStart) throws Exception {
        return switch (fault.target()) {
            case BROKER -> {
                if (fault.brokerIndex() >= brokersAtStart.size()) {
                    throw new IllegalStateException("broker index " + fault.brokerIndex() + " but the cluster had "
                            + brokersAtStart.size() + " broker(s) when the measurement started");
                }
                yield new Resolved(brokersAtStart.get(fault.brokerIndex()).nodeId(), null);
            }
            case PARTITION_LEADER -> partitionLeader(fault.partition());
            case TRANSACTION_COORDINATOR -> transactionCoordinator();
            case GROUP_COORDINATOR -> groupCoordinator();
            case STREAM_PROCESSOR, TRANSACTIONAL_PRODUCER ->
                throw new IllegalArgumentException(fault.key() + " targets a client, not a broker");
        };
    }

    /** Waits until the broker answers a request addressed to it: it is back (a KRaft broker only once unfenced). */
    @Override
    public void awaitServing(int nodeId) throws Exception {
        org.apache.kafka.common.config.ConfigResource resource = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.BROKER, Integer.toString(nodeId));
        long deadline = System.nanoTime() + SERVING_TIMEOUT.toNanos();
        while (true) {
            try {
                admin.describeConfigs(Set.of(resource)).all().get(5, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | java.util.concurrent.TimeoutException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("broker " + nodeId + " did not answer within "
                            + SERVING_TIMEOUT.toSeconds() + " s of its recovery");
                }
                Thread.sleep(100);
            }
        }
    }

    @Override
    public void close() {
        admin.close(java.time.Duration.ofSeconds(5));
    }

    private Resolved partitionLeader(int partition) throws Exception {
        return leaderOf(first(names.topics(), "topic"), partition);
    }

    /** The leader of {@code topic}'s {@code partition} now. */
    private Resolved leaderOf(String topic, int partition) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .get(topic);
        TopicPartitionInfo info = description.partitions().stream()
                .filter(p -> p.partition() == partition)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(topic + " has no partition " + partition));
        Node leader = info.leader();
        if (leader == null || leader.isEmpty()) {
            throw new IllegalStateException("partition " + partition + " of " + topic + " has no leader now");
        }
        return new Resolved(leader.id(), "leader of " + topic + "-" + partition);
    }

    private Resolved transactionCoordinator() throws Exception {
        Set<String> ids;
        try {
            ids = transactionalIds();
        } catch (UnsupportedVersionException beforeKafka30) {
            Map.Entry<String, Integer> first = TransactionLog.firstRunId(clientSettings, names);
            Resolved leader = leaderOf(TransactionLog.TOPIC, first.getValue());
            return new Resolved(
                    leader.nodeId(), "coordinator of transactional id " + first.getKey() + " (" + leader.via() + ")");
        }
        if (ids.isEmpty()) {
            throw new IllegalStateException(
                    "no transactional id of this run is known to the cluster yet" + " (listTransactions)");
        }
        String id = ids.iterator().next();
        int coordinator = admin.describeTransactions(List.of(id))
                .description(id)
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .coordinatorId();
        return new Resolved(coordinator, "coordinator of transactional id " + id);
    }

    /** The run's transactional ids, sorted. */
    private Set<String> transactionalIds() throws Exception {
        Set<String> ids = new TreeSet<>();
        if (names.streaming()) {
            String marker = "-stream-" + first(names.groups(), "consumer group") + "-";
            for (TransactionListing listing : listTransactions(new ListTransactionsOptions())) {
                if (listing.transactionalId().contains(marker)) {
                    ids.add(listing.transactionalId());
                }
            }
            return ids;
        }
        String topic = first(names.topics(), "topic");
        List<TopicPartition> partitions = admin
                .describeTopics(List.of(topic))
                .allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .get(topic)
                .partitions()
                .stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        Set<Long> producerIds = new TreeSet<>();
        try {
            admin.describeProducers(partitions)
                    .all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .values()
                    .forEach(state -> state.activeProducers().stream()
                            .map(ProducerState::producerId)
                            .forEach(producerIds::add));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnsupportedVersionException u) {
                throw u;
            }
            throw e;
        }
        if (producerIds.isEmpty()) {
            return ids;
        }
        for (TransactionListing listing :
                listTransactions(new ListTransactionsOptions().filterProducerIds(producerIds))) {
            ids.add(listing.transactionalId());
        }
        return ids;
    }

    /**
     * Every broker's listing; a broker that does not answer (it may be the one down) is left out.
     *
     * @throws UnsupportedVersionException when no broker answered and some said they do not know the request (Kafka
     *     before 3.0)
     */
    private List<TransactionListing> listTransactions(ListTransactionsOptions options) throws Exception {
        Map<Integer, org.apache.kafka.common.KafkaFuture<Collection<TransactionListing>>> byBroker =
                admin.listTransactions(options).byBrokerId().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        List<TransactionListing> all = new ArrayList<>();
        UnsupportedVersionException unsupported = null;
        boolean answered = false;
        for (var future : byBroker.values()) {
            try {
                all.addAll(future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
                answered = true;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnsupportedVersionException u) {
                    unsupported = u;
                }
                // Else its coordinators' transactions have moved, or will: the others answer for them.
            } catch (java.util.concurrent.TimeoutException unanswered) {
                // As above.
            }
        }
        if (!answered && unsupported != null) {
            throw unsupported;
        }
        return all;
    }

    private Resolved groupCoordinator() throws Exception {
        String group = first(names.groups(), "consumer group");
        Node coordinator = admin.describeConsumerGroups(List.of(group))
                .describedGroups()
                .get(group)
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .coordinator();
        if (coordinator == null || coordinator.isEmpty()) {
            throw new IllegalStateException("consumer group " + group + " has no coordinator now");
        }
        return new Resolved(coordinator.id(), "coordinator of consumer group " + group);
    }

    private static String first(List<String> items, String what) {
        if (items.isEmpty()) {
            throw new IllegalStateException("the run has no " + what);
        }
        return items.get(0);
    }
}

package io.ombtx.runner.kafka;

import io.ombtx.runner.cluster.CoordinatorLog;
import io.ombtx.runner.result.RunResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Kafka's transaction coordinators' load, read from their log ({@value TransactionLog#TOPIC}): its end offsets as a
 * mark, and between two marks every record that begins a transaction's end (status PrepareCommit or PrepareAbort,
 * written when the coordinator takes its EndTxn, before it answers) within the window asked for, counted by log
 * partition, by the broker leading it, and by transactional id. Each transaction the coordinator ends has exactly one
 * such record, in the partition its id hashes to, whichever transaction version wrote it, stamped with when it was
 * written: the commit's own moment, where the CompleteCommit that follows the markers can lag it by seconds on a busy
 * cluster.
 */
final class TransactionCoordinators implements CoordinatorLog {

    private static final int TIMEOUT_SECONDS = 30;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(TIMEOUT_SECONDS);

    private final Properties settings;
    private final Admin admin;

    /** @param clientSettings the driver's common client settings: the cluster's address and its security */
    TransactionCoordinators(Properties clientSettings) {
        this.settings = new Properties();
        settings.putAll(clientSettings);
        this.admin = Admin.create(settings);
    }

    @Override
    public Mark mark() throws Exception {
        TopicDescription log = describe();
        if (log == null) {
            return new Mark(Map.of());
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicPartitionInfo p : log.partitions()) {
            latest.put(new TopicPartition(TransactionLog.TOPIC, p.partition()), OffsetSpec.latest());
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                admin.listOffsets(latest).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<Integer, Long> offsets = new TreeMap<>();
        ends.forEach((tp, info) -> offsets.put(tp.partition(), info.offset()));
        return new Mark(offsets);
    }

    @Override
    public RunResult.Coordinators between(Mark from, Mark to, Instant since, Instant until) throws Exception {
        TopicDescription log = describe();
        if (log == null) {
            return tally(0, Map.of(), Map.of());
        }
        Map<Integer, Integer> leaders = new TreeMap<>();
        for (TopicPartitionInfo p : log.partitions()) {
            Node leader = p.leader();
            leaders.put(p.partition(), leader == null || leader.isEmpty() ? -1 : leader.id());
        }
        Map<TopicPartition, Long> end = new HashMap<>();
        for (int partition : leaders.keySet()) {
            if (to.endOf(partition) > from.endOf(partition)) {
                end.put(new TopicPartition(TransactionLog.TOPIC, partition), to.endOf(partition));
            }
        }
        Map<Integer, Ended> ended = new TreeMap<>();
        if (!end.isEmpty()) {
            try (KafkaConsumer<byte[], byte[]> consumer = TransactionLog.reader(settings)) {
                consumer.assign(end.keySet());
                end.keySet().forEach(tp -> consumer.seek(tp, from.endOf(tp.partition())));
                long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
                while (!TransactionLog.readTo(consumer, end)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("reading " + TransactionLog.TOPIC + " over the measured phase"
                                + " took over " + TIMEOUT_SECONDS + " s");
                    }
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                            count(ended, r, since.toEpochMilli(), until.toEpochMilli());
                        }
                    }
                }
            }
        }
        return tally(log.partitions().size(), leaders, ended);
    }

    /**
     * One record of the log: a transaction ended when the coordinator prepares its commit or abort; counted when that
     * was in [{@code fromMillis}, {@code untilMillis}).
     */
    private static void count(
            Map<Integer, Ended> ended, ConsumerRecord<byte[], byte[]> r, long fromMillis, long untilMillis) {
        int status = TransactionLog.status(r.value());
        if (status != TransactionLog.PREPARE_COMMIT && status != TransactionLog.PREPARE_ABORT) {
            return;
        }
        long at = TransactionLog.updateMillis(r.value());
        if (at < fromMillis || at >= untilMillis) {
            return;
        }
        Ended p = ended.computeIfAbsent(r.partition(), k -> new Ended());
        if (status == TransactionLog.PREPARE_COMMIT) {
            p.committed++;
        } else {
            p.aborted++;
        }
        String id = TransactionLog.transactionalId(r.key());
        if (id != null) {
            p.ids.add(id);
        }
    }

    /** The coordinators' load from what ended in each partition and who leads it. */
    static RunResult.Coordinators tally(int partitions, Map<Integer, Integer> leaders, Map<Integer, Ended> ended) {
        List<RunResult.Coordinators.PartitionLoad> byPartition = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        long committed = 0;
        long aborted = 0;
        long busiest = 0;
        for (Map.Entry<Integer, Ended> e : new TreeMap<>(ended).entrySet()) {
            Ended p = e.getValue();
            byPartition.add(new RunResult.Coordinators.PartitionLoad(
                    e.getKey(), leaders.getOrDefault(e.getKey(), -1), p.committed, p.aborted, p.ids.size()));
            ids.addAll(p.ids);
            committed += p.committed;
            aborted += p.aborted;
            busiest = Math.max(busiest, p.committed + p.aborted);
        }
        Map<Integer, long[]> brokers = new TreeMap<>(); // broker → partitions led, committed, aborted
        leaders.forEach((partition, broker) -> {
            if (broker >= 0) {
                long[] b = brokers.computeIfAbsent(broker, k -> new long[3]);
                b[0]++;
                Ended p = ended.get(partition);
                if (p != null) {
                    b[1] += p.committed;
                    b[2] += p.aborted;
                }
            }
        });
        List<RunResult.Coordinators.BrokerLoad> byBroker = new ArrayList<>();
        brokers.forEach(
                (broker, b) -> byBroker.add(new RunResult.Coordinators.BrokerLoad(broker, (int) b[0], b[1], b[2])));
        long all = committed + aborted;
        return new RunResult.Coordinators(
                TransactionLog.TOPIC,
                partitions,
                committed,
                aborted,
                ids.size(),
                byPartition.size(),
                all == 0 ? 0 : (double) busiest / all,
                List.copyOf(byPartition),
                List.copyOf(byBroker));
    }

    /** What ended in one log partition. */
    static final class Ended {
        long committed;
        long aborted;
        final Set<String> ids = new HashSet<>();
    }

    /** The log's partitions and their leaders, or null while the cluster has no log (no transaction began yet). */
    private TopicDescription describe() throws Exception {
        try {
            return admin.describeTopics(List.of(TransactionLog.TOPIC))
                    .allTopicNames()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(TransactionLog.TOPIC);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return null;
            }
            throw e;
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}

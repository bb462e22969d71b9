package io.ombtx.runner.kafka;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.runner.cluster.AccessNeed;
import io.ombtx.runner.cluster.AccessUse;
import io.ombtx.runner.config.DriverFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The ACLs a run's clients need on a secured Kafka cluster, by the names the drivers give what they make: topics
 * {@code omb-tx-<run id>-<n>} (and a STREAM's targets after them), subscriptions' consumer groups
 * {@code sub-<n>-<run id>}, transactional ids and the offsets group of a WRITE or SEND_OFFSETS
 * {@code <transactionalIdPrefix>-<run id>-…}. Each is granted on its prefix, so one set serves every run of the
 * workload. Also: the {@code kafka-acls.sh} lines that grant them, the {@link AclBinding}s a secured embedded cluster
 * creates, the probe that asks the cluster for them as the benchmark's principal before the load, and the sentence an
 * authorization error becomes.
 */
final class AccessList {

    /** The drivers' topic names start with their {@code getTopicNamePrefix()}, "omb-tx", and a dash. */
    static final String TOPIC_PREFIX = "omb-tx-";

    /** The runner names a subscription (a consumer group) {@code sub-<index>-<run id>}. */
    static final String SUBSCRIPTION_PREFIX = "sub-";

    /** driver-kafka-tx's default {@code transactions.transactionalIdPrefix}. */
    static final String DEFAULT_TRANSACTIONAL_ID_PREFIX = "omb-tx";

    /** The first release that lets a producer with WRITE on a topic or transactional id be idempotent (KIP-679). */
    private static final String FIRST_IDEMPOTENT_WITHOUT_CLUSTER_ACL = "2.8.0";

    private AccessList() {}

    static List<AccessNeed> needs(DriverFile driver, AccessUse use, String principal) {
        String transactionalIds =
                driver.nestedText("transactions", "transactionalIdPrefix").orElse(DEFAULT_TRANSACTIONAL_ID_PREFIX)
                        + "-";
        boolean stream = use.kind() == OperationKind.STREAM;
        List<AccessNeed> needs = new ArrayList<>();
        List<String> topicOps = new ArrayList<>(List.of("CREATE", "DESCRIBE"));
        if (use.produces() || stream) {
            topicOps.add("WRITE");
        }
        if (use.consumes()) {
            topicOps.add("READ");
        }
        needs.add(new AccessNeed(
                principal,
                "TOPIC",
                TOPIC_PREFIX,
                true,
                topicOps,
                "the run's topics" + (stream ? " and the stream's output topics" : "")));
        if (use.consumes()) {
            needs.add(new AccessNeed(
                    principal,
                    "GROUP",
                    SUBSCRIPTION_PREFIX,
                    true,
                    List.of("READ"),
                    "the subscriptions' consumer groups" + (stream ? " (the stream processors' offsets)" : "")));
        }
        if (use.transactional()) {
            needs.add(new AccessNeed(
                    principal,
                    "TRANSACTIONAL_ID",
                    transactionalIds,
                    true,
                    List.of("WRITE", "DESCRIBE"),
                    "the producers' transactional ids"));
        }
        if (use.sendOffsets() && !stream) {
            needs.add(new AccessNeed(
                    principal,
                    "GROUP",
                    transactionalIds,
                    true,
                    List.of("READ"),
                    "the group whose offsets the transactions commit"));
        }
        if (use.release() != null
                && (use.produces() || stream)
                && io.ombtx.broker.KafkaVersion.parse(use.release())
                                .compareTo(io.ombtx.broker.KafkaVersion.parse(FIRST_IDEMPOTENT_WITHOUT_CLUSTER_ACL))
                        < 0) {
            needs.add(new AccessNeed(
                    principal,
                    "CLUSTER",
                    "kafka-cluster",
                    false,
                    List.of("IDEMPOTENT_WRITE"),
                    "idempotent producers, before Kafka 2.8 (KIP-679)"));
        }
        return needs;
    }

    /** The {@code kafka-acls.sh} command granting {@code need}. */
    static String line(AccessNeed need, String bootstrapServers) {
        StringBuilder line = new StringBuilder("kafka-acls.sh --bootstrap-server ")
                .append(bootstrapServers)
                .append(" --command-config admin.properties --add --allow-principal ")
                .append(need.principal());
        for (String operation : need.operations()) {
            line.append(" --operation ").append(operationText(operation));
        }
        switch (need.resourceType()) {
            case "CLUSTER" -> line.append(" --cluster");
            case "TRANSACTIONAL_ID" -> line.append(" --transactional-id ").append(need.name());
            default ->
                line.append(" --")
                        .append(need.resourceType().toLowerCase(Locale.ROOT))
                        .append(' ')
                        .append(need.name());
        }
        if (need.prefixed()) {
            line.append(" --resource-pattern-type prefixed");
        }
        return line.append("   # ").append(need.why()).toString();
    }

    /** WRITE → Write, IDEMPOTENT_WRITE → IdempotentWrite, as kafka-acls.sh spells them. */
    private static String operationText(String operation) {
        StringBuilder text = new StringBuilder();
        for (String part : operation.split("_")) {
            text.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        }
        return text.toString();
    }

    /** {@code needs} as ACL bindings, one per operation, each allowing the principal from any host. */
    static List<AclBinding> bindings(List<AccessNeed> needs) {
        List<AclBinding> bindings = new ArrayList<>();
        for (AccessNeed need : needs) {
            ResourcePattern pattern = new ResourcePattern(
                    ResourceType.valueOf(need.resourceType()),
                    need.name(),
                    need.prefixed() ? PatternType.PREFIXED : PatternType.LITERAL);
            for (String operation : need.operations()) {
                bindings.add(new AclBinding(
                        pattern,
                        new AccessControlEntry(
                                need.principal(), "*", AclOperation.valueOf(operation), AclPermissionType.ALLOW)));
            }
        }
        return bindings;
    }

    /**
     * Asks the cluster as {@code client} (the benchmark's settings) for each need a request can ask without making
     * anything: a topic's CREATE (CreateTopics, validate only), a group's (OffsetFetch) and a transactional id's
     * (InitProducerId). A refusal is returned as one sentence; what cannot be asked ahead (a topic's WRITE and READ)
     * is named by {@link #refusal} if set-up meets it.
     */
    static Optional<String> probe(List<AccessNeed> needs, Properties client, int timeoutSeconds)
            throws InterruptedException {
        String probeName = "access-probe-" + UUID.randomUUID();
        Properties adminProps = new Properties();
        adminProps.putAll(client);
        // The request time-out within the API's, as kafka-clients requires.
        adminProps.setProperty(
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(timeoutSeconds * 1000 / 2));
        adminProps.setProperty(
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(timeoutSeconds * 1000));
        try (Admin admin = Admin.create(adminProps)) {
            for (AccessNeed need : needs) {
                String name = need.prefixed() ? need.name() + probeName : need.name();
                try {
                    switch (need.resourceType()) {
                        case "TOPIC" -> {
                            if (need.operations().contains("CREATE")) {
                                admin.createTopics(
                                                List.of(new NewTopic(name, 1, (short) 1)),
                                                new CreateTopicsOptions().validateOnly(true))
                                        .all()
                                        .get(timeoutSeconds, TimeUnit.SECONDS);
                            }
                        }
                        case "GROUP" ->
                            admin.listConsumerGroupOffsets(name)
                                    .partitionsToOffsetAndMetadata()
                                    .get(timeoutSeconds, TimeUnit.SECONDS);
                        case "TRANSACTIONAL_ID" -> initTransactions(client, name, timeoutSeconds);
                        default -> {
                            // CLUSTER IDEMPOTENT_WRITE: asked by the first idempotent producer, named if refused.
                        }
                    }
                } catch (ExecutionException | KafkaException e) {
                    Optional<String> refused = refusal(e, needs);
                    if (refused.isPresent()) {
                        return refused;
                    }
                    // Anything else (a topic that exists, a time-out) is not this probe's to judge: set-up will say.
                } catch (TimeoutException e) {
                    // Not answered in time: set-up meets the same cluster and says what it finds.
                }
            }
        }
        return Optional.empty();
    }

    private static void initTransactions(Properties client, String transactionalId, int timeoutSeconds) {
        Properties props = new Properties();
        props.putAll(client);
        props.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.setProperty(ProducerConfig.MAX_BLOCK_MS_CONFIG, Integer.toString(timeoutSeconds * 1000));
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
        }
    }

    /**
     * The authorization error in {@code failure}'s causes (or, from a remote worker, named in its message) as one
     * sentence: the principal, the operation and resource refused, and the ACL the run needs there.
     */
    static Optional<String> refusal(Throwable failure, List<AccessNeed> needs) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = t.getMessage() == null ? "" : t.getMessage();
            if (t instanceof TransactionalIdAuthorizationException
                    || message.contains(TransactionalIdAuthorizationException.class.getSimpleName())) {
                return Optional.of(sentence(needs, "TRANSACTIONAL_ID", null, t));
            }
            if (t instanceof TopicAuthorizationException topics) {
                return Optional.of(sentence(needs, "TOPIC", String.join(", ", topics.unauthorizedTopics()), t));
            }
            if (message.contains(TopicAuthorizationException.class.getSimpleName())) {
                return Optional.of(sentence(needs, "TOPIC", null, t));
            }
            if (t instanceof GroupAuthorizationException group) {
                return Optional.of(sentence(needs, "GROUP", group.groupId(), t));
            }
            if (message.contains(GroupAuthorizationException.class.getSimpleName())) {
                return Optional.of(sentence(needs, "GROUP", null, t));
            }
            if (t instanceof ClusterAuthorizationException
                    || message.contains(ClusterAuthorizationException.class.getSimpleName())) {
                return Optional.of(sentence(needs, "CLUSTER", null, t));
            }
        }
        return Optional.empty();
    }

    private static final Map<String, String> RESOURCE_TEXT = Map.of(
            "TRANSACTIONAL_ID", "TransactionalId",
            "TOPIC", "Topic",
            "GROUP", "Group",
            "CLUSTER", "Cluster");

    private static final Set<String> KNOWN = RESOURCE_TEXT.keySet();

    private static final Map<String, String> RESOURCE_ERROR = Map.of(
            "TRANSACTIONAL_ID", TransactionalIdAuthorizationException.class.getSimpleName(),
            "TOPIC", TopicAuthorizationException.class.getSimpleName(),
            "GROUP", GroupAuthorizationException.class.getSimpleName(),
            "CLUSTER", ClusterAuthorizationException.class.getSimpleName());

    private static String sentence(List<AccessNeed> needs, String resourceType, String named, Throwable error) {
        String errorName = error.getClass().getName().startsWith("org.apache.kafka")
                ? error.getClass().getSimpleName()
                : RESOURCE_ERROR.get(resourceType);
        String principal =
                needs.isEmpty() ? "the benchmark's principal" : needs.get(0).principal();
        List<AccessNeed> there = needs.stream()
                .filter(n -> n.resourceType().equals(resourceType))
                .filter(n -> named == null || !n.prefixed() || named.startsWith(n.name()) || named.contains(","))
                .toList();
        String resource = RESOURCE_TEXT.get(KNOWN.contains(resourceType) ? resourceType : "CLUSTER");
        String what = named != null && !named.isBlank()
                ? resource + " " + named
                : there.isEmpty()
                        ? resource
                        : resource + " " + there.get(0).name() + (there.get(0).prefixed() ? "*" : "");
        String operations =
                there.isEmpty() ? "an operation" : String.join("/", there.get(0).operations());
        return principal + " may not " + operations + " " + what + ": the cluster refused it ("
                + errorName + ") before the load"
                + (there.isEmpty()
                        ? ""
                        : "; grant " + there.get(0).describe() + " to " + principal + " (the dry run prints the"
                                + " kafka-acls.sh line)");
    }
}

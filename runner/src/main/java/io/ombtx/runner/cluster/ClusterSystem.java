package io.ombtx.runner.cluster;

import io.ombtx.runner.config.BrokerSecurity;
import io.ombtx.runner.config.BrokerSetup;
import io.ombtx.runner.config.DriverFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the runner needs of a broker system, and all it knows of one: start the cluster a plan asks for (or reach the
 * one the driver names), read its facts, and find and act on the brokers a fault names, through a
 * {@link ClusterSession}. One implementation per system, in a module of its own (Kafka-API brokers: runner-kafka's
 * {@code io.ombtx.runner.kafka.KafkaClusters}); a plan without a broker ({@link BrokerPlan#none()}, driver-aeron) never
 * asks for one.
 */
public interface ClusterSystem {

    /**
     * Starts the embedded cluster {@code plan} asks for, or reaches the external one {@code driver} names, and returns
     * the session the run uses it through; closing it stops an embedded cluster.
     *
     * @param log one line at a time, for the console
     * @throws ClusterUnreachable an external cluster that does not answer (exit 1)
     */
    ClusterSession open(BrokerPlan plan, DriverFile driver, Consumer<String> log) throws Exception;

    /** The most brokers an embedded cluster starts (what {@code brokers:} and a broker index are checked against). */
    int MAX_EMBEDDED_BROKERS = BrokerSetup.MAX_EMBEDDED_BROKERS;

    /** The highest {@code transactionVersion} a workload may ask the embedded cluster for (KIP-890's). */
    int MAX_TRANSACTION_VERSION = BrokerSetup.MAX_TRANSACTION_VERSION;

    /**
     * The embedded broker release {@code text} names ({@code brokerVersion:}, {@code --broker-version}), normalized.
     *
     * @throws IllegalArgumentException what is wrong with it (not a release, or one not supported)
     */
    String release(String text);

    /** What is wrong with starting {@code release} (null: the default) at {@code transactionVersion}, or null. */
    String transactionVersionProblem(String release, int transactionVersion);

    /**
     * The check of embedded broker settings on {@code release} (null: the default): a setting's problem, or empty;
     * empty when the release's definitions cannot be had (starting it will say why).
     */
    Optional<SettingsCheck> settingsCheck(String release);

    /** One embedded broker setting's problem, with a did-you-mean for an unknown key; empty when it is fine. */
    interface SettingsCheck {
        Optional<String> problem(String key, String value);
    }

    /** The embedded release as the dry run shows it: "4.1.1 (KRaft, default)", and whether it is fetched first. */
    String describeRelease(BrokerPlan plan);

    /**
     * The client release {@code text} names ({@code clientVersion:}, {@code --client-version}), normalized.
     *
     * @throws IllegalArgumentException what is wrong with it (not a release, or one not supported)
     */
    String clientRelease(String text);

    /** Whether {@code release} is the client this JVM runs (then the run needs no worker JVM of its own). */
    boolean builtInClient(String release);

    /**
     * The class path of a worker JVM whose drivers run on client {@code release}: {@code classPath} (this JVM's) with
     * the built-in client replaced by that release's, fetched first when it is not cached.
     */
    List<Path> clientClassPath(String release, String classPath) throws Exception;

    /**
     * A client setting of {@code driver} that {@code release} does not know (key and message), or empty; empty also
     * when the release's definitions cannot be had (starting its worker will say why).
     */
    Optional<SettingProblem> clientSettingsProblem(String release, DriverFile driver);

    /**
     * A client setting of {@code driver} a transactional run cannot work with, or empty: for Kafka, {@code acks}
     * other than all, {@code enable.idempotence=false}, or (on an embedded cluster, whose settings {@code plan}
     * holds) a {@code transaction.timeout.ms} above the brokers' {@code transaction.max.timeout.ms}. The key is
     * {@code block.key}.
     */
    Optional<SettingProblem> transactionalClientProblem(DriverFile driver, BrokerPlan plan);

    /**
     * The check of topic settings (a Kafka driver's {@code topicConfig}) on the embedded {@code release} (null: the
     * default), by its own topic config definitions; empty when they cannot be had.
     */
    Optional<SettingsCheck> topicSettingsCheck(String release);

    /**
     * What is wrong with the address list naming an external cluster (Kafka's {@code bootstrap.servers}), or empty;
     * a check of its form only: nothing is looked up or reached while planning.
     */
    Optional<String> serversProblem(String servers);

    /**
     * What is wrong with the consumer group protocol {@code protocol} (a driver's {@code group.protocol}) on the
     * embedded broker {@code release} (null: the default), or null when that broker serves it.
     */
    String groupProtocolProblem(String release, String protocol);

    /** A setting's problem: the key as the user wrote it (with its block) and what is wrong. */
    record SettingProblem(String key, String message) {}

    /**
     * Why the embedded cluster of {@code release} (null: the default) cannot run with {@code security}, or null.
     * A system without secured embedded clusters refuses every mode but {@link BrokerSecurity#NONE}.
     */
    default String securityProblem(String release, BrokerSecurity security) {
        return security == BrokerSecurity.NONE ? null : "this broker system starts no secured embedded cluster";
    }

    /**
     * The ACLs {@code principal} needs to run {@code use} with {@code driver} (its transactional id prefix, its topics'
     * and groups' names), in the order the dry run prints them; empty when the system has no ACLs.
     */
    default List<AccessNeed> accessNeeds(DriverFile driver, AccessUse use, String principal) {
        return List.of();
    }

    /** The benchmark's principal on a secured embedded cluster of this system ({@code User:omb-tx-bench}). */
    default String benchmarkPrincipal() {
        return "User:benchmark";
    }

    /** {@code needs} as the commands that grant them, one a line, for the dry run. */
    default List<String> accessLines(List<AccessNeed> needs, String bootstrapServers) {
        return needs.stream().map(AccessNeed::describe).toList();
    }
}

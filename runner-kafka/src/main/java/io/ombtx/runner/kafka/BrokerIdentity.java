package io.ombtx.runner.kafka;

import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.result.RunResult.Broker.SystemKind;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Which broker system a cluster is, told from what it answers on the wire and never from a driver's name. Three
 * probes, each recorded as evidence: DescribeCluster (the cluster id, the nodes), ApiVersions (sent on a connection
 * of its own to one broker, plaintext only: the API keys and version ranges it serves), and DescribeConfigs of that
 * broker (the names of its settings). Then the first rule that matches names the system:
 *
 * <ol>
 *   <li><b>redpanda</b>: the cluster id has the form {@code redpanda.<uuid>}, which Redpanda (22.1 on) gives a
 *       cluster whose {@code cluster_id} is not set (redpanda-data/redpanda pull request 4457);
 *   <li><b>tansu</b>: ApiVersions is Tansu 0.6.0's, key for key and range for range ({@link #TANSU_0_6_0}, read from
 *       the real binary), or the cluster id is {@code tansu_cluster}, Tansu's default ({@code tansu --help});
 *   <li><b>kafka</b>: the broker's settings include {@code process.roles} (KRaft) or {@code zookeeper.connect}
 *       (ZooKeeper mode), Apache Kafka's own broker settings;
 *   <li>else <b>unknown</b>, with the evidence.
 * </ol>
 */
public final class BrokerIdentity {

    /** Tansu 0.6.0's ApiVersions answer: API key and MIN-MAX, as the release's binary answers it. */
    static final Map<Integer, String> TANSU_0_6_0 = parse("0:0-11 1:0-17 2:0-9 3:0-12 8:0-9 9:0-9 10:0-6 11:0-9"
            + " 12:0-4 13:0-5 14:0-5 15:0-5 16:0-5 17:0-1 18:0-4 19:0-7 20:0-6 21:0-2 22:0-5 24:0-5 25:0-4 26:0-4"
            + " 28:0-4 29:0-3 30:0-3 32:0-4 36:0-2 42:0-2 44:0-1 46:0-0 50:0-0 51:0-0 60:0-1 69:0-0 71:0-0 75:0-0");

    /** Tansu's cluster id unless told otherwise. */
    static final String TANSU_DEFAULT_CLUSTER_ID = "tansu_cluster";

    /** Kafka's own broker settings, one of which every Kafka broker reports (KRaft, ZooKeeper mode). */
    static final List<String> KAFKA_BROKER_SETTINGS = List.of("process.roles", "zookeeper.connect");

    private static final int API_VERSIONS = 18;

    private BrokerIdentity() {}

    /**
     * What the cluster answered. Each part is null when it was not read, and its problem says why.
     *
     * @param brokerId the broker asked (the lowest-numbered), with its {@code host} and {@code port}
     * @param apiVersions API key to {@code MIN-MAX}
     * @param brokerSettings the names of the broker's settings DescribeConfigs reported
     */
    record Answers(
            String clusterId,
            Integer nodes,
            Integer brokerId,
            String host,
            int port,
            String clusterProblem,
            Map<Integer, String> apiVersions,
            String apiVersionsProblem,
            Set<String> brokerSettings,
            String settingsProblem) {}

    /** Asks the cluster behind {@code admin} (whose client settings are {@code props}) what it is. */
    public static RunResult.Identity read(Admin admin, Properties props, long timeoutSeconds)
            throws InterruptedException {
        return identify(answers(admin, props, timeoutSeconds));
    }

    static Answers answers(Admin admin, Properties props, long timeoutSeconds) throws InterruptedException {
        String clusterId = null;
        Integer nodes = null;
        Node node = null;
        String clusterProblem = null;
        try {
            DescribeClusterResult cluster = admin.describeCluster();
            clusterId = cluster.clusterId().get(timeoutSeconds, TimeUnit.SECONDS);
            Collection<Node> all = cluster.nodes().get(timeoutSeconds, TimeUnit.SECONDS);
            nodes = all.size();
            node = all.stream().min(java.util.Comparator.comparingInt(Node::id)).orElse(null);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            clusterProblem = KafkaClusters.describe(e);
        }
        Map<Integer, String> apiVersions = null;
        String apiVersionsProblem;
        String protocol = props.getProperty(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT")
                .trim()
                .toUpperCase(Locale.ROOT);
        if (node == null) {
            apiVersionsProblem = "no broker to ask";
        } else if (!protocol.equals("PLAINTEXT")) {
            apiVersionsProblem = "not asked: security.protocol " + protocol + " (the probe speaks plaintext only)";
        } else {
            try {
                apiVersions = apiVersions(node.host(), node.port());
                apiVersionsProblem = null;
            } catch (IOException e) {
                apiVersionsProblem = "no answer from " + node.host() + ":" + node.port() + ": " + e.getMessage();
            }
        }
        Set<String> settings = null;
        String settingsProblem = null;
        if (node == null) {
            settingsProblem = "no broker to ask";
        } else {
            try {
                ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(node.id()));
                Config config = admin.describeConfigs(List.of(broker))
                        .all()
                        .get(timeoutSeconds, TimeUnit.SECONDS)
                        .get(broker);
                settings = config == null
                        ? Set.of()
                        : config.entries().stream()
                                .map(ConfigEntry::name)
                                .collect(Collectors.toCollection(TreeSet::new));
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                settingsProblem = KafkaClusters.describe(e);
            }
        }
        return new Answers(
                clusterId,
                nodes,
                node == null ? null : node.id(),
                node == null ? null : node.host(),
                node == null ? -1 : node.port(),
                clusterProblem,
                apiVersions,
                apiVersionsProblem,
                settings,
                settingsProblem);
    }

    /** The rules, in order, over what the cluster answered (see the class comment). */
    static RunResult.Identity identify(Answers a) {
        List<String> evidence = new ArrayList<>();
        evidence.add(
                a.clusterProblem() != null
                        ? "DescribeCluster: no answer (" + a.clusterProblem() + ")"
                        : "DescribeCluster: cluster id " + (a.clusterId() == null ? "none" : a.clusterId()) + ", "
                                + a.nodes() + " node(s)");
        evidence.add(
                a.apiVersions() == null
                        ? "ApiVersions: " + a.apiVersionsProblem()
                        : "ApiVersions of broker " + a.brokerId() + ": "
                                + a.apiVersions().size() + " APIs");
        List<String> kafkaSettings = a.brokerSettings() == null
                ? List.of()
                : KAFKA_BROKER_SETTINGS.stream()
                        .filter(a.brokerSettings()::contains)
                        .toList();
        evidence.add(
                a.brokerSettings() == null
                        ? "DescribeConfigs: " + a.settingsProblem()
                        : "DescribeConfigs of broker " + a.brokerId() + ": "
                                + a.brokerSettings().size() + " setting(s)"
                                + (kafkaSettings.isEmpty()
                                        ? ""
                                        : ", among them " + String.join(" and ", kafkaSettings)));
        Map<String, String> versions = null;
        if (a.apiVersions() != null) {
            versions = new LinkedHashMap<>();
            for (Map.Entry<Integer, String> e : new TreeMap<>(a.apiVersions()).entrySet()) {
                versions.put(Integer.toString(e.getKey()), e.getValue());
            }
        }
        SystemKind system;
        String rule;
        if (a.clusterId() != null && a.clusterId().startsWith("redpanda.")) {
            system = SystemKind.REDPANDA;
            rule = "the cluster id has the form redpanda.<uuid>, Redpanda's own for a cluster whose cluster_id is"
                    + " not set";
        } else if (a.apiVersions() != null && a.apiVersions().equals(TANSU_0_6_0)) {
            system = SystemKind.TANSU;
            rule = "ApiVersions is Tansu 0.6.0's, API for API and version for version";
        } else if (TANSU_DEFAULT_CLUSTER_ID.equals(a.clusterId())) {
            system = SystemKind.TANSU;
            rule = "the cluster id is tansu_cluster, Tansu's default";
        } else if (!kafkaSettings.isEmpty()) {
            system = SystemKind.KAFKA;
            rule = "the broker reports " + kafkaSettings.get(0) + ", a setting of Apache Kafka's own ("
                    + (kafkaSettings.get(0).equals("process.roles") ? "KRaft" : "ZooKeeper mode") + ")";
        } else {
            system = SystemKind.UNKNOWN;
            rule = "no rule matched: not Redpanda's cluster id form, not Tansu 0.6.0's ApiVersions or cluster id,"
                    + " no process.roles or zookeeper.connect among the broker's settings";
        }
        return new RunResult.Identity(system, rule, evidence, versions);
    }

    /** One line for the console: "kafka (the broker reports process.roles, …; cluster id …)". */
    static String describe(RunResult.Identity identity, String clusterId) {
        return identity.system().key() + ", told from the wire: " + identity.rule()
                + (clusterId == null ? "" : " (cluster id " + clusterId + ")");
    }

    /**
     * Sends ApiVersions v0 on a connection of its own ({@link KafkaWire}) and reads the answer: error code, then each
     * API's key, lowest and highest version.
     */
    static Map<Integer, String> apiVersions(String host, int port) throws IOException {
        try (KafkaWire wire = KafkaWire.connect(host, port)) {
            DataInputStream in = wire.call(API_VERSIONS, 0, body -> {});
            short error = in.readShort();
            if (error != 0) {
                throw new IOException("ApiVersions error code " + error);
            }
            int count = in.readInt();
            Map<Integer, String> versions = new TreeMap<>();
            for (int i = 0; i < count; i++) {
                int key = in.readShort();
                int min = in.readShort();
                int max = in.readShort();
                versions.put(key, min + "-" + max);
            }
            return versions;
        }
    }

    private static Map<Integer, String> parse(String text) {
        Map<Integer, String> map = new TreeMap<>();
        for (String pair : text.split(" ")) {
            int colon = pair.indexOf(':');
            map.put(Integer.parseInt(pair.substring(0, colon)), pair.substring(colon + 1));
        }
        return Map.copyOf(map);
    }
}

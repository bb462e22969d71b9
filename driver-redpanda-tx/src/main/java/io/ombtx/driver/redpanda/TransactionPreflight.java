package io.ombtx.driver.redpanda;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Refuses to benchmark transactions on a cluster that has them switched off, where a run would otherwise fail
 * part-way or, worse, measure something else. Redpanda has cluster properties {@code enable_transactions} and
 * {@code enable_idempotence}; they are read from the Admin API when its URL is configured, and from the broker's
 * DescribeConfigs answer otherwise. Apache Kafka has no such switch, so a Kafka broker (recognised by its
 * {@code transaction.state.log.*} settings) passes and the result says that it was Kafka.
 */
final class TransactionPreflight {

    enum Flavour {
        REDPANDA,
        APACHE_KAFKA,
        TANSU,
        UNKNOWN;

        /** As the result's {@code brokerFlavour} and the console name it: redpanda, apache-kafka, tansu, unknown. */
        String key() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** Apache Kafka's own broker settings (KRaft, ZooKeeper mode, its transaction log); Redpanda reports none. */
    static final List<String> KAFKA_SETTINGS =
            List.of("process.roles", "zookeeper.connect", "transaction.state.log.replication.factor");
    /** Redpanda's cluster id when its {@code cluster_id} is not set (22.1 on), and Tansu's default cluster id. */
    static final String REDPANDA_CLUSTER_ID_PREFIX = "redpanda.";

    static final String TANSU_CLUSTER_ID = "tansu_cluster";

    static final List<String> SWITCHES = List.of("enable_transactions", "enable_idempotence");
    /** Seed 003's production settings for Redpanda transactions, reported when the cluster tells them. */
    static final List<String> REPORTED = List.of(
            "enable_transactions",
            "enable_idempotence",
            "id_allocator_replication",
            "transaction_coordinator_replication",
            "transaction_coordinator_delete_retention_ms",
            "transactional_id_expiration_ms",
            "write_caching_default");

    /**
     * @param flavour which broker answered
     * @param settings the transaction-related settings found, and where from
     * @param notes what a reader of the result should know (assumed defaults, seed 003's recommendations)
     */
    record Result(Flavour flavour, Map<String, String> settings, List<String> notes) {

        Map<String, Object> asMap() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("brokerFlavour", flavour.key());
            map.put("transactionsAvailable", true); // a Result exists only when the preflight passed
            map.put("settings", settings);
            map.put("notes", notes);
            return map;
        }
    }

    private TransactionPreflight() {}

    /**
     * @param source the driver file, for messages
     * @param brokerConfig what DescribeConfigs of a broker returned
     * @param adminApiConfig Redpanda's cluster config from the Admin API, or null when no adminApiUrl is set
     * @param adminApiEndpoint where adminApiConfig came from, for messages
     * @throws IOException when transactions or idempotence are switched off
     */
    static Result check(
            String source,
            String bootstrap,
            Map<String, String> brokerConfig,
            Map<String, String> adminApiConfig,
            String adminApiEndpoint)
            throws IOException {
        Flavour flavour = flavour(brokerConfig, adminApiConfig);
        Map<String, String> settings = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        List<String> switchedOff = new ArrayList<>();
        for (String key : REPORTED) {
            String fromApi = adminApiConfig == null ? null : adminApiConfig.get(key);
            String value = fromApi != null ? fromApi : brokerConfig.get(key);
            if (value == null) {
                continue;
            }
            settings.put(key, value);
            if (SWITCHES.contains(key) && value.trim().equalsIgnoreCase("false")) {
                switchedOff.add(key + "=false (read from "
                        + (fromApi != null ? adminApiEndpoint : "DescribeConfigs of the broker") + ")");
            }
        }
        if (!switchedOff.isEmpty()) {
            throw new IOException(source + ": the cluster at " + bootstrap + " cannot run transactional benchmarks: "
                    + String.join(", ", switchedOff) + ". Turn it on (e.g. `rpk cluster config set "
                    + switchedOff.get(0).substring(0, switchedOff.get(0).indexOf('=')) + " true`) and run again.");
        }
        switch (flavour) {
            case APACHE_KAFKA ->
                notes.add("the broker is Apache Kafka (it reports transaction.state.log.* settings): "
                        + "transactions and idempotence are always available, there is no switch to check");
            case REDPANDA -> {
                for (String key : SWITCHES) {
                    if (!settings.containsKey(key)) {
                        notes.add(key + " is not reported by this Redpanda; its default (true) is assumed");
                    }
                }
                long deleteRetention = number(settings.get("transaction_coordinator_delete_retention_ms"));
                long idExpiration = number(settings.get("transactional_id_expiration_ms"));
                if (deleteRetention >= 0 && idExpiration >= 0 && deleteRetention < idExpiration) {
                    notes.add("transaction_coordinator_delete_retention_ms (" + deleteRetention
                            + ") is below transactional_id_expiration_ms (" + idExpiration
                            + "); seed 003 recommends at least equal");
                }
            }
            case TANSU ->
                notes.add("the broker is Tansu (its cluster id is " + TANSU_CLUSTER_ID + "): it has no transaction "
                        + "switches to check");
            case UNKNOWN ->
                notes.add("the broker's flavour could not be recognised and it reports no transaction "
                        + "switches; set adminApiUrl to check a Redpanda cluster's enable_transactions");
        }
        return new Result(flavour, settings, notes);
    }

    static Flavour flavour(Map<String, String> brokerConfig, Map<String, String> adminApiConfig) {
        return adminApiConfig != null ? Flavour.REDPANDA : seen(null, brokerConfig);
    }

    /**
     * Which broker answered, from what it shows to any Kafka client, before anything Redpanda-only is asked:
     * Redpanda by its default cluster id ({@code redpanda.<uuid>}) or its own settings; Apache Kafka by its own
     * settings ({@link #KAFKA_SETTINGS}); Tansu by its default cluster id; else unknown.
     *
     * @param clusterId what DescribeCluster reported, or null
     */
    static Flavour seen(String clusterId, Map<String, String> brokerConfig) {
        if ((clusterId != null && clusterId.startsWith(REDPANDA_CLUSTER_ID_PREFIX))
                || brokerConfig.keySet().stream().anyMatch(k -> k.startsWith("redpanda.") || SWITCHES.contains(k))) {
            return Flavour.REDPANDA;
        }
        if (KAFKA_SETTINGS.stream().anyMatch(brokerConfig::containsKey)) {
            return Flavour.APACHE_KAFKA;
        }
        return TANSU_CLUSTER_ID.equals(clusterId) ? Flavour.TANSU : Flavour.UNKNOWN;
    }

    /**
     * On a broker that is positively not Redpanda (Apache Kafka, Tansu): the Redpanda-only steps are not taken, and
     * one line says which were skipped and why. The Admin API is not read, the transaction switches are not
     * checked (these brokers have none), and every topicConfig key is applied as given.
     *
     * @param driver the driver, as the line names it ("driver redpanda-tx")
     * @param adminApiUrl the configured Admin API, or null
     * @param topicConfig the topicConfig keys, all applied
     */
    static Result notRedpanda(
            String driver,
            String bootstrap,
            Flavour flavour,
            String clusterId,
            Map<String, String> brokerConfig,
            String adminApiUrl,
            Map<String, String> topicConfig) {
        String evidence = flavour == Flavour.TANSU
                ? "its cluster id is " + clusterId
                : "it reports "
                        + KAFKA_SETTINGS.stream()
                                .filter(brokerConfig::containsKey)
                                .findFirst()
                                .orElseThrow();
        String system = flavour == Flavour.TANSU ? "Tansu" : "Apache Kafka";
        String line = driver + ": the cluster at " + bootstrap + " is " + system + ", not Redpanda (" + evidence
                + "): skipped the Redpanda-only steps: "
                + (adminApiUrl == null
                        ? "no Admin API read (adminApiUrl not set)"
                        : "the Admin API read of " + adminApiUrl)
                + ", the enable_transactions/enable_idempotence check, and the topicConfig filter ("
                + (topicConfig.isEmpty()
                        ? "no topicConfig keys"
                        : "every key applied as given: " + String.join(", ", new TreeSet<>(topicConfig.keySet())))
                + ")";
        return new Result(flavour, Map.of(), List.of(line));
    }

    private static long number(String value) {
        try {
            return value == null ? -1 : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}

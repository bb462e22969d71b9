package io.ombtx.broker;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kafka release the embedded broker can run, {@code MAJOR.MINOR.PATCH} as published on Maven Central
 * ({@code org.apache.kafka:kafka_2.13}), and what follows from it: how the cluster is coordinated (ZooKeeper before
 * 3.3, KRaft from 3.3 on, the first release where KRaft was production-ready) and whether the storage format
 * takes a {@code transaction.version} feature level (KIP-890; 4.0 on).
 */
public record KafkaVersion(int major, int minor, int patch) implements Comparable<KafkaVersion> {

    /** The oldest release accepted: the seeds ran 2.7 and 2.8, and kafka_2.13 exists for both. */
    public static final KafkaVersion OLDEST = new KafkaVersion(2, 7, 0);
    /** The first release run in KRaft mode here. */
    public static final KafkaVersion FIRST_KRAFT = new KafkaVersion(3, 3, 0);
    /** The first release whose storage format sets {@code transaction.version}. */
    public static final KafkaVersion FIRST_TRANSACTION_VERSION = new KafkaVersion(4, 0, 0);
    /** The first release whose brokers serve KIP-848's consumer group protocol by default (GA). */
    public static final KafkaVersion FIRST_CONSUMER_GROUP_PROTOCOL = new KafkaVersion(4, 0, 0);
    /** The highest {@code transaction.version} feature level known here (KIP-890 part 2). */
    public static final int MAX_TRANSACTION_VERSION = 2;

    /**
     * The first release whose embedded cluster can be secured ({@link ClusterSecurity}): KRaft with SCRAM credentials
     * made by the storage tool ({@code --add-scram}, 3.5 on) and the StandardAuthorizer; omb-tx checks it on 4.x.
     */
    public static final KafkaVersion FIRST_SECURED = new KafkaVersion(4, 0, 0);

    /** MAJOR.MINOR.PATCH, with a pre-release suffix (4.2.0-SNAPSHOT, say, for a build against one) tolerated. */
    private static final Pattern FORMAT = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?:-[A-Za-z0-9.]+)?");

    /**
     * Reads {@code 2.8.2}-style text.
     *
     * @throws IllegalArgumentException saying what was expected, for text that is not such a version or one older
     *         than {@link #OLDEST} or from a major release after 4
     */
    public static KafkaVersion parse(String text) {
        Matcher m = text == null ? null : FORMAT.matcher(text.trim());
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("expected a Kafka release as MAJOR.MINOR.PATCH, e.g. 2.8.2, 3.9.1 or"
                    + " 4.1.1, got '" + text + "'");
        }
        KafkaVersion version = new KafkaVersion(
                Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        if (version.compareTo(OLDEST) < 0 || version.major > 4) {
            throw new IllegalArgumentException("Kafka " + version + " is not supported by the embedded broker: it runs "
                    + OLDEST + " or later (ZooKeeper before " + FIRST_KRAFT + ", KRaft from then on) up to 4.x");
        }
        return version;
    }

    /** Whether this release runs with ZooKeeper here (before 3.3). */
    /** Why this release's embedded cluster cannot run with {@code mode} ({@code brokerSecurity}), or null. */
    public String securityProblem(ClusterSecurity.Mode mode) {
        if (mode == ClusterSecurity.Mode.NONE || compareTo(FIRST_SECURED) >= 0) {
            return null;
        }
        return "a secured embedded cluster (" + mode.key() + ") needs Kafka " + FIRST_SECURED
                + " or later (KRaft with the StandardAuthorizer and SCRAM credentials formatted into its storage), and"
                + " this run's broker is Kafka " + this + ": use brokerSecurity none, or a later broker release";
    }

    public boolean zooKeeper() {
        return compareTo(FIRST_KRAFT) < 0;
    }

    /** Whether the storage format of this release takes {@code --feature transaction.version=N}. */
    public boolean hasTransactionVersion() {
        return compareTo(FIRST_TRANSACTION_VERSION) >= 0;
    }

    /**
     * What is wrong with choosing {@code transactionVersion} on this release; null when it can be chosen.
     */
    public String transactionVersionProblem(int transactionVersion) {
        if (!hasTransactionVersion()) {
            return "Kafka " + this + " has no transaction.version feature (KIP-890's transaction versions start with "
                    + FIRST_TRANSACTION_VERSION + "); leave it unset on " + this;
        }
        if (transactionVersion < 0 || transactionVersion > MAX_TRANSACTION_VERSION) {
            return "expected a transaction.version of 0 to " + MAX_TRANSACTION_VERSION + ", got " + transactionVersion;
        }
        return null;
    }

    @Override
    public int compareTo(KafkaVersion other) {
        int c = Integer.compare(major, other.major);
        if (c == 0) {
            c = Integer.compare(minor, other.minor);
        }
        return c != 0 ? c : Integer.compare(patch, other.patch);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}

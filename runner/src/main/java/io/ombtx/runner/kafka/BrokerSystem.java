package io.ombtx.runner.kafka;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * Which broker system a cluster is, read back from the cluster itself so that a result is labelled with what really
 * ran, whatever the driver file is called. Redpanda (since 22.1) reports a cluster id of the form
 * {@code redpanda.<uuid>}; Apache Kafka's is 22 characters of URL-safe base64.
 */
public final class BrokerSystem {
    public static final String KAFKA = "kafka";
    public static final String REDPANDA = "redpanda";

    private BrokerSystem() {}

    /** The system a cluster id belongs to: redpanda for {@code redpanda.}-prefixed ids, kafka otherwise. */
    public static String ofClusterId(String clusterId) {
        return clusterId != null && clusterId.startsWith(REDPANDA + ".") ? REDPANDA : KAFKA;
    }

    /** The cluster's id as DescribeCluster reports it (null when the cluster reports none). */
    public static String clusterId(Admin admin, long timeoutSeconds) throws Exception {
        return admin.describeCluster().clusterId().get(timeoutSeconds, TimeUnit.SECONDS);
    }
}

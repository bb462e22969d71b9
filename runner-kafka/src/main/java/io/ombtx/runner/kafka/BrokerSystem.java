package io.ombtx.runner.kafka;

import io.ombtx.runner.result.RunResult;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/** Reads a cluster's id, from which {@link RunResult.Broker.SystemKind#ofClusterId} tells which system it is. */
public final class BrokerSystem {

    private BrokerSystem() {}

    /** The cluster's id as DescribeCluster reports it (null when the cluster reports none). */
    public static String clusterId(Admin admin, long timeoutSeconds) throws Exception {
        return admin.describeCluster().clusterId().get(timeoutSeconds, TimeUnit.SECONDS);
    }
}

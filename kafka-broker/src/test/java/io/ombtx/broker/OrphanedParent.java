package io.ombtx.broker;

import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * Not a test: a parent process for {@link ChildBrokerLifetimeTest}. Starts one embedded broker with its data in the
 * folder given (of the release given second, else the default), prints {@code brokers <pid>...} and waits to be
 * killed.
 */
public final class OrphanedParent {

    private OrphanedParent() {}

    public static void main(String[] args) throws Exception {
        EmbeddedKafkaCluster.Builder builder = EmbeddedKafkaCluster.builder().workDir(Path.of(args[0]));
        if (args.length > 1) {
            builder.version(args[1]);
        }
        EmbeddedKafkaCluster cluster = builder.start();
        System.out.println(
                "brokers " + cluster.pids().stream().map(String::valueOf).collect(Collectors.joining(" ")));
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}

package io.ombtx.runner.cluster;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The broker system on the class path, found through {@link ServiceLoader} ({@code META-INF/services}) the first time
 * a plan needs one: a run without a broker never loads it, nor any of its classes.
 */
public final class ClusterSystems {

    private ClusterSystems() {}

    private static final class Installed {
        static final Optional<ClusterSystem> SYSTEM = ServiceLoader.load(
                        ClusterSystem.class, ClusterSystem.class.getClassLoader())
                .findFirst();
    }

    /**
     * @throws IllegalStateException when there is none (the runner's class path lacks runner-kafka)
     */
    public static ClusterSystem installed() {
        return Installed.SYSTEM.orElseThrow(() -> new IllegalStateException(
                "no broker system on the class path (Kafka's is in the runner-kafka module)"));
    }
}

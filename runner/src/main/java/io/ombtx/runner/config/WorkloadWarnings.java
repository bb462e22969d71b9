package io.ombtx.runner.config;

import io.ombtx.driver.api.config.ConfigException;
import java.util.ArrayList;
import java.util.List;

/**
 * Values that are valid but extreme: OMB ships workloads with up to a million topics and four million clients, which
 * are accepted, with a warning saying what they cost, instead of being refused. Pure; the CLI prints the lines.
 */
public final class WorkloadWarnings {

    /** Above this many topics, or producers or consumers, a run is unusual enough to say so. */
    public static final long MANY = 10_000;

    private WorkloadWarnings() {}

    /** One line per extreme value, naming the file and the key as an error would. */
    public static List<String> of(Workload w) {
        List<String> warnings = new ArrayList<>();
        if (w.topics() > MANY) {
            warnings.add(line(
                    w,
                    "topics",
                    w.topics() + " topics: creating them alone can take many minutes and the"
                            + " cluster needs the memory and file handles for "
                            + (long) w.topics() * w.partitionsPerTopic()
                            + " partitions"));
        }
        long producers = (long) w.topics() * w.producersPerTopic();
        if (producers > MANY) {
            warnings.add(line(
                    w,
                    "producersPerTopic",
                    producers + " producers (topics × producersPerTopic), each a"
                            + " Kafka client with its own connections and buffers, shared by the producing workers"));
        }
        long consumers = (long) w.topics() * w.subscriptionsPerTopic() * w.consumerPerSubscription();
        if (consumers > MANY) {
            warnings.add(line(
                    w,
                    "consumerPerSubscription",
                    consumers + " consumers (topics × subscriptionsPerTopic ×"
                            + " consumerPerSubscription), each a Kafka client, shared by the consuming workers"));
        }
        return warnings;
    }

    private static String line(Workload w, String key, String problem) {
        return "warning: " + new ConfigException(w.sourceFile(), key, problem).getMessage();
    }
}

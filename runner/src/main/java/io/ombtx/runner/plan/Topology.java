package io.ombtx.runner.plan;

import io.ombtx.runner.config.Workload;
import io.ombtx.runner.worker.Worker.TopicSubscription;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The topics, producers and subscriptions of a run, decided while planning; only the topic names wait for the
 * worker that creates the topics (the driver's prefix, then the run id, then the index).
 *
 * @param subscriptionNames the subscriptions of every topic, by index: {@code sub-<index>-<runId>}
 */
public record Topology(
        int topics,
        int partitionsPerTopic,
        int producersPerTopic,
        List<String> subscriptionNames,
        int consumersPerSubscription) {

    public Topology {
        subscriptionNames = List.copyOf(subscriptionNames);
    }

    /** A workload's topology, its subscriptions named after the run. */
    public static Topology of(Workload w, String runId) {
        return new Topology(
                w.topics(),
                w.partitionsPerTopic(),
                w.producersPerTopic(),
                names(w.subscriptionsPerTopic(), runId),
                w.consumerPerSubscription());
    }

    /** The same topology with its subscriptions named after another run. */
    public Topology forRun(String runId) {
        return new Topology(
                topics,
                partitionsPerTopic,
                producersPerTopic,
                names(subscriptionNames.size(), runId),
                consumersPerSubscription);
    }

    private static List<String> names(int subscriptions, String runId) {
        List<String> names = new ArrayList<>();
        for (int s = 0; s < subscriptions; s++) {
            names.add(String.format(Locale.ROOT, "sub-%03d-%s", s, runId));
        }
        return names;
    }

    /** Consumers in all. */
    public int consumers() {
        return topics * subscriptionNames.size() * consumersPerSubscription;
    }

    /** One entry per producer: the topic it writes to, topic by topic. */
    public List<String> producerTopics(List<String> topicNames) {
        List<String> producers = new ArrayList<>();
        for (String topic : topicNames) {
            for (int p = 0; p < producersPerTopic; p++) {
                producers.add(topic);
            }
        }
        return producers;
    }

    /** One entry per consumer: its topic and subscription, topic by topic. */
    public List<TopicSubscription> subscriptions(List<String> topicNames) {
        List<TopicSubscription> subscriptions = new ArrayList<>();
        for (String topic : topicNames) {
            for (String name : subscriptionNames) {
                for (int c = 0; c < consumersPerSubscription; c++) {
                    subscriptions.add(new TopicSubscription(topic, name));
                }
            }
        }
        return subscriptions;
    }
}

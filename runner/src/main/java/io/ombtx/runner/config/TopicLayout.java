package io.ombtx.runner.config;

import io.ombtx.driver.api.config.ConfigFields;

/** A workload's topics: how many, their partitions, and how messages are keyed across them (OMB's fields). */
public record TopicLayout(int topics, int partitionsPerTopic, KeyDistributorType keyDistributor) {

    static TopicLayout read(ConfigFields f) {
        // OMB's own workloads go to a million topics; more than WorkloadWarnings.MANY is accepted with a warning.
        int topics = f.wholeNumber("topics", 1, 1, 10_000_000);
        int partitions = f.wholeNumber("partitionsPerTopic", 1, 1, 100_000);
        KeyDistributorType keys = f.choice("keyDistributor", KeyDistributorType.class, KeyDistributorType.NO_KEY);
        return new TopicLayout(topics, partitions, keys);
    }
}

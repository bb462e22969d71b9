package io.ombtx.runner.config;

import io.ombtx.driver.api.config.ConfigFields;

/** How many producers and consumers each topic gets (OMB's fields); checked against the topics in {@link OperationOptions}. */
public record ClientCounts(int subscriptionsPerTopic, int producersPerTopic, int consumerPerSubscription) {

    static ClientCounts read(ConfigFields f) {
        int subscriptions = f.wholeNumber("subscriptionsPerTopic", 1, 0, 1000);
        int producersPerTopic = f.wholeNumber("producersPerTopic", 1, 0, 1000);
        int consumersPerSubscription = f.wholeNumber("consumerPerSubscription", 1, 0, 1000);
        return new ClientCounts(subscriptions, producersPerTopic, consumersPerSubscription);
    }
}

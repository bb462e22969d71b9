package io.openmessaging.benchmark.driver;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.bookkeeper.stats.StatsLogger;

/**
 * The OpenMessaging Benchmark driver SPI, declared with OMB's names and signatures so that a driver
 * compiled against this module loads unchanged into a stock OMB installation.
 */
public interface BenchmarkDriver extends AutoCloseable {

    void initialize(File configurationFile, StatsLogger statsLogger) throws IOException, InterruptedException;

    String getTopicNamePrefix();

    CompletableFuture<Void> createTopic(String topic, int partitions);

    default CompletableFuture<Void> createTopics(List<TopicInfo> topicInfos) {
        CompletableFuture<?>[] futures = topicInfos.stream()
                .map(info -> createTopic(info.getTopic(), info.getPartitions()))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(futures);
    }

    CompletableFuture<BenchmarkProducer> createProducer(String topic);

    default CompletableFuture<List<BenchmarkProducer>> createProducers(List<ProducerInfo> producers) {
        List<CompletableFuture<BenchmarkProducer>> futures = new ArrayList<>();
        for (ProducerInfo info : producers) {
            futures.add(createProducer(info.getTopic()));
        }
        return allAsList(futures);
    }

    CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscriptionName, ConsumerCallback consumerCallback);

    default CompletableFuture<List<BenchmarkConsumer>> createConsumers(List<ConsumerInfo> consumers) {
        List<CompletableFuture<BenchmarkConsumer>> futures = new ArrayList<>();
        for (ConsumerInfo info : consumers) {
            futures.add(createConsumer(info.getTopic(), info.getSubscriptionName(), info.getConsumerCallback()));
        }
        return allAsList(futures);
    }

    private static <T> CompletableFuture<List<T>> allAsList(List<CompletableFuture<T>> futures) {
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> {
                    List<T> values = new ArrayList<>(futures.size());
                    futures.forEach(f -> values.add(f.join()));
                    return values;
                });
    }

    // OMB's value classes: its getters, content equality. Records supply equals, hashCode and toString.

    record TopicInfo(String topic, int partitions) {
        public String getTopic() {
            return topic;
        }

        public int getPartitions() {
            return partitions;
        }
    }

    record ProducerInfo(int id, String topic) {
        public int getId() {
            return id;
        }

        public String getTopic() {
            return topic;
        }
    }

    record ConsumerInfo(int id, String topic, String subscriptionName, ConsumerCallback consumerCallback) {
        public int getId() {
            return id;
        }

        public String getTopic() {
            return topic;
        }

        public String getSubscriptionName() {
            return subscriptionName;
        }

        public ConsumerCallback getConsumerCallback() {
            return consumerCallback;
        }
    }
}

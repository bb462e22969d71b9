package io.ombtx.broker.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ombtx.broker.BrokerProfile;
import io.ombtx.broker.EmbeddedKafkaCluster;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Test classes that {@link EmbeddedKafkaExtensionTest} runs through the JUnit launcher, to look at them from
 * outside: they record the clusters they were given. Run any other way (an IDE, {@code -Dtest=!Some}), they are
 * skipped before their cluster starts: one of them fails on purpose.
 */
final class ExtensionFixtures {

    private static volatile boolean launchedByTheirTest;

    private ExtensionFixtures() {}

    /** Runs {@code action} with the fixtures enabled. */
    static <T> T launched(java.util.function.Supplier<T> action) {
        launchedByTheirTest = true;
        try {
            return action.get();
        } finally {
            launchedByTheirTest = false;
        }
    }

    /** The fixtures' execution condition. */
    static boolean launchedByTheirTest() {
        return launchedByTheirTest;
    }

    static void record(Set<String> bootstraps, List<Long> pids, EmbeddedKafkaCluster kafka) throws Exception {
        if (bootstraps.add(kafka.bootstrapServers())) {
            pids.addAll(kafka.pids());
        }
        try (Admin admin = EmbeddedKafkaExtensionTest.admin(kafka.bootstrapServers())) {
            assertEquals(
                    kafka.brokerCount(),
                    admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size());
        }
    }

    @EnabledIf("io.ombtx.broker.junit.ExtensionFixtures#launchedByTheirTest")
    @EmbeddedKafka(brokers = 2, profile = BrokerProfile.MAX_CONSISTENCY)
    static class Declared {
        static final Set<String> bootstraps = new LinkedHashSet<>();
        static final List<Long> brokerPids = new ArrayList<>();

        static void reset() {
            bootstraps.clear();
            brokerPids.clear();
        }

        @Test
        void first(EmbeddedKafkaCluster kafka) throws Exception {
            assertEquals("1", kafka.settings().get("log.flush.interval.messages"), "the declared profile");
            record(bootstraps, brokerPids, kafka);
        }

        @Test
        void second(EmbeddedKafkaCluster kafka) throws Exception {
            record(bootstraps, brokerPids, kafka);
        }

        @Nested
        class Inner {
            @Test
            void third(EmbeddedKafkaCluster kafka) throws Exception {
                record(bootstraps, brokerPids, kafka);
            }
        }
    }

    /** The extension in a static field, as it comes: one broker, default profile. */
    @EnabledIf("io.ombtx.broker.junit.ExtensionFixtures#launchedByTheirTest")
    static class InField {
        @RegisterExtension
        static final EmbeddedKafkaExtension kafka = new EmbeddedKafkaExtension();

        static final Set<String> bootstraps = new LinkedHashSet<>();
        static final List<Long> brokerPids = new ArrayList<>();

        static void reset() {
            bootstraps.clear();
            brokerPids.clear();
        }

        @Test
        void first() throws Exception {
            assertEquals(1, kafka.cluster().brokerCount());
            assertEquals(BrokerProfile.DEFAULT.settings(1), kafka.cluster().settings());
            record(bootstraps, brokerPids, kafka.cluster());
        }

        @Test
        void second(@BootstrapServers String bootstrap) throws Exception {
            assertEquals(kafka.bootstrapServers(), bootstrap);
            record(bootstraps, brokerPids, kafka.cluster());
        }

        @Nested
        class Inner {
            @Test
            void third(EmbeddedKafkaCluster injected) throws Exception {
                assertSame(kafka.cluster(), injected);
                record(bootstraps, brokerPids, injected);
            }
        }
    }

    /** The extension in a static field, configured in code. */
    @EnabledIf("io.ombtx.broker.junit.ExtensionFixtures#launchedByTheirTest")
    static class InFieldConfigured {
        @RegisterExtension
        static final EmbeddedKafkaExtension kafka =
                new EmbeddedKafkaExtension().brokers(2).override("group.coordinator.append.linger.ms", "0");

        static final Set<String> bootstraps = new LinkedHashSet<>();
        static final List<Long> brokerPids = new ArrayList<>();

        @Test
        void configured() throws Exception {
            assertEquals(2, kafka.cluster().brokerCount());
            assertEquals("0", kafka.cluster().settings().get("group.coordinator.append.linger.ms"));
            try (Admin admin = EmbeddedKafkaExtensionTest.admin(kafka.bootstrapServers())) {
                ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "2");
                assertEquals(
                        "0",
                        admin.describeConfigs(Set.of(broker))
                                .all()
                                .get(30, TimeUnit.SECONDS)
                                .get(broker)
                                .get("group.coordinator.append.linger.ms")
                                .value(),
                        "the override reaches the real brokers");
            }
            record(bootstraps, brokerPids, kafka.cluster());
        }
    }

    @EnabledIf("io.ombtx.broker.junit.ExtensionFixtures#launchedByTheirTest")
    @EmbeddedKafka(settings = "no-equals-sign")
    static class BadSetting {
        @Test
        void neverRuns() {}
    }
}

package io.ombtx.broker.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.ombtx.broker.EmbeddedKafkaCluster;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** A test class under {@link EmbeddedKafka} gets a real, reachable cluster; the extension stops it afterwards. */
@EmbeddedKafka(settings = "group.coordinator.append.linger.ms=2")
class EmbeddedKafkaExtensionTest {

    private static EmbeddedKafkaCluster startedForTheClass;
    private final String constructorBootstrap;

    EmbeddedKafkaExtensionTest(@BootstrapServers String bootstrap) {
        this.constructorBootstrap = bootstrap;
    }

    @BeforeAll
    static void clusterIsRunningBeforeTheFirstTest(EmbeddedKafkaCluster kafka) {
        startedForTheClass = kafka;
    }

    static Admin admin(String bootstrap) {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return Admin.create(props);
    }

    @Test
    void testsGetTheClusterAndItsBootstrapServers(EmbeddedKafkaCluster kafka, @BootstrapServers String bootstrap)
            throws Exception {
        assertSame(startedForTheClass, kafka, "one cluster for the whole class");
        assertEquals(kafka.bootstrapServers(), bootstrap);
        assertEquals(bootstrap, constructorBootstrap);
        assertTrue(bootstrap.matches("127\\.0\\.0\\.1:\\d+"), bootstrap);
        try (Admin admin = admin(bootstrap)) {
            assertEquals(
                    1, admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size());
            admin.createTopics(Set.of(new NewTopic("extension-topic", 3, (short) 1)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
            assertEquals(
                    3,
                    admin.describeTopics(Set.of("extension-topic"))
                            .allTopicNames()
                            .get(30, TimeUnit.SECONDS)
                            .get("extension-topic")
                            .partitions()
                            .size());
        }
    }

    @Test
    void theAnnotationsSettingsReachTheRealBroker(EmbeddedKafkaCluster kafka) throws Exception {
        assertSame(startedForTheClass, kafka);
        assertEquals("2", kafka.settings().get("group.coordinator.append.linger.ms"));
        try (Admin admin = admin(kafka.bootstrapServers())) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
            var config = admin.describeConfigs(Set.of(broker))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(broker);
            assertEquals("2", config.get("group.coordinator.append.linger.ms").value());
        }
    }

    @Nested
    class NestedTests {

        @Test
        void shareTheEnclosingClassCluster(EmbeddedKafkaCluster kafka, @BootstrapServers String bootstrap) {
            assertSame(startedForTheClass, kafka);
            assertEquals(constructorBootstrap, bootstrap);
        }
    }

    @Test
    void aDeclaredClusterRunsForItsClassAndIsStoppedAfterIt() {
        ExtensionFixtures.Declared.reset();
        TestExecutionSummary summary = run(ExtensionFixtures.Declared.class);
        assertEquals(3, summary.getTestsSucceededCount(), () -> failures(summary));
        assertEquals(1, ExtensionFixtures.Declared.bootstraps.size(), "one cluster for the class and its nested class");
        assertEquals(2, ExtensionFixtures.Declared.brokerPids.size(), "two brokers as declared");
        assertStopped(ExtensionFixtures.Declared.brokerPids);
    }

    @Test
    void aClusterHeldInAStaticFieldRunsForItsClassAndIsStoppedAfterIt() {
        ExtensionFixtures.InField.reset();
        TestExecutionSummary summary = run(ExtensionFixtures.InField.class);
        assertEquals(3, summary.getTestsSucceededCount(), () -> failures(summary));
        assertEquals(1, ExtensionFixtures.InField.bootstraps.size(), "one cluster for the class and its nested class");
        assertEquals(1, ExtensionFixtures.InField.brokerPids.size());
        assertStopped(ExtensionFixtures.InField.brokerPids);
        IllegalStateException stopped =
                assertThrows(IllegalStateException.class, ExtensionFixtures.InField.kafka::cluster);
        assertTrue(stopped.getMessage().contains("not running"), stopped.getMessage());
    }

    @Test
    void aClusterConfiguredInCodeHasTheBrokersAndSettingsAskedFor() {
        TestExecutionSummary summary = run(ExtensionFixtures.InFieldConfigured.class);
        assertEquals(1, summary.getTestsSucceededCount(), () -> failures(summary));
        assertEquals(2, ExtensionFixtures.InFieldConfigured.brokerPids.size());
        assertStopped(ExtensionFixtures.InFieldConfigured.brokerPids);
    }

    private static TestExecutionSummary run(Class<?> testClass) {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        return ExtensionFixtures.launched(() -> {
            launcher.execute(
                    LauncherDiscoveryRequestBuilder.request()
                            .selectors(selectClass(testClass))
                            .build(),
                    listener);
            return listener.getSummary();
        });
    }

    private static String failures(TestExecutionSummary summary) {
        return summary.getFailures().stream()
                .map(f -> f.getTestIdentifier().getDisplayName() + ": " + f.getException())
                .collect(Collectors.joining("\n", "failures:\n", ""));
    }

    private static void assertStopped(List<Long> pids) {
        assertFalse(pids.isEmpty());
        for (long pid : pids) {
            assertFalse(
                    ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    "broker process " + pid + " stopped when its test class was done");
        }
    }

    @Test
    void badSettingsAreReportedAsSuch() {
        TestExecutionSummary summary = run(ExtensionFixtures.BadSetting.class);
        assertEquals(1, summary.getTestsFailedCount() + summary.getContainersFailedCount(), () -> failures(summary));
        Throwable failure = summary.getFailures().get(0).getException();
        assertNotNull(failure);
        assertTrue(failure.getMessage().contains("settings are KEY=VALUE, got 'no-equals-sign'"), failure.getMessage());
    }
}

package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/** kafka-clients 2.8.2 as a run uses it: its jar from the cache (Maven Central the first time) and its own keys. */
class ClientReleaseTest {

    @Test
    void theSeedsClientKnowsItsOwnKeysAndNotThoseAddedSince() throws Exception {
        ClientRelease release = ClientRelease.of(KafkaVersion.parse("2.8.2"));
        assertTrue(
                release.jar().getFileName().toString().equals("kafka-clients-2.8.2.jar"),
                release.jar().toString());
        Set<String> producer = release.configKeys(ClientRelease.Kind.PRODUCER);
        assertTrue(producer.contains("retry.backoff.ms"));
        assertTrue(producer.contains("transactional.id"));
        // KIP-580's exponential back-off arrived with 3.7: the built-in client has it, 2.8.2 does not.
        assertTrue(ProducerConfig.configNames().contains("retry.backoff.max.ms"));
        assertFalse(producer.contains("retry.backoff.max.ms"));
        // KIP-848's group.protocol arrived with 3.7 too.
        assertFalse(release.configKeys(ClientRelease.Kind.CONSUMER).contains("group.protocol"));
        assertTrue(release.configKeys(ClientRelease.Kind.CONSUMER).contains("isolation.level"));
        assertTrue(release.configKeys(ClientRelease.Kind.ADMIN).contains("bootstrap.servers"));
    }

    @Test
    void aWorkersClassPathHasTheReleasesClientInPlaceOfEveryOther() throws Exception {
        ClientRelease release = ClientRelease.of(KafkaVersion.parse("2.8.2"));
        String current = String.join(
                File.pathSeparator,
                "/x/runner.jar",
                "/x/lib/kafka-clients-4.1.1.jar",
                "/x/lib/lz4-java-1.8.0.jar",
                "/y/lib/kafka-clients-4.1.1.jar");
        assertEquals(
                List.of(Path.of("/x/runner.jar"), release.jar(), Path.of("/x/lib/lz4-java-1.8.0.jar")),
                release.classPath(current));
        assertFalse(ClientRelease.builtIn(KafkaVersion.parse("2.8.2")));
        assertTrue(ClientRelease.builtIn(KafkaVersion.parse(EmbeddedKafkaCluster.DEFAULT_VERSION)));
    }
}

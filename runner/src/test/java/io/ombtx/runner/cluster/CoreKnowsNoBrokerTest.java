package io.ombtx.runner.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.OmbTxHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runner module — its core (config, plan, run, stats, result, worker, fault, this package) and its entry points —
 * names no Kafka class and has no Kafka jar: what it needs of a cluster goes through {@link ClusterSystem}, whose Kafka
 * implementation is the runner-kafka module. (AeronRunsWithoutKafkaTest, in driver-aeron, runs a plan with no Kafka
 * jar at all.)
 */
class CoreKnowsNoBrokerTest {

    private static final Pattern KAFKA = Pattern.compile("\\b(org\\.apache\\.kafka|io\\.ombtx\\.broker)\\.[A-Za-z]");

    @Test
    void noRunnerSourceNamesAKafkaClass() throws Exception {
        Path root = OmbTxHome.locate().resolve("runner/src/main/java/io/ombtx/runner");
        List<String> offenders = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(root)) {
            sources = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        for (Path source : sources) {
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (!line.startsWith("*")
                        && !line.startsWith("//")
                        && KAFKA.matcher(line).find()) {
                    offenders.add(root.relativize(source) + ":" + (i + 1) + ": " + line);
                }
            }
        }
        assertTrue(sources.size() > 100, "the runner's sources were found: " + sources.size());
        assertEquals(List.of(), offenders);
    }

    @Test
    void noKafkaClassIsOnTheRunnersClassPath() {
        ClassLoader loader = CoreKnowsNoBrokerTest.class.getClassLoader();
        for (String name : List.of(
                "org.apache.kafka.clients.admin.Admin",
                "io.ombtx.broker.EmbeddedKafkaCluster",
                "io.ombtx.runner.kafka.KafkaClusters")) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(name, false, loader), name);
        }
    }

    @Test
    void withoutABrokerSystemOnTheClassPathAPlanNeedingOneIsToldWhereItLives() {
        IllegalStateException e = assertThrows(IllegalStateException.class, ClusterSystems::installed);
        assertTrue(e.getMessage().contains("runner-kafka"), e.getMessage());
    }
}

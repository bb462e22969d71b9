package io.ombtx.runner.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The runner's core — config, plan, run, stats, result, worker, fault and this package — names no Kafka class: what
 * it needs of a cluster goes through {@link ClusterSystem}, whose Kafka implementation lives in
 * {@code io.ombtx.runner.kafka}. (AeronRunsWithoutKafkaTest, in driver-aeron, runs a plan with no Kafka jar at all.)
 */
class CoreKnowsNoBrokerTest {

    private static final List<String> CORE =
            List.of("config", "plan", "run", "stats", "result", "worker", "fault", "cluster");
    private static final Pattern KAFKA = Pattern.compile("\\b(org\\.apache\\.kafka|io\\.ombtx\\.broker)\\.[A-Za-z]");

    @Test
    void noCoreSourceNamesAKafkaClass() throws Exception {
        Path root = OmbTxHome.locate().resolve("runner/src/main/java/io/ombtx/runner");
        List<String> offenders = new ArrayList<>();
        int files = 0;
        for (String pkg : CORE) {
            try (Stream<Path> sources = Files.walk(root.resolve(pkg))) {
                for (Path source :
                        sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
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
            }
        }
        assertTrue(files > 50, "the core's sources were found: " + files);
        assertEquals(List.of(), offenders);
    }
}

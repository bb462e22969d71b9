package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's acks SLA profiles on three brokers and the RPS sweep (the last part of suites/kafka-seeds.yaml, quick
 * profile, on embedded brokers).
 */
@Tag("integration")
class ScenarioLibraryAcksRatesTest {

    @TempDir
    static Path results;

    static SeedSuitePart PART;

    @BeforeAll
    static void runThePart() throws Exception {
        PART = SeedSuitePart.run("ScenarioLibraryAcksRatesTest", SeedSuitePart.ACKS_AND_RATES, results);
    }

    @Test
    void everyWorkloadOfThePartRanAndRecordsItsBrokerAndDrain() {
        PART.assertEveryWorkloadRan(SeedSuitePart.ACKS_AND_RATES);
        PART.assertBrokerReadBack();
        PART.assertCountBasedRunsDrained(2, "the RPS sweep's two rates are count-based with a consumer");
    }

    @Test
    void acksProfilesRunOnThreeBrokersWithTheirSettings() {
        String[][] profiles = {{"yolo", "2", "1", "1"}, {"throughput", "3", "1", "1"}, {"durable", "3", "2", "all"}};
        for (String[] p : profiles) {
            JsonNode r = PART.result("acks-sla-" + p[0]);
            assertEquals(3, r.at("/broker/brokers").asInt());
            assertEquals(
                    Integer.parseInt(p[1]),
                    r.at("/driverConfig/replicationFactor").asInt(),
                    p[0]);
            assertTrue(r.at("/driverConfig/topicConfig").asText().contains("min.insync.replicas=" + p[2]), p[0]);
            assertTrue(r.at("/driverConfig/producerConfig").asText().contains("acks=" + p[3]), p[0]);
            assertEquals(20_000, r.at("/counts/messagesSent").asLong(), p[0]);
            double seconds = r.at("/summary/durationSeconds").asDouble();
            assertEquals(
                    seconds * 1000 / 20_000, r.at("/summary/millisPerMessage").asDouble(), 1e-9);
            assertEquals(20_000 / seconds, r.at("/summary/messagesPerSecond").asDouble(), 1e-6 * 20_000 / seconds);
        }
    }

    @Test
    void theRpsSweepReportsEndToEndPercentilesPerRate() {
        for (int rate : new int[] {1000, 25000}) { // the quick profile: seed 004's lowest rate and its knee
            JsonNode r = PART.result("rps-sweep-" + rate);
            assertEquals("rps-sweep", r.at("/sweep/name").asText());
            assertEquals(rate, r.at("/sweep/value").asInt());
            assertEquals(rate, r.at("/runMode/targetRate").asInt());
            assertEquals(5000, r.at("/counts/messagesSent").asLong());
            JsonNode q = r.get("aggregatedEndToEndLatencyQuantiles");
            double previous = 0;
            for (String p : new String[] {"25.0", "50.0", "90.0", "99.0", "99.9"}) {
                assertTrue(q.has(p), p);
                assertTrue(q.get(p).asDouble() >= previous && q.get(p).asDouble() > 0, p + " in " + q);
                previous = q.get(p).asDouble();
            }
        }
    }
}

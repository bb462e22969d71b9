package io.openmessaging.benchmark.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The nested info classes are values, as OMB's are: equal by content, usable in sets, readable in logs. */
class InfoValuesTest {

    @Test
    void infosAreEqualByContent() {
        assertEquals(new BenchmarkDriver.TopicInfo("t", 2), new BenchmarkDriver.TopicInfo("t", 2));
        assertNotEquals(new BenchmarkDriver.TopicInfo("t", 2), new BenchmarkDriver.TopicInfo("t", 3));
        assertEquals(1, Set.of(new BenchmarkDriver.ProducerInfo(1, "t")).size());
        assertEquals(
                new BenchmarkDriver.ProducerInfo(1, "t").hashCode(),
                new BenchmarkDriver.ProducerInfo(1, "t").hashCode());
        assertEquals("TopicInfo[topic=t, partitions=2]", new BenchmarkDriver.TopicInfo("t", 2).toString());
        assertEquals("t", new BenchmarkDriver.TopicInfo("t", 2).getTopic(), "OMB's getters");
        assertEquals(
                new BenchmarkDriver.ConsumerInfo(0, "t", "s", null),
                new BenchmarkDriver.ConsumerInfo(0, "t", "s", null));
    }
}

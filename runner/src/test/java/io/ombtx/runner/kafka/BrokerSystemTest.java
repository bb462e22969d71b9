package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BrokerSystemTest {

    @Test
    void aRedpandaPrefixedClusterIdIsRedpanda() {
        assertEquals("redpanda", BrokerSystem.ofClusterId("redpanda.0b1f9ad2-5f0e-4c53-a0c8-9a1c7e2b1d44"));
    }

    @Test
    void aKafkaClusterIdIsKafka() {
        assertEquals("kafka", BrokerSystem.ofClusterId("b21iLXR4LWJlbmNobWFyaw"));
    }

    @Test
    void aClusterThatReportsNoIdIsTakenForKafka() {
        assertEquals("kafka", BrokerSystem.ofClusterId(null));
    }
}

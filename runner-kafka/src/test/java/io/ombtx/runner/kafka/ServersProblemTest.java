package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code bootstrap.servers} as the planner checks it: HOST:PORT entries, nothing kafka-clients would drop. */
class ServersProblemTest {

    private final KafkaClusters kafka = new KafkaClusters();

    @Test
    void hostPortEntriesPass() {
        for (String servers :
                new String[] {"b1:9092", " b1:9092 , b2:9093 ", "10.0.0.1:9092", "[::1]:9092", "broker-1.example:1"}) {
            assertEquals(Optional.empty(), kafka.serversProblem(servers), servers);
        }
    }

    @Test
    void aSchemeIsRefusedSayingWhatToWrite() {
        assertEquals(
                Optional.of("'http://h:9092' is not HOST:PORT: write h:9092 (bootstrap.servers takes no scheme: the"
                        + " protocol is security.protocol); kafka-clients would read it as h:9092, dropping"
                        + " the scheme unseen"),
                kafka.serversProblem("b1:9092,http://h:9092"));
        assertTrue(
                kafka.serversProblem("PLAINTEXT://[::1]:9092").orElseThrow().contains("write [::1]:9092"),
                kafka.serversProblem("PLAINTEXT://[::1]:9092").toString());
    }

    @Test
    void whatWasRefusedBeforeStillIs() {
        assertTrue(kafka.serversProblem("not a host:::").orElseThrow().contains("is not HOST:PORT"));
        assertTrue(kafka.serversProblem("h:70000").orElseThrow().contains("port outside 1 to 65535"));
        assertEquals(Optional.of("names no address (e.g. broker1:9092)"), kafka.serversProblem(" , "));
    }
}

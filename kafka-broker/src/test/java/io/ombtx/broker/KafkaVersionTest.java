package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which releases run how: ZooKeeper before 3.3, KRaft after, transaction.version from 4.0. No broker started. */
class KafkaVersionTest {

    @Test
    void releasesParseAndSayHowTheyRun() {
        KafkaVersion seeds = KafkaVersion.parse(" 2.8.2 ");
        assertEquals("2.8.2", seeds.toString());
        assertTrue(seeds.zooKeeper());
        assertFalse(seeds.hasTransactionVersion());
        assertTrue(KafkaVersion.parse("3.2.3").zooKeeper());
        assertFalse(KafkaVersion.parse("3.3.0").zooKeeper());
        assertFalse(KafkaVersion.parse("3.9.1").hasTransactionVersion());
        assertTrue(KafkaVersion.parse("4.0.0").hasTransactionVersion());
        assertTrue(KafkaVersion.parse("2.10.0").compareTo(KafkaVersion.parse("2.8.2")) > 0, "numeric, not text order");
        assertEquals("4.2.0", KafkaVersion.parse("4.2.0-SNAPSHOT").toString());
    }

    @Test
    void transactionVersionsOnlyOnKafka4() {
        assertNull(KafkaVersion.parse("4.1.1").transactionVersionProblem(2));
        assertNull(KafkaVersion.parse("4.1.1").transactionVersionProblem(0));
        assertTrue(KafkaVersion.parse("4.1.1").transactionVersionProblem(3).contains("0 to 2"));
        assertTrue(KafkaVersion.parse("2.8.2")
                .transactionVersionProblem(1)
                .startsWith("Kafka 2.8.2 has no transaction.version feature"));
    }

    @Test
    void badTextAndUnsupportedReleasesSayWhatIsExpected() {
        for (String bad : new String[] {"2.8", "latest", "", "2.8.x"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KafkaVersion.parse(bad));
            assertTrue(e.getMessage().contains("MAJOR.MINOR.PATCH"), e.getMessage());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KafkaVersion.parse("2.6.3"))
                .getMessage()
                .contains("not supported"));
        assertThrows(IllegalArgumentException.class, () -> KafkaVersion.parse("5.0.0"));
        assertThrows(IllegalArgumentException.class, () -> KafkaVersion.parse(null));
    }
}

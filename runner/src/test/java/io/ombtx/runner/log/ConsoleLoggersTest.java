package io.ombtx.runner.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ConsoleLoggersTest {

    @Test
    void aLoggersLevelIsTheMostSpecificConfiguredPrefixAtADot() {
        ConsoleLoggers loggers = new ConsoleLoggers(
                Map.of(
                        "default", Level.WARN,
                        "org.apache.kafka", Level.ERROR,
                        "org.apache.kafka.clients.producer.internals.Sender", Level.WARN),
                new ClientWarnings(() -> System.out, false));
        assertEquals(Level.WARN, loggers.levelOf("io.ombtx.runner.Main"));
        assertEquals(Level.ERROR, loggers.levelOf("org.apache.kafka.clients.NetworkClient"));
        assertEquals(Level.WARN, loggers.levelOf("org.apache.kafka.clients.producer.internals.Sender"));
        assertEquals(Level.WARN, loggers.levelOf("org.apache.kafkaesque"), "a prefix ends at a dot");
        assertFalse(loggers.getLogger("org.apache.kafka.clients.NetworkClient").isWarnEnabled());
        assertTrue(loggers.getLogger("org.apache.kafka.clients.NetworkClient").isErrorEnabled());
    }

    @Test
    void slf4jIsBoundToTheConsoleLoggersAndTheShippedLevelsAreRead() throws Exception {
        assertEquals(ConsoleLoggers.class, LoggerFactory.getILoggerFactory().getClass());
        Properties shipped = new Properties();
        try (InputStream in = ConsoleLoggers.class.getResourceAsStream("/ombtx-log.properties")) {
            shipped.load(in);
        }
        assertEquals("warn", shipped.getProperty("default"));
        assertFalse(LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient")
                .isWarnEnabled());
        assertTrue(LoggerFactory.getLogger("io.ombtx.runner.worker.LocalWorker").isWarnEnabled());
        assertFalse(
                LoggerFactory.getLogger("io.ombtx.runner.worker.LocalWorker").isInfoEnabled());
    }
}

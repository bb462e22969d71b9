package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The broker's own definitions judge settings before a broker starts. */
class BrokerConfigDefinitionsTest {

    private static BrokerConfigDefinitions definitions() {
        return BrokerConfigDefinitions.find().orElseThrow(() -> new AssertionError("target/broker-lib is laid out"));
    }

    @Test
    void everyProfileSettingIsAcceptedAsItIs() {
        BrokerConfigDefinitions d = definitions();
        for (BrokerProfile profile : BrokerProfile.values()) {
            profile.settings(3).forEach((key, value) -> {
                assertTrue(d.knows(key), key);
                assertEquals(Optional.empty(), d.problem(key, value), key);
            });
        }
    }

    @Test
    void typesAndValidatorsAreKafkasOwn() {
        BrokerConfigDefinitions d = definitions();
        String notANumber = d.problem("num.network.threads", "many").orElseThrow();
        assertTrue(notANumber.contains("many") && notANumber.contains("expects int"), notANumber);
        String belowMinimum = d.problem("num.network.threads", "0").orElseThrow();
        assertTrue(belowMinimum.contains("at least 1"), belowMinimum);
        String notAChoice = d.problem("log.cleanup.policy", "shred").orElseThrow();
        assertTrue(notAChoice.contains("shred"), notAChoice);
        assertEquals(Optional.empty(), d.problem("log.retention.ms", "-1"));
    }

    @Test
    void topicSettingsAreJudgedByTheReleasesTopicDefinitions() {
        BrokerConfigDefinitions d = definitions();
        assertTrue(d.hasTopicDefinitions());
        assertTrue(d.knowsTopic("retention.ms"));
        assertTrue(d.knowsTopic("min.insync.replicas"));
        assertFalse(d.knowsTopic("retention.msx"));
        assertFalse(d.knowsTopic("log.retention.ms"), "a broker key, not a topic key");
        String notANumber = d.topicProblem("min.insync.replicas", "zero").orElseThrow();
        assertTrue(notANumber.contains("zero") && notANumber.contains("expects int"), notANumber);
        assertEquals(Optional.empty(), d.topicProblem("cleanup.policy", "compact"));
    }

    @Test
    void unknownKeysAreUnknownExceptPrefixedOnes() {
        BrokerConfigDefinitions d = definitions();
        assertFalse(d.knows("num.network.thread"));
        assertTrue(d.knows("listener.name.plaintext.ssl.keystore.location"));
        assertFalse(d.knows("listener.name."));
    }

    @Test
    void theDefinitionsLoadWhateverTheCallersContextClassLoader() throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(ClassLoader.getPlatformClassLoader()); // no kafka-clients there
        try {
            BrokerConfigDefinitions d = BrokerConfigDefinitions.load(BrokerClassPath.locate());
            assertTrue(d.knows("num.network.threads"));
            assertTrue(d.problem("num.network.threads", "0").isPresent());
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}

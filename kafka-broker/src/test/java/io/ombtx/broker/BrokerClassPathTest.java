package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the launcher finds the broker's class path, and what it says when it cannot. */
class BrokerClassPathTest {

    @TempDir
    Path dir;

    /** A folder laid out like kafka-broker/target: the launcher jar and broker-lib/ with a broker of {@code version}. */
    private Path launcherJarWithBrokerLib(String folder, String version) throws IOException {
        Path target = Files.createDirectories(dir.resolve(folder));
        Path jar = Files.write(target.resolve("kafka-broker-0.1.0-SNAPSHOT.jar"), new byte[] {1});
        brokerFolder(target.resolve("broker-lib"), version);
        return jar;
    }

    private static Path brokerFolder(Path folder, String version) throws IOException {
        Files.createDirectories(folder);
        Files.write(folder.resolve("kafka_2.13-" + version + ".jar"), new byte[] {1});
        Files.write(folder.resolve("kafka-clients-" + version + ".jar"), new byte[] {1});
        Files.write(folder.resolve("scala-library-2.13.16.jar"), new byte[] {1});
        return folder;
    }

    /** The three jars {@link #brokerFolder} writes, as a class path, sorted by name. */
    private static String jars(Path folder, String version) {
        return String.join(
                File.pathSeparator,
                folder.resolve("kafka-clients-" + version + ".jar").toString(),
                folder.resolve("kafka_2.13-" + version + ".jar").toString(),
                folder.resolve("scala-library-2.13.16.jar").toString());
    }

    @Test
    void theBrokerFolderBesideTheLauncherJarIsUsedWithTheLauncherOnTheClassPath() throws Exception {
        Path jar = launcherJarWithBrokerLib("install/lib", "4.1.1");
        BrokerClassPath found = BrokerClassPath.locate(null, null, jar);
        Path lib = dir.resolve("install/lib/broker-lib");
        assertEquals(lib, found.brokerLib());
        assertEquals(jar, found.launcher());
        assertEquals("4.1.1", found.kafkaVersion());
        assertEquals(
                jars(lib, "4.1.1") + File.pathSeparator + jar,
                found.classPath(),
                "the jars by name, the launcher last");
    }

    @Test
    void theBrokerFolderBesideTheClassFolderIsUsedWhenRunFromTheBuildTree() throws Exception {
        Path classes = Files.createDirectories(dir.resolve("kafka-broker/target/classes"));
        brokerFolder(dir.resolve("kafka-broker/target/broker-lib"), "4.1.1");
        BrokerClassPath found = BrokerClassPath.locate(null, "", classes);
        assertEquals(dir.resolve("kafka-broker/target/broker-lib"), found.brokerLib());
        assertEquals(jars(found.brokerLib(), "4.1.1") + File.pathSeparator + classes, found.classPath());
    }

    @Test
    void thePropertyOverridesTheVariableAndTheFolderBesideTheLauncher() throws Exception {
        Path jar = launcherJarWithBrokerLib("install/lib", "4.1.1");
        Path byProperty = brokerFolder(dir.resolve("by-property"), "4.2.0");
        Path byVariable = brokerFolder(dir.resolve("by-variable"), "4.0.0");

        BrokerClassPath found = BrokerClassPath.locate(byProperty.toString(), byVariable.toString(), jar);
        assertEquals(byProperty, found.brokerLib());
        assertEquals("4.2.0", found.kafkaVersion());
        assertEquals(
                jars(byProperty, "4.2.0") + File.pathSeparator + jar,
                found.classPath(),
                "the brokers' main class still comes from the launcher");

        BrokerClassPath variable = BrokerClassPath.locate(" ", byVariable.toString(), jar);
        assertEquals(byVariable, variable.brokerLib(), "a blank property counts as unset");
        assertEquals("4.0.0", variable.kafkaVersion());
    }

    @Test
    void aMissingBrokerFolderIsAClearErrorNamingWhatWasTriedAndHowToFixIt() throws Exception {
        Path target = Files.createDirectories(dir.resolve("kafka-broker/target"));
        Path jar = Files.write(target.resolve("kafka-broker-0.1.0-SNAPSHOT.jar"), new byte[] {1});
        BrokerStartException e =
                assertThrows(BrokerStartException.class, () -> BrokerClassPath.locate(null, null, jar));
        String message = e.getMessage();
        assertTrue(
                message.startsWith("the Kafka broker's class path was not found. Tried:\n  "
                        + target.resolve("broker-lib") + " (broker-lib/ beside " + jar + "): no such folder\n"),
                message);
        assertTrue(message.contains("mvn -q -DskipTests package"), message);
        assertTrue(message.contains("-Dombtx.broker.lib=DIR or OMBTX_BROKER_LIB=DIR"), message);
    }

    @Test
    void aWrongOverrideIsAnErrorEvenWhenTheFolderBesideTheLauncherExists() throws Exception {
        Path jar = launcherJarWithBrokerLib("install/lib", "4.1.1");
        Path missing = dir.resolve("no-such-folder");
        BrokerStartException byProperty =
                assertThrows(BrokerStartException.class, () -> BrokerClassPath.locate(missing.toString(), null, jar));
        assertTrue(
                byProperty.getMessage().contains(missing + " (-Dombtx.broker.lib=" + missing + "): no such folder"),
                byProperty.getMessage());

        Path empty = Files.createDirectories(dir.resolve("empty"));
        BrokerStartException byVariable =
                assertThrows(BrokerStartException.class, () -> BrokerClassPath.locate(null, empty.toString(), jar));
        assertTrue(
                byVariable
                        .getMessage()
                        .contains(empty + " (OMBTX_BROKER_LIB=" + empty + "): no kafka_2.13-<version>.jar in it"),
                byVariable.getMessage());
    }

    @Test
    void inThisBuildTheBrokerFolderLiesBesideTheLauncher() throws Exception {
        Path launcher = BrokerClassPath.launcherLocation().orElseThrow();
        BrokerClassPath found = BrokerClassPath.locate(null, null, launcher);
        assertEquals(launcher.resolveSibling("broker-lib"), found.brokerLib());
        assertTrue(found.kafkaVersion().startsWith("4.1."), found.kafkaVersion());
        assertTrue(Files.exists(found.brokerLib().resolve("kafka_2.13-" + found.kafkaVersion() + ".jar")));
        try (var files = Files.list(found.brokerLib())) {
            assertFalse(
                    files.anyMatch(f -> f.getFileName().toString().startsWith("junit-")), "no JUnit for the broker");
        }
    }
}

package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Broker storage formatted by the built-in release's storage tool, once, then from its template. */
class BrokerStorageTest {

    @TempDir
    Path dir;

    /** A kind of broker no other test starts (an unknown setting, which the tool and broker ignore). */
    private final String kind = UUID.randomUUID().toString();

    private Path config(int node, String extraSetting) throws Exception {
        Path nodeDir = Files.createDirectories(dir.resolve("broker-" + node));
        Properties props = new Properties();
        props.setProperty("process.roles", "broker,controller");
        props.setProperty("node.id", Integer.toString(node));
        props.setProperty("controller.quorum.voters", "1@127.0.0.1:19093,2@127.0.0.1:19095,3@127.0.0.1:19097");
        props.setProperty(
                "listeners",
                "PLAINTEXT://127.0.0.1:" + (19090 + 2 * node) + ",CONTROLLER://127.0.0.1:" + (19091 + 2 * node));
        props.setProperty("controller.listener.names", "CONTROLLER");
        props.setProperty("log.dirs", nodeDir.resolve("data").toString());
        props.setProperty("ombtx.test.kind", kind);
        if (extraSetting != null) {
            props.setProperty(extraSetting, "x");
        }
        Path config = nodeDir.resolve("server.properties");
        try (Writer out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            props.store(out, null);
        }
        return config;
    }

    private static Properties meta(Path config) throws Exception {
        Properties meta = new Properties();
        try (Reader in = Files.newBufferedReader(
                config.resolveSibling("data").resolve(BrokerStorage.META), StandardCharsets.UTF_8)) {
            meta.load(in);
        }
        return meta;
    }

    private static List<String> files(Path folder) throws Exception {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theToolFormatsOnceAndEveryBrokerOfTheKindGetsItsOwnCopy() throws Exception {
        BrokerClassPath classPath = BrokerClassPath.locate();
        String cluster = BrokerStorage.randomClusterId();
        Path first = config(1, null);
        Path second = config(2, null);

        assertEquals(
                BrokerStorage.Formatted.TEMPLATE, BrokerStorage.format(classPath, first, cluster, null, List.of()));
        assertEquals(
                BrokerStorage.Formatted.TEMPLATE, BrokerStorage.format(classPath, second, cluster, null, List.of()));

        Properties one = meta(first);
        Properties two = meta(second);
        assertEquals("1", one.getProperty("node.id"));
        assertEquals("2", two.getProperty("node.id"));
        assertEquals(cluster, one.getProperty("cluster.id"));
        assertEquals(cluster, two.getProperty("cluster.id"));
        // Kafka 3.7+ (the built-in release) gives each log folder a directory id of its own.
        assertTrue(one.getProperty("directory.id").matches("[A-Za-z0-9_-]{22}"), one.toString());
        assertNotEquals(one.getProperty("directory.id"), two.getProperty("directory.id"));
        assertEquals(List.of(BrokerStorage.BOOTSTRAP, BrokerStorage.META), files(first.resolveSibling("data")));
        assertArrayEquals(
                Files.readAllBytes(first.resolveSibling("data").resolve(BrokerStorage.BOOTSTRAP)),
                Files.readAllBytes(second.resolveSibling("data").resolve(BrokerStorage.BOOTSTRAP)));
        assertTrue(Files.notExists(first.resolveSibling("format.log")), "the tool did not run for the broker itself");

        // A template holding anything else (a release that writes more than these two) is not copied.
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(second, StandardCharsets.UTF_8)) {
            settings.load(in);
        }
        Path template = BrokerStorage.template(classPath, settings, null).orElseThrow();
        Files.writeString(template.resolve("stray"), "x");
        try {
            Path third = config(3, null);
            assertEquals(
                    BrokerStorage.Formatted.TOOL, BrokerStorage.format(classPath, third, cluster, null, List.of()));
            assertEquals("3", meta(third).getProperty("node.id"));
        } finally {
            Files.delete(template.resolve("stray"));
        }
    }

    @Test
    void scramCredentialsAndASeparateMetadataFolderAreFormattedByTheTool() throws Exception {
        BrokerClassPath classPath = BrokerClassPath.locate();
        String cluster = BrokerStorage.randomClusterId();
        Path scram = config(1, null);
        assertEquals(
                BrokerStorage.Formatted.TOOL,
                BrokerStorage.format(
                        classPath,
                        scram,
                        cluster,
                        null,
                        List.of("--add-scram", "SCRAM-SHA-256=[name=alice,password=alice-secret]")));
        assertTrue(Files.isRegularFile(scram.resolveSibling("format.log")));
        assertEquals(cluster, meta(scram).getProperty("cluster.id"));

        Path metadataApart = config(2, "metadata.log.dir");
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(metadataApart, StandardCharsets.UTF_8)) {
            settings.load(in);
        }
        assertTrue(BrokerStorage.template(classPath, settings, null).isEmpty());
    }
}

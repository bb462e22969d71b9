package io.ombtx.runner.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriverFileTest {

    @TempDir
    Path dir;

    private DriverFile write(String yaml) throws Exception {
        return DriverFile.load(Files.writeString(dir.resolve("driver.yaml"), yaml));
    }

    @Test
    void noBootstrapOrEmbeddedMeansTheEmbeddedBroker() throws Exception {
        assertTrue(write("name: k\ndriverClass: a.B\n").wantsEmbeddedBroker());
        assertTrue(write("name: k\ndriverClass: a.B\ncommonConfig: |\n  bootstrap.servers=embedded\n")
                .wantsEmbeddedBroker());
        DriverFile external =
                write("name: k\ndriverClass: a.B\ncommonConfig: |\n  bootstrap.servers=h1:9092,h2:9092\n");
        assertEquals("h1:9092,h2:9092", external.bootstrapServers());
    }

    @Test
    void aPropertyGivenTwiceInOneBlockIsAnErrorAsADuplicateYamlKeyIs() throws Exception {
        for (String block : new String[] {
            "producerConfig: |\n  acks=all\n  linger.ms=5\n  acks=1\n",
            "producerConfig: |\n  acks: all\n  # acks=0\n  acks = 1\n",
            "producerConfig: |\n  acks all\n  ! acks=0\n  acks\t1\n",
            "producerConfig: |\n  acks=all\n  ac\\\n    ks=1\n",
        }) {
            ConfigException e =
                    assertThrows(ConfigException.class, () -> write("name: k\ndriverClass: a.B\n" + block), block);
            assertEquals(dir.resolve("driver.yaml").toString(), e.file(), block);
            assertEquals("producerConfig.acks", e.key(), block);
            assertEquals(
                    "given twice in producerConfig (kafka-clients would keep the last value unseen): give it once",
                    e.problem(),
                    block);
        }
        ConfigException common = assertThrows(
                ConfigException.class,
                () -> write("name: k\ndriverClass: a.B\ncommonConfig: |\n  bootstrap.servers=a:1\n"
                        + "  bootstrap.servers=b:1\n"));
        assertEquals("commonConfig.bootstrap.servers", common.key());

        DriverFile apart =
                write("name: k\ndriverClass: a.B\ncommonConfig: |\n  acks=all\nproducerConfig: |\n  acks=all\n");
        assertEquals("all", apart.properties("producerConfig").getProperty("acks"), "one key in two blocks is fine");
    }

    @Test
    void aWorkloadOverrideGivenTwiceInOneBlockIsAnErrorToo() {
        ConfigException e = assertThrows(
                ConfigException.class, () -> overrides("  producerConfig: |\n    acks=all\n    acks: 1\n"));
        assertEquals("driverOverrides.producerConfig.acks", e.key());
        assertTrue(e.problem().startsWith("given twice in producerConfig"), e.problem());
    }

    @Test
    void theEffectiveCopyNamesEveryKeyOnceSoADriverOrWorkerReadsItBack() throws Exception {
        DriverFile base = write(
                """
                name: k
                driverClass: a.B
                commonConfig: |
                  # where the brokers are
                  bootstrap.servers h:1
                  client.id=c
                producerConfig: |
                  acks=1
                  linger.ms=5
                """);
        DriverFile effective = base.effective(
                new DriverOverrides(null, Map.of("producerConfig", Map.of("acks", "all"))), "127.0.0.1:1234");
        Path copy = Files.writeString(dir.resolve("effective.yaml"), effective.toYaml());
        DriverFile back = DriverFile.load(copy);
        assertEquals("127.0.0.1:1234", back.bootstrapServers());
        assertEquals("c", back.properties("commonConfig").getProperty("client.id"));
        assertEquals("all", back.properties("producerConfig").getProperty("acks"));
        assertEquals(
                "acks=all\nlinger.ms=5\n",
                effective.redacted().get("producerConfig"),
                "an override takes the file's setting's place");
    }

    @Test
    void effectiveCopyCarriesOverridesAndTheRealBootstrap() throws Exception {
        DriverFile base = write(
                """
                name: k
                driverClass: a.B
                replicationFactor: 1
                commonConfig: |
                  bootstrap.servers=embedded
                  request.timeout.ms=1000
                producerConfig: |
                  acks=1
                """);
        DriverFile effective = base.effective(
                new DriverOverrides(
                        3,
                        Map.of(
                                "producerConfig",
                                Map.of("acks", "all"),
                                "topicConfig",
                                Map.of("min.insync.replicas", "2"))),
                "127.0.0.1:1234");
        assertEquals(3, effective.replicationFactor());
        assertEquals("all", effective.properties("producerConfig").getProperty("acks"), "the override wins");
        assertEquals("2", effective.properties("topicConfig").getProperty("min.insync.replicas"));
        assertEquals("127.0.0.1:1234", effective.bootstrapServers());
        assertEquals("1000", effective.properties("commonConfig").getProperty("request.timeout.ms"));
        assertEquals(1, base.replicationFactor(), "the user's configuration is not changed");
    }

    private static DriverOverrides overrides(String block) {
        String yaml = "name: w\nmessageSize: 10\ntestDurationSeconds: 5\ndriverOverrides:\n" + block;
        return WorkloadLoader.expand(
                        "w.yaml",
                        Path.of("."),
                        (com.fasterxml.jackson.databind.node.ObjectNode)
                                io.ombtx.driver.api.config.YamlFiles.parse("w.yaml", yaml),
                        null)
                .get(0)
                .driverOverrides();
    }

    @Test
    void workloadOverridesAreTypedSettingsWhetherGivenAsTextOrAsAMapping() throws Exception {
        DriverOverrides text =
                overrides("  replicationFactor: 3\n  producerConfig: |\n    # durable\n    acks = 1\n    linger.ms 10\n"
                        + "    ssl.keystore.location=C:\\\\keys\\\\k.jks\n");
        assertEquals(3, text.replicationFactor());
        assertEquals(
                Map.of(
                        "producerConfig",
                        Map.of("acks", "1", "linger.ms", "10", "ssl.keystore.location", "C:\\keys\\k.jks")),
                text.settings(),
                "read as kafka-clients reads the block: comments and spacing gone");
        assertEquals(
                java.util.List.of("acks", "linger.ms", "ssl.keystore.location"),
                java.util.List.copyOf(text.settings().get("producerConfig").keySet()),
                "in the order the keys first appear");
        DriverOverrides mapping =
                overrides("  producerConfig: {acks: '1', linger.ms: 10, ssl.keystore.location: 'C:\\keys\\k.jks'}\n");
        assertEquals(text.settings(), mapping.settings(), "a mapping says the same");

        // Merged into the driver YAML's block as text, they reach the client unchanged.
        DriverFile effective = write("name: k\ndriverClass: a.B\nproducerConfig: |\n  acks=0\n")
                .effective(text, null);
        assertEquals("1", effective.properties("producerConfig").getProperty("acks"));
        assertEquals("C:\\keys\\k.jks", effective.properties("producerConfig").getProperty("ssl.keystore.location"));
        assertEquals(
                "acks=1\nlinger.ms=10\nssl.keystore.location=C:\\\\keys\\\\k.jks\n",
                text.propertyBlocks().get("producerConfig"));
    }

    @Test
    void secretsAreRedactedForResults() throws Exception {
        DriverFile config = write(
                """
                name: k
                driverClass: a.B
                commonConfig: |
                  bootstrap.servers=h:9092
                  sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="hunter2";
                  ssl.truststore.password=changeit
                  basic.auth.user.info=user:registry-secret
                adminPassword: s3cret
                """);
        String text = config.redacted().toString();
        assertFalse(text.contains("registry-secret"), "Schema Registry's user:password: " + text);
        assertFalse(text.contains("hunter2"), text);
        assertFalse(text.contains("changeit"), text);
        assertFalse(text.contains("s3cret"), text);
        assertTrue(text.contains("bootstrap.servers=h:9092"), text);
        assertTrue(text.contains("sasl.jaas.config=" + DriverFile.REDACTED), text);
        assertEquals("k", config.redacted().get("name"), "plain values are kept as they are");
    }

    @Test
    void driverClassIsRequired() {
        ConfigException e = assertThrows(ConfigException.class, () -> write("name: k\n"));
        assertEquals("driverClass", e.key());
        assertTrue(e.getMessage().contains("driver.yaml: key 'driverClass': required"), e.getMessage());
    }

    @Test
    void propertiesBlocksMustBeText() {
        ConfigException e = assertThrows(
                ConfigException.class, () -> write("name: k\ndriverClass: a.B\nproducerConfig:\n  acks: all\n"));
        assertEquals("producerConfig", e.key());
        assertNull(null);
    }

    @Test
    void secretsAreRedactedWhateverTheSeparator() throws Exception {
        DriverFile config = write(
                """
                name: k
                driverClass: a.B
                commonConfig: |
                  # ssl.key.password=CommentSecret is a comment
                  bootstrap.servers=h:9092
                  ssl.keystore.password SuperSecret
                  ssl.key.password:ColonSecret
                  ssl.truststore.password = EqualsSecret
                  sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\
                      username="u" \\
                      password="ContinuedSecret";
                  client.id  my client
                producerConfig: |
                  acks all
                  ssl.keystore.password\tTabSecret
                  linger.ms=5
                """);
        String text = config.redacted().toString();
        for (String secret : new String[] {
            "SuperSecret", "ColonSecret", "EqualsSecret", "ContinuedSecret", "TabSecret", "CommentSecret", "username"
        }) {
            assertFalse(text.contains(secret), secret + " in " + text);
        }
        String common = (String) config.redacted().get("commonConfig");
        assertEquals(
                "bootstrap.servers=h:9092\nssl.keystore.password=<redacted>\nssl.key.password=<redacted>\n"
                        + "ssl.truststore.password=<redacted>\nsasl.jaas.config=<redacted>\nclient.id=my client\n",
                common);
        assertEquals(
                "acks=all\nssl.keystore.password=<redacted>\nlinger.ms=5\n",
                config.redacted().get("producerConfig"));
    }

    @Test
    void redactedPropertiesReadBackToTheSameValues() throws Exception {
        String text = "a\\ key=x\nb = \\ lead\\\\back\\nslash\nc:=d#e\nb=last\n";
        java.util.Properties original = new java.util.Properties();
        original.load(new java.io.StringReader(text));
        java.util.Properties back = new java.util.Properties();
        back.load(new java.io.StringReader(DriverFile.redactProperties(text)));
        assertEquals(original, back);
        assertEquals("last", back.getProperty("b"), "the last repeated key wins");
    }

    @Test
    void aYamlSyntaxErrorNamesLineAndColumnButNotTheLine() throws Exception {
        Files.writeString(
                dir.resolve("driver.yaml"),
                """
                name: k
                driverClass: a.B
                commonConfig: |
                  bootstrap.servers=h:9092
                adminPassword: "Sup3rSecret: unclosed
                replicationFactor: 1
                """);
        ConfigException e = assertThrows(ConfigException.class, () -> DriverFile.load(dir.resolve("driver.yaml")));
        assertFalse(e.getMessage().contains("Sup3rSecret"), e.getMessage());
        assertFalse(e.getMessage().contains("adminPassword"), e.getMessage());
        assertTrue(
                e.getMessage().matches("(?s).*driver\\.yaml: not valid YAML at line \\d+, column \\d+: \\S.*"),
                e.getMessage());

        Files.writeString(dir.resolve("driver.yaml"), "name: k\ndriverClass: a.B\npassword: hunter2: x\n");
        e = assertThrows(ConfigException.class, () -> DriverFile.load(dir.resolve("driver.yaml")));
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
        assertTrue(e.getMessage().contains("not valid YAML at line 3, column "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }
}

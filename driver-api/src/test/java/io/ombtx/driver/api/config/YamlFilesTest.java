package io.ombtx.driver.api.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** YAML errors: where and what kind, whole, and never the user's text (it may hold a secret). */
class YamlFilesTest {

    @TempDir
    Path dir;

    @Test
    void anUnclosedListSaysWhatWasExpectedInFull() {
        ConfigException e =
                assertThrows(ConfigException.class, () -> YamlFiles.parse("workers.yaml", "workers: [http://a:8080\n"));
        assertEquals(
                "workers.yaml: not valid YAML at line 2, column 1: expected ',' or ']', but got <stream end>",
                e.getMessage());
    }

    @Test
    void snakeYamlsTokenNamesStayAndTheUsersTextGoes() {
        assertEquals(
                "expected <block end>, but found '<block sequence start>'",
                YamlFiles.withoutQuotes("expected <block end>, but found '<block sequence start>'"));
        assertEquals(
                "found unknown escape character (…)",
                YamlFiles.withoutQuotes("found unknown escape character 'hunter2'"));
        assertEquals(
                "expected ',' or '}', but got (…)", YamlFiles.withoutQuotes("expected ',' or '}', but got \"s3cret\""));
        assertEquals(
                "found character '\\t' that cannot start any token",
                YamlFiles.withoutQuotes("found character '\\t' that cannot start any token"));
    }

    @Test
    void aBadIndentNamesLineAndColumnWithoutTheLine() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> YamlFiles.parse("w.yaml", "workers:\n  - http://a:8080\n - password: hunter22\n"));
        assertTrue(e.getMessage().startsWith("w.yaml: not valid YAML at line 3, column "), e.getMessage());
        assertFalse(e.getMessage().contains("hunter22"), e.getMessage());
    }

    @Test
    void anAliasIsTheValueItsAnchorMarkedNotTheAnchorsName() {
        JsonNode root = YamlFiles.parse(
                "w.yaml",
                "profiles:\n  quick: &q {measureOperations: 1, operation: {kind: WRITE}}\n  ci: *q\n"
                        + "rates: [&low 100, *low]\n");
        assertEquals(root.path("profiles").path("quick"), root.path("profiles").path("ci"));
        assertEquals(
                1, root.path("profiles").path("ci").path("measureOperations").asInt());
        assertTrue(root.path("rates").get(1).isIntegralNumber(), root.toString());
        assertEquals(100, root.path("rates").get(1).asInt());
    }

    @Test
    void aMergeKeyAddsTheAnchoredKeysTheMappingDoesNotSet() {
        JsonNode root = YamlFiles.parse("w.yaml", "base: &b {a: 1, b: 2}\nmine:\n  <<: *b\n  b: 3\n");
        assertEquals(1, root.path("mine").path("a").asInt());
        assertEquals(3, root.path("mine").path("b").asInt());
        assertFalse(root.path("mine").has("<<"));
    }

    @Test
    void aBillionLaughsFileStopsWithAnError() {
        StringBuilder yaml = new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 10; i++) {
            yaml.append("a").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 9; j++) {
                yaml.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
            }
            yaml.append("]\n");
        }
        ConfigException e = assertThrows(ConfigException.class, () -> YamlFiles.parse("w.yaml", yaml.toString()));
        assertTrue(e.getMessage().startsWith("w.yaml: more than 1000000 values"), e.getMessage());
    }

    @Test
    void aKeyWithNothingUnderItIsNullAndAnEmptyQuotedStringStaysEmpty() {
        JsonNode root = YamlFiles.parse("d.yaml", "a: 1\nmediaDriver:\n  # threadingMode: SHARED\nb: ''\nc:\n");
        assertTrue(root.get("mediaDriver").isNull(), root.toString());
        assertTrue(root.get("c").isNull(), root.toString());
        assertEquals("", root.get("b").textValue(), root.toString());
    }

    @Test
    void aDuplicateKeyIsStillAnError() {
        ConfigException e = assertThrows(ConfigException.class, () -> YamlFiles.parse("w.yaml", "name: a\nname: b\n"));
        assertTrue(e.getMessage().contains("Duplicate field 'name'"), e.getMessage());
    }

    @Test
    void aFileAboveTheSizeBoundIsRefusedBeforeItIsParsed() throws Exception {
        int bound = 1_048_576;
        Path atBound = dir.resolve("at.yaml");
        String head = "name: w\ndescription: ";
        Files.writeString(atBound, head + "x".repeat(bound - head.length() - 1) + "\n");
        assertEquals(bound, Files.size(atBound));
        assertEquals("w", YamlFiles.read(atBound).path("name").asText(), "a file of exactly the bound is read");

        Path above = dir.resolve("above.yaml");
        Files.writeString(above, head + "x".repeat(2 * bound) + "\n");
        ConfigException e = assertThrows(ConfigException.class, () -> YamlFiles.read(above));
        assertEquals(
                above + ": the file is " + Files.size(above) + " bytes, above the limit of 1048576 bytes (1 MiB) for"
                        + " a YAML file omb-tx reads (is it the file you meant?)",
                e.getMessage());
    }

    @Test
    void listsOrMappingsNestedTooDeepSaySoWithTheLine() {
        ConfigException lists = assertThrows(
                ConfigException.class,
                () -> YamlFiles.parse("w.yaml", "name: w\ntopics: " + "[".repeat(20_000) + "]".repeat(20_000) + "\n"));
        assertTrue(
                lists.getMessage()
                        .matches("w\\.yaml: not valid YAML at line 2, column \\d+: lists and mappings nested more than"
                                + " 100 deep \\(.*\\)"),
                lists.getMessage());
        ConfigException mappings = assertThrows(
                ConfigException.class,
                () -> YamlFiles.parse("d.yaml", "name: k\nt:\n" + "  {a:\n".repeat(3_000) + "1" + "}".repeat(3_000)));
        assertTrue(
                mappings.getMessage().startsWith("d.yaml: not valid YAML at line 102, column "), mappings.getMessage());
        assertTrue(mappings.getMessage().contains("nested more than 100 deep"), mappings.getMessage());

        String deepest = "[".repeat(99) + "]".repeat(99);
        assertEquals(
                1, YamlFiles.parse("w.yaml", "a: " + deepest + "\n").path("a").size(), "100 deep is read");
    }

    @Test
    void aFileThatIsNotUtf8SaysSoWithWhere() throws Exception {
        byte[] random = new byte[770];
        new java.util.Random(7).nextBytes(random);
        Files.write(dir.resolve("random.yaml"), random);
        ConfigException e = assertThrows(ConfigException.class, () -> YamlFiles.read(dir.resolve("random.yaml")));
        assertTrue(e.getMessage().startsWith(dir.resolve("random.yaml") + ": not UTF-8 text: byte "), e.getMessage());

        Files.write(
                dir.resolve("latin1.yaml"),
                "name: w\ndescription: caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        e = assertThrows(ConfigException.class, () -> YamlFiles.read(dir.resolve("latin1.yaml")));
        assertEquals(
                dir.resolve("latin1.yaml") + ": not UTF-8 text: byte 25 (line 2) is not part of a UTF-8 character; a"
                        + " YAML file is read as UTF-8 (was it saved in another encoding?)",
                e.getMessage());
    }
}

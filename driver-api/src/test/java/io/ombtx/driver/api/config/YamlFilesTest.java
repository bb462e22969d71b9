package io.ombtx.driver.api.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** YAML errors: where and what kind, whole, and never the user's text (it may hold a secret). */
class YamlFilesTest {

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
}

package io.ombtx.driver.api.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a YAML file into a tree, turning every failure into a {@link ConfigException} naming the file. A key given
 * twice in one mapping is an error: YAML would silently keep the last one.
 */
public final class YamlFiles {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private YamlFiles() {
    }

    public static ObjectMapper mapper() {
        return YAML;
    }

    public static JsonNode read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file.toString(), null, "file not found");
        } catch (IOException e) {
            throw new ConfigException(file.toString(), null, "cannot read: " + e.getMessage());
        }
        return parse(file.toString(), text);
    }

    public static JsonNode parse(String fileName, String text) {
        try {
            JsonNode root = YAML.readTree(text);
            if (root == null || !root.isObject()) {
                throw new ConfigException(fileName, null, "expected a YAML mapping of keys to values at the top level");
            }
            return root;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
            throw new ConfigException(fileName, null, "not valid YAML" + where + ": " + e.getOriginalMessage());
        }
    }
}

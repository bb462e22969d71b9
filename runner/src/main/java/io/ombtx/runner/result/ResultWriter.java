package io.ombtx.runner.result;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Writes a {@link RunResult} as result JSON. A default name carries workload, driver and time, and never overwrites
 * an earlier file.
 */
public final class ResultWriter {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private ResultWriter() {}

    public static ObjectMapper json() {
        return JSON;
    }

    /** {@code <workload>-<driver>-<stamp>[-N].json} in {@code dir}, the first name not already taken. */
    public static Path defaultPath(Path dir, String workload, String driver, ZonedDateTime when) {
        String base =
                safe(workload) + "-" + safe(driver) + "-" + STAMP.format(when.withZoneSameInstant(ZoneOffset.UTC));
        Path candidate = dir.resolve(base + ".json");
        for (int n = 2; Files.exists(candidate); n++) {
            candidate = dir.resolve(base + "-" + n + ".json");
        }
        return candidate;
    }

    /** Writes {@code result}; creates the folder; refuses to replace an existing file by taking the next free name. */
    public static Path write(Path target, RunResult result) throws IOException {
        if (target.getParent() != null) {
            Files.createDirectories(target.getParent());
        }
        Path path = target;
        String name = target.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        for (int n = 2; ; n++) {
            try {
                Files.write(
                        path, JSON.writeValueAsBytes(result), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                return path;
            } catch (java.nio.file.FileAlreadyExistsException taken) {
                path = target.resolveSibling(stem + "-" + n + ".json");
            }
        }
    }

    private static String safe(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]+", "_");
    }
}

package io.ombtx.runner.result;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

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

    /**
     * Where a result went: {@code file} (null when nowhere could take it), and when that is not the file asked for,
     * the path that could not be written ({@code failedPath}) and why ({@code failure}).
     */
    public record Saved(Path file, Path failedPath, IOException failure) {

        /** Whether the result is not where it was asked to go (kept elsewhere, or lost). */
        public boolean misplaced() {
            return failure != null;
        }

        /** "could not write /x/r.json: No space left on device", or null. */
        public String problem() {
            return failure == null ? null : "could not write " + failedPath + ": " + reason(failure);
        }
    }

    /** How a result's bytes reach its temporary file (a seam: tests make it fail half way, as a full disk does). */
    interface BytesOut {
        void write(Path file, byte[] bytes) throws IOException;
    }

    private static final BytesOut FILES = (file, bytes) -> Files.write(file, bytes, StandardOpenOption.WRITE);

    /**
     * Writes {@code result}; creates the folder; refuses to replace an existing file by taking the next free name.
     * The file appears whole or not at all: written to a temporary file in the same folder, then linked (or moved
     * atomically) to its name.
     */
    public static Path write(Path target, RunResult result) throws IOException {
        return write(target, JSON.writeValueAsBytes(result), FILES);
    }

    /**
     * As {@link #write}, but a result that cannot be written there (a full disk, a folder gone) is kept in the first
     * of {@link #fallbackFolders()} that takes it: a measurement is never lost to its output folder.
     */
    public static Saved writeOrKeep(Path target, RunResult result) throws IOException {
        return writeOrKeep(target, result, fallbackFolders(), FILES);
    }

    /** Where a result goes that cannot be written where asked: {@code ~/.omb-tx/unsaved}, then the temp folder. */
    public static List<Path> fallbackFolders() {
        return List.of(
                Path.of(System.getProperty("user.home"), ".omb-tx", "unsaved"),
                Path.of(System.getProperty("java.io.tmpdir"), "omb-tx-unsaved"));
    }

    static Saved writeOrKeep(Path target, RunResult result, List<Path> fallbacks, BytesOut out) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(result);
        try {
            return new Saved(write(target, bytes, out), null, null);
        } catch (IOException failure) {
            for (Path folder : fallbacks) {
                try {
                    return new Saved(write(folder.resolve(target.getFileName()), bytes, FILES), target, failure);
                } catch (IOException next) {
                    failure.addSuppressed(next);
                }
            }
            return new Saved(null, target, failure);
        }
    }

    private static Path write(Path target, byte[] bytes, BytesOut out) throws IOException {
        Path folder = target.toAbsolutePath().getParent();
        Files.createDirectories(folder);
        String name = target.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        Path temp = Files.createTempFile(folder, "." + safe(stem) + "-", ".json.tmp");
        try {
            out.write(temp, bytes);
            Path path = target;
            for (int n = 2; ; n++) {
                try {
                    publish(temp, path);
                    return path;
                } catch (FileAlreadyExistsException taken) {
                    path = target.resolveSibling(stem + "-" + n + ".json");
                }
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Gives the whole temporary file its name, never replacing a file: a hard link where the file system has them
     * (atomic, and refused when the name is taken), otherwise an atomic move to a name found free.
     */
    private static void publish(Path temp, Path path) throws IOException {
        try {
            Files.createLink(path, temp);
        } catch (UnsupportedOperationException | FileSystemException noLinks) {
            if (noLinks instanceof FileAlreadyExistsException taken) {
                throw taken;
            }
            if (Files.exists(path)) {
                throw new FileAlreadyExistsException(path.toString());
            }
            Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static String reason(IOException e) {
        if (e instanceof FileAlreadyExistsException inTheWay) {
            return inTheWay.getFile() + " is in the way (a file where a folder is needed)";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static String safe(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]+", "_");
    }
}

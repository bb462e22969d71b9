package io.ombtx.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The files an embedded broker's child process is given and leaves behind: settings, logging, its log's tail. */
final class ChildFiles {

    private ChildFiles() {}

    /**
     * {@code file}, created empty and readable by its owner only (on a POSIX file system): a broker's settings may
     * hold secrets (keystore passwords, JAAS configurations), and a run killed before it stops leaves the file behind.
     */
    static Path ownerOnly(Path file) throws IOException {
        Files.deleteIfExists(file);
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return Files.createFile(
                    file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        return Files.createFile(file);
    }

    /**
     * Logging to {@code logFile} at INFO, for either logging back end a release uses: log4j 2 (Kafka 4) reads
     * log4j2.properties, log4j 1 / reload4j (Kafka 2 and 3, and their ZooKeeper) reads log4j.properties.
     */
    static void writeLogConfig(Path dir, Path logFile) throws IOException {
        Files.writeString(
                dir.resolve("log4j2.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = FILE",
                        "appender.file.type = File",
                        "appender.file.name = FILE",
                        "appender.file.fileName = " + logFile,
                        "appender.file.layout.type = PatternLayout",
                        "appender.file.layout.pattern = [%d] %p %m (%c)%n",
                        "logger.kafkaRequest.name = kafka.request.logger",
                        "logger.kafkaRequest.level = WARN",
                        ""));
        Files.writeString(
                dir.resolve("log4j.properties"),
                String.join(
                        "\n",
                        "log4j.rootLogger=INFO, FILE",
                        "log4j.appender.FILE=org.apache.log4j.FileAppender",
                        "log4j.appender.FILE.File=" + logFile,
                        "log4j.appender.FILE.layout=org.apache.log4j.PatternLayout",
                        "log4j.appender.FILE.layout.ConversionPattern=[%d] %p %m (%c)%n",
                        "log4j.logger.kafka.request.logger=WARN",
                        ""));
    }

    /** Whether {@code file} holds {@code text} on one of its lines (false when it cannot be read). */
    static boolean contains(Path file, String text) {
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.anyMatch(line -> line.contains(text));
        } catch (IOException | java.io.UncheckedIOException e) {
            return false;
        }
    }

    /** The last {@code lines} lines of {@code file}, each ending with a newline; empty when it cannot be read. */
    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return all.subList(Math.max(0, all.size() - lines), all.size()).stream()
                    .collect(Collectors.joining("\n", "", "\n"));
        } catch (IOException e) {
            return "";
        }
    }

    /** Deletes {@code root} and everything below it, as far as it can. */
    static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // Best effort: a temp folder left behind is harmless.
        }
    }
}

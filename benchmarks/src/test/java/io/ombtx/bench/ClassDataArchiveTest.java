package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.ClassDataArchive;
import io.ombtx.runner.OmbTxHome;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's class-data archive as the bin/ scripts use it, in real JVMs on the packaged runner jar and its
 * libraries (this module is built after the runner's jar): a JVM started to record writes the archive, a later JVM
 * maps it ({@code -Xshare:on} fails to start if it cannot), and a directory on the class path (where Java 17 would
 * end the JVM at the dump) is declined.
 */
@Tag("integration")
class ClassDataArchiveTest {

    private record Outcome(int code, String out) {}

    private static String jarClassPath() throws Exception {
        Path runner = OmbTxHome.locate().resolve("runner/target");
        List<String> entries = new ArrayList<>();
        try (Stream<Path> jars = Files.list(runner)) {
            jars.filter(p -> p.getFileName().toString().matches("runner-.*\\.jar"))
                    .forEach(p -> entries.add(p.toString()));
        }
        try (Stream<Path> libs = Files.list(runner.resolve("lib"))) {
            libs.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> entries.add(p.toString()));
        }
        assertFalse(entries.isEmpty(), "the runner's jar is packaged before this module's tests");
        return String.join(File.pathSeparator, entries);
    }

    private static Outcome java(Path dir, String classPath, String... flags) throws Exception {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(flags));
        command.addAll(List.of("-cp", classPath, ClassDataArchive.class.getName()));
        Path log = Files.createTempFile(dir, "java-", ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the JVM ended");
        return new Outcome(process.exitValue(), Files.readString(log));
    }

    @Test
    void aRecordingJvmWritesTheArchiveAndTheNextMapsIt(@TempDir Path dir) throws Exception {
        String classPath = jarClassPath();
        Path archive = dir.resolve("cds/runner.jsa");
        Outcome first = java(
                dir,
                classPath,
                "-XX:+RecordDynamicDumpInfo",
                "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off",
                "-D" + ClassDataArchive.PROPERTY + "=" + archive);
        assertEquals(0, first.code(), first.out());
        assertEquals("written", first.out().strip(), "nothing else on the console: " + first.out());
        assertTrue(Files.size(archive) > 0);
        try (Stream<Path> left = Files.list(archive.getParent())) {
            assertEquals(List.of(archive), left.toList(), "no temporary file left beside the archive");
        }
        // -Xshare:on: the JVM refuses to start unless it maps the archive.
        Outcome second = java(
                dir,
                classPath,
                "-Xshare:on",
                "-XX:SharedArchiveFile=" + archive,
                "-D" + ClassDataArchive.PROPERTY + "=" + archive);
        assertEquals(0, second.code(), second.out());
        assertEquals("not written", second.out().strip(), "an archive present is kept: " + second.out());
    }

    @Test
    void aDirectoryOnTheClassPathIsDeclinedAndTheJvmLives(@TempDir Path dir) throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(classes.resolve("placeholder.txt"), "a non-empty directory");
        Path archive = dir.resolve("cds/runner.jsa");
        Outcome outcome = java(
                dir,
                jarClassPath() + File.pathSeparator + classes,
                "-XX:+RecordDynamicDumpInfo",
                "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off",
                "-D" + ClassDataArchive.PROPERTY + "=" + archive);
        assertEquals(0, outcome.code(), outcome.out());
        assertEquals("not written", outcome.out().strip(), outcome.out());
        assertFalse(Files.exists(archive));
    }

    @Test
    void aJvmNotStartedToRecordWritesNothing(@TempDir Path dir) throws Exception {
        Path archive = dir.resolve("cds/runner.jsa");
        Outcome outcome = java(
                dir,
                jarClassPath(),
                "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off",
                "-D" + ClassDataArchive.PROPERTY + "=" + archive);
        assertEquals(0, outcome.code(), outcome.out());
        assertEquals("not written", outcome.out().strip(), outcome.out());
        assertFalse(Files.exists(archive));
    }
}

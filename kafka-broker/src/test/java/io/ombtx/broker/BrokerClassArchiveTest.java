package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The brokers' class-data archive, made from a real JVM's class list on the built-in release's jars. */
class BrokerClassArchiveTest {

    @TempDir
    Path dir;

    private static List<Path> jars() throws Exception {
        List<Path> jars = BrokerClassPath.locate().jars();
        assertFalse(jars.isEmpty(), "the built-in broker folder has jars");
        return jars;
    }

    /** Runs Kafka's storage tool ("random-uuid": loads Kafka's classes, prints one id) with {@code flags}. */
    private static String storageTool(List<String> flags, String classPath) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags);
        command.addAll(List.of("-cp", classPath, "kafka.tools.StorageTool", "random-uuid"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), out);
        return out;
    }

    private static String joined(List<Path> jars) {
        return String.join(File.pathSeparator, jars.stream().map(Path::toString).toList());
    }

    @Test
    void theFirstRecordingBecomesAnArchiveThatLaterJvmsMapSilently() throws Exception {
        List<Path> jars = jars();
        BrokerClassArchive archive = BrokerClassArchive.in(dir, jars).orElseThrow();
        assertEquals(List.of(), archive.mapFlags(), "no archive yet");
        BrokerClassArchive.Recording recording = archive.record().orElseThrow();
        assertTrue(archive.record().isEmpty(), "one recording at a time");

        storageTool(recording.flags(), joined(jars));
        Process dump = recording.dump();
        assertTrue(dump.waitFor(120, TimeUnit.SECONDS));
        Path log = dir.resolve(dumpLog(archive));
        assertTrue(Files.isRegularFile(archive.archive()), Files.exists(log) ? Files.readString(log) : "no dump log");
        try (var left = Files.list(dir)) {
            assertEquals(
                    List.of(dumpLog(archive), archive.archive().getFileName().toString()),
                    left.map(p -> p.getFileName().toString()).sorted().toList(),
                    "the class list, the lock and the temporary file are gone");
        }
        assertTrue(archive.record().isEmpty(), "nothing to record once the archive is there");

        // -Xshare:on: the JVM fails rather than run without it. The launcher's folder after the jars, as a broker has.
        List<String> flags = new ArrayList<>(archive.mapFlags());
        flags.add("-Xshare:on");
        String out = storageTool(flags, joined(jars) + File.pathSeparator + dir);
        assertTrue(
                out.strip().matches("[A-Za-z0-9_-]{22}"), "only the tool's output, no note about the archive: " + out);
    }

    private static String dumpLog(BrokerClassArchive archive) {
        return archive.archive().getFileName().toString().replace(".jsa", ".dump.log");
    }

    @Test
    void aLockIsTakenOverOnlyWhenStale() throws Exception {
        BrokerClassArchive archive = BrokerClassArchive.in(dir, jars()).orElseThrow();
        BrokerClassArchive.Recording first = archive.record().orElseThrow();
        Path lock;
        try (var files = Files.list(dir)) {
            lock = files.filter(p -> p.toString().endsWith(".lock")).findFirst().orElseThrow();
        }
        assertTrue(archive.record().isEmpty());
        Files.setLastModifiedTime(
                lock,
                FileTime.from(Instant.now().minus(BrokerClassArchive.STALE).minusSeconds(60)));
        Optional<BrokerClassArchive.Recording> second = archive.record();
        assertTrue(second.isPresent(), "a recording whose JVM died long ago does not block the next");
        second.get().release();
        assertFalse(Files.exists(lock));
        first.release();
    }

    @Test
    void aLockWhoseJvmHasEndedIsTakenOverAtOnce() throws Exception {
        BrokerClassArchive archive = BrokerClassArchive.in(dir, jars()).orElseThrow();
        Process alive = new ProcessBuilder("sleep", "60").start();
        Process ended = new ProcessBuilder("true").start();
        try {
            assertTrue(ended.waitFor(30, TimeUnit.SECONDS));
            Path lock = archive.archive()
                    .resolveSibling(archive.archive().getFileName().toString().replace(".jsa", ".lock"));
            Files.writeString(lock, Long.toString(alive.pid()));
            assertTrue(archive.record().isEmpty(), "the lock of a JVM still running holds");
            Files.writeString(lock, "");
            assertTrue(archive.record().isEmpty(), "a fresh lock naming no pid holds");
            Files.writeString(lock, Long.toString(ended.pid()));
            Optional<BrokerClassArchive.Recording> taken = archive.record();
            assertTrue(taken.isPresent(), "the lock of a JVM that has ended (killed before its cluster stopped)");
            assertEquals(Long.toString(ProcessHandle.current().pid()), Files.readString(lock));
            taken.get().release();
            assertFalse(Files.exists(lock));
        } finally {
            alive.destroyForcibly();
        }
    }

    @Test
    void aBrokerFolderThatCannotBeReadHasNoArchive() {
        assertTrue(
                BrokerClassArchive.in(dir, List.of(dir.resolve("missing.jar"))).isEmpty());
        assertTrue(BrokerClassArchive.in(dir, List.of()).isEmpty());
    }
}

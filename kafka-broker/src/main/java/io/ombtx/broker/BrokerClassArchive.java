package io.ombtx.broker;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A class-data archive (AppCDS) of the classes a broker JVM loads: parsed and verified once, then mapped into every
 * later broker, ZooKeeper and storage-tool JVM of the same release, which then start on less CPU. Measured on the
 * 2-core machine (C1 flags, as bin/test runs them): a 4.1.1 storage format took 0.94 CPU-s without it and 0.63 with
 * it; a broker's start to ready ({@code bin/kafka-local start}), 2.82 and 2.89 CPU-s without and 1.71 and 1.72 with.
 *
 * <p>One archive per Java and broker folder (the jars' names, sizes and times), kept beside the broker folder in
 * {@code <folder>.cds/}. While it is missing, the first broker started records the classes it loads ({@code
 * -XX:DumpLoadedClassList}); when that broker's cluster stops, a JVM of its own ({@code -Xshare:dump}) writes the
 * archive from that list to a temporary file and moves it into place, so a broker never maps half an archive. A
 * lock file ({@code <key>.lock}, holding the pid of the JVM that took it) keeps a second recording from starting
 * meanwhile, from this JVM or another; a lock whose JVM has ended (killed before its cluster stopped) is taken over
 * at once, one without a pid when older than {@link #STALE}. The archive is only a speed-up: a folder that cannot be written,
 * a failed dump or a stale archive (which the JVM refuses by itself) leave the brokers as they were, and the JVM's
 * notes about it stay out of their output. {@value #ENVIRONMENT}{@code =off} turns it off.
 */
final class BrokerClassArchive {

    /** Environment variable: {@code off} starts every broker JVM without an archive. */
    static final String ENVIRONMENT = "OMBTX_BROKER_CDS";

    /** A lock this old is a recording whose JVM died before its cluster stopped. */
    static final Duration STALE = Duration.ofMinutes(10);

    /** What the JVM would otherwise print about an archive it maps, refuses or writes. */
    private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

    private final Path directory;
    private final String key;
    private final List<Path> jars;

    private BrokerClassArchive(Path directory, String key, List<Path> jars) {
        this.directory = directory;
        this.key = key;
        this.jars = jars;
    }

    /** The archive of {@code classPath}'s broker folder, or empty when turned off or its jars cannot be read. */
    static Optional<BrokerClassArchive> of(BrokerClassPath classPath) {
        if ("off".equalsIgnoreCase(String.valueOf(System.getenv(ENVIRONMENT)).trim())) {
            return Optional.empty();
        }
        Path folder = classPath.brokerLib();
        return in(folder.resolveSibling(folder.getFileName() + ".cds"), classPath.jars());
    }

    /** The archive of {@code jars}, kept in {@code directory}; empty when a jar cannot be read. */
    static Optional<BrokerClassArchive> in(Path directory, List<Path> jars) {
        if (jars.isEmpty()) {
            return Optional.empty();
        }
        return key(jars, System.getProperty("java.home") + "\n" + System.getProperty("java.vm.version"))
                .map(key -> new BrokerClassArchive(directory, key, List.copyOf(jars)));
    }

    /**
     * A short hex digest of {@code jars} (each one's path, size and time) and {@code more}: what names a file made
     * from a broker folder's jars, so that a changed jar names another. Empty when a jar cannot be read.
     */
    static Optional<String> key(List<Path> jars, String more) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update((more + "\n").getBytes(StandardCharsets.UTF_8));
            for (Path jar : jars) {
                digest.update((jar + " " + Files.size(jar) + " "
                                + Files.getLastModifiedTime(jar).toMillis() + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            return Optional.of(HexFormat.of().formatHex(digest.digest(), 0, 8));
        } catch (IOException | NoSuchAlgorithmException e) {
            return Optional.empty();
        }
    }

    Path archive() {
        return directory.resolve(key + ".jsa");
    }

    private Path lock() {
        return directory.resolve(key + ".lock");
    }

    private Path classList() {
        return directory.resolve(key + ".classlist");
    }

    /** The flags that map the archive into a JVM on these jars; none while it is missing. */
    List<String> mapFlags() {
        if (!Files.isRegularFile(archive())) {
            return List.of();
        }
        List<String> flags = new ArrayList<>(List.of("-XX:SharedArchiveFile=" + archive()));
        flags.addAll(QUIET);
        return flags;
    }

    /**
     * A recording for one broker JVM, when the archive is missing and no other recording is under way: its flags make
     * the JVM write the classes it loads; {@link Recording#dump} later turns them into the archive.
     */
    Optional<Recording> record() {
        if (Files.exists(archive())) {
            return Optional.empty();
        }
        try {
            Files.createDirectories(directory);
            if (!takeLock()) {
                return Optional.empty();
            }
            Files.deleteIfExists(classList());
            return Optional.of(new Recording());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private boolean takeLock() throws IOException {
        if (createLock()) {
            return true;
        }
        FileTime taken;
        String owner;
        try {
            taken = Files.getLastModifiedTime(lock());
            owner = Files.readString(lock(), StandardCharsets.UTF_8).strip();
        } catch (IOException gone) {
            return false; // released meanwhile: the archive is on its way, or the next broker records
        }
        if (!abandoned(owner, taken)) {
            return false;
        }
        Files.deleteIfExists(lock());
        return createLock();
    }

    /** Creates the lock holding this JVM's pid (written whole before the move, so never read half written). */
    private boolean createLock() throws IOException {
        Path part = directory.resolve(key + ".lock." + ProcessHandle.current().pid() + ".part");
        Files.writeString(part, Long.toString(ProcessHandle.current().pid()), StandardCharsets.UTF_8);
        try {
            Files.createLink(lock(), part);
            return true;
        } catch (FileAlreadyExistsException held) {
            return false;
        } finally {
            Files.deleteIfExists(part);
        }
    }

    /**
     * Whether a lock taken at {@code taken} by the JVM of pid {@code owner} was left behind: that JVM has ended (a
     * parent killed before its cluster stopped, as when a test run is cut short), or, when the lock names no pid
     * (written by an older omb-tx) or the pid cannot be checked, it is older than {@link #STALE}.
     */
    static boolean abandoned(String owner, FileTime taken) {
        try {
            long pid = Long.parseLong(owner);
            if (pid != ProcessHandle.current().pid()) {
                return ProcessHandle.of(pid).map(process -> !process.isAlive()).orElse(true);
            }
        } catch (NumberFormatException | SecurityException | UnsupportedOperationException unknown) {
            // As old as STALE, then.
        }
        return taken.toInstant().isBefore(Instant.now().minus(STALE));
    }

    /** One broker JVM's class list, to become the archive. */
    final class Recording {

        private Recording() {}

        /** The flags that make a JVM write the classes it loads to the list. */
        List<String> flags() {
            List<String> flags = new ArrayList<>(List.of("-XX:DumpLoadedClassList=" + classList()));
            flags.addAll(QUIET);
            return flags;
        }

        /**
         * Writes the archive from the classes listed so far, in a process of its own that outlives this JVM: to a
         * temporary file moved into place, then the lock is released. Returns that process (null when it could not
         * be started, the lock then released at once).
         */
        Process dump() {
            Path part =
                    directory.resolve(key + ".jsa." + ProcessHandle.current().pid() + ".part");
            List<String> dumpJvm = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xshare:dump",
                    "-XX:SharedClassListFile=" + classList(),
                    "-XX:SharedArchiveFile=" + part,
                    "-cp",
                    String.join(
                            File.pathSeparator,
                            jars.stream().map(Path::toString).toList())));
            // sh: the move and the release happen even when this JVM has ended meanwhile.
            String script = "\"$@\" > \"$DUMP_LOG\" 2>&1 && [ -s \"$PART\" ] && mv -f \"$PART\" \"$ARCHIVE\";"
                    + " rm -f \"$PART\" \"$LIST\" \"$LOCK\"";
            List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", script, "sh"));
            command.addAll(dumpJvm);
            try {
                ProcessBuilder builder = new ProcessBuilder(command)
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectErrorStream(true);
                builder.environment().put("PART", part.toString());
                builder.environment()
                        .put("DUMP_LOG", directory.resolve(key + ".dump.log").toString());
                builder.environment().put("ARCHIVE", archive().toString());
                builder.environment().put("LIST", classList().toString());
                builder.environment().put("LOCK", lock().toString());
                return builder.start();
            } catch (IOException | RuntimeException e) {
                release();
                return null;
            }
        }

        /** Gives up: the next broker records again. */
        void release() {
            try {
                Files.deleteIfExists(classList());
                Files.deleteIfExists(lock());
            } catch (IOException e) {
                // Only a speed-up: a stale lock is taken over after STALE.
            }
        }
    }
}

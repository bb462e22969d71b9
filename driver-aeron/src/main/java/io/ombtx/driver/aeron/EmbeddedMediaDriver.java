package io.ombtx.driver.aeron;

import io.aeron.driver.MediaDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Aeron's Java media driver, started in this process in a temporary folder of its own (under /dev/shm when there is
 * one, as Aeron prefers, else the system's temporary folder) and removed on close, or by a shutdown hook when the JVM
 * is stopped (Ctrl-C) before close. Killed with SIGKILL, the folder ({@code omb-tx-aeron-*}) is left behind.
 */
public final class EmbeddedMediaDriver implements AutoCloseable {

    private static final Path SHM = Path.of("/dev/shm");

    private final Path directory;
    private final MediaDriver driver;
    private final Thread cleanup;

    private EmbeddedMediaDriver(Path directory, MediaDriver driver, Thread cleanup) {
        this.directory = directory;
        this.driver = driver;
        this.cleanup = cleanup;
    }

    public static EmbeddedMediaDriver start(AeronSettings.MediaDriverSettings s) throws IOException {
        Path parent = s.directory() != null
                ? s.directory()
                : Files.isDirectory(SHM) && Files.isWritable(SHM) ? SHM : Path.of(System.getProperty("java.io.tmpdir"));
        Files.createDirectories(parent);
        Path directory = Files.createTempDirectory(parent, "omb-tx-aeron-");
        Thread cleanup = new Thread(() -> deleteQuietly(directory), "omb-tx-aeron-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        MediaDriver.Context context = new MediaDriver.Context()
                .aeronDirectoryName(directory.resolve("driver").toString())
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .warnIfDirectoryExists(false)
                .printConfigurationOnStart(false)
                .threadingMode(s.threadingMode())
                .publicationTermBufferLength(s.termBufferLength())
                .ipcTermBufferLength(s.termBufferLength())
                .mtuLength(s.mtuLength())
                .ipcMtuLength(s.mtuLength())
                .initialWindowLength(s.initialWindowLength())
                .conductorIdleStrategy(s.conductorIdle().create())
                .senderIdleStrategy(s.senderIdle().create())
                .receiverIdleStrategy(s.receiverIdle().create())
                .sharedNetworkIdleStrategy(s.sharedIdle().create())
                .sharedIdleStrategy(s.sharedIdle().create())
                .termBufferSparseFile(s.termBufferSparseFile());
        if (s.socketSndbufLength() > 0) {
            context.socketSndbufLength(s.socketSndbufLength());
        }
        if (s.socketRcvbufLength() > 0) {
            context.socketRcvbufLength(s.socketRcvbufLength());
        }
        try {
            return new EmbeddedMediaDriver(directory, MediaDriver.launch(context), cleanup);
        } catch (RuntimeException e) {
            context.close();
            deleteQuietly(directory);
            Runtime.getRuntime().removeShutdownHook(cleanup);
            throw e;
        }
    }

    /** The folder clients connect through ({@code Aeron.Context.aeronDirectoryName}). */
    public String aeronDirectoryName() {
        return driver.aeronDirectoryName();
    }

    /** The temporary folder this driver made, removed on close. */
    public Path directory() {
        return directory;
    }

    @Override
    public void close() {
        try {
            driver.close();
        } finally {
            deleteQuietly(directory);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs anyway
            }
        }
    }

    private static void deleteQuietly(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println(
                    "warning: could not remove Aeron's temporary folder " + directory + ": " + e.getMessage());
        }
    }
}

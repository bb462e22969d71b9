package io.ombtx.runner.worker;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A temporary copy of a text only its owner can read (where the file system has POSIX permissions), deleted when
 * closed: the driver YAML a worker hands its driver holds secrets, and is gone once the driver has read it.
 */
final class OwnerOnlyFile implements AutoCloseable {

    private final Path path;

    private OwnerOnlyFile(Path path) {
        this.path = path;
    }

    static OwnerOnlyFile write(String text) throws IOException {
        Path file = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                ? Files.createTempFile(
                        "omb-tx-driver-",
                        ".yaml",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                : Files.createTempFile("omb-tx-driver-", ".yaml");
        file.toFile().deleteOnExit(); // the last resort, for a JVM that exits before the file is deleted
        OwnerOnlyFile copy = new OwnerOnlyFile(file);
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            copy.close();
            throw e;
        }
        return copy;
    }

    Path path() {
        return path;
    }

    @Override
    public void close() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // deleteOnExit still applies
        }
    }
}

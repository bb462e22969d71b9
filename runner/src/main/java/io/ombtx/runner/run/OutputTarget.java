package io.ombtx.runner.run;

import io.ombtx.runner.config.UsageException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where results go: a folder, or one named file (in its parent folder). Checked before a run starts, so that a
 * measurement is never lost to an output folder that cannot be written.
 */
public record OutputTarget(Path folder, Path file) {

    /** The target {@code -o} names: a {@code .json} file, a folder, or (null) the default {@code results/}. */
    public static OutputTarget of(Path output) {
        if (output != null && output.toString().endsWith(".json")) {
            Path parent = output.toAbsolutePath().getParent();
            return new OutputTarget(parent, output);
        }
        return new OutputTarget(output == null ? Path.of("results") : output, null);
    }

    /**
     * Creates the folder and proves it writable with a probe file; in a dry run ({@code create} false) only checks
     * what exists, changing nothing. Throws {@link UsageException} naming the path and the problem.
     */
    public void check(boolean create) {
        if (file != null && Files.isDirectory(file)) {
            throw problem(file, "is a folder, but -o names a result file");
        }
        if (file != null && Files.exists(file)) {
            throw problem(
                    file,
                    "exists, and a result never replaces another: remove it, or name a new file or a folder (where"
                            + " each run gets a new name)");
        }
        Path existing = folder.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            throw problem(
                    existing,
                    "is a file, but the results need a folder there"
                            + (existing.equals(folder.toAbsolutePath()) ? "" : " (for " + folder + ")"));
        }
        if (!create) {
            if (Files.isDirectory(folder) && !Files.isWritable(folder)) {
                throw problem(folder, "the output folder is not writable");
            }
            return;
        }
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw problem(folder, "cannot create the output folder (" + reason(e) + ")");
        }
        try {
            Path probe = Files.createTempFile(folder, ".omb-tx-write-check-", ".tmp");
            Files.delete(probe);
        } catch (IOException e) {
            throw problem(folder, "the output folder is not writable (" + reason(e) + ")");
        }
    }

    private static UsageException problem(Path path, String what) {
        return new UsageException("output " + path + ": " + what);
    }

    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}

package io.ombtx.runner.config;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.config.ConfigFields;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What each message carries (OMB's fields): its size, and either a payload file of exactly that size or random
 * bytes from a pool.
 *
 * @param payloadFile null when none was given
 */
public record PayloadSpec(
        int messageSize,
        boolean useRandomizedPayloads,
        double randomBytesRatio,
        int randomizedPayloadPoolSize,
        Path payloadFile) {

    /** @param baseDir resolves a relative payloadFile (see {@link #resolve}) */
    static PayloadSpec read(ConfigFields f, Path baseDir, OperationKind kind) {
        int messageSize = f.wholeNumber("messageSize", -1, 0, 100 * 1024 * 1024);
        if (messageSize < 0) {
            throw f.error("messageSize", "required: the payload size in bytes");
        }
        if (messageSize == 0 && kind != OperationKind.SEND_OFFSETS) {
            throw f.error(
                    "messageSize",
                    "0-byte messages: give the payload size in bytes, at least 1 (only"
                            + " SEND_OFFSETS, which sends no messages, takes 0)");
        }
        Path payloadFile = f.has("payloadFile") ? payloadFile(f, baseDir, messageSize) : null;
        boolean randomized = f.bool("useRandomizedPayloads", false);
        double randomRatio = f.number("randomBytesRatio", 0.0, 0.0, 1.0);
        int poolSize = f.wholeNumber("randomizedPayloadPoolSize", 1000, 1, 1_000_000);
        if (randomized) {
            checkPoolBound(f, messageSize, poolSize, poolBoundBytes());
        }
        return new PayloadSpec(messageSize, randomized, randomRatio, poolSize, payloadFile);
    }

    /**
     * The most bytes a randomized payload pool may hold: a quarter of this JVM's maximum heap, leaving the rest to
     * the clients' buffers, the histograms and the in-flight messages. Checked up front: a pool that does not fit
     * would otherwise die of an OutOfMemoryError once the broker has started.
     */
    static long poolBoundBytes() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    static void checkPoolBound(ConfigFields f, int messageSize, int poolSize, long boundBytes) {
        long poolBytes = (long) messageSize * poolSize;
        if (poolBytes > boundBytes) {
            throw f.error(
                    "randomizedPayloadPoolSize",
                    String.format(
                            Locale.ROOT,
                            "a pool of %d payload(s)%s of messageSize %d bytes holds %s, above the bound of %s (a"
                                    + " quarter of the maximum heap, %s); use a smaller pool or message size, or raise"
                                    + " the heap (-Xmx in OMBTX_JAVA_OPTS)",
                            poolSize,
                            f.has("randomizedPayloadPoolSize") ? "" : " (the default)",
                            messageSize,
                            megabytes(poolBytes),
                            megabytes(boundBytes),
                            megabytes(boundBytes * 4)));
        }
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%,d MB", bytes / (1024 * 1024));
    }

    private static Path payloadFile(ConfigFields f, Path baseDir, int messageSize) {
        Path payloadFile = resolve(baseDir, f.text("payloadFile", null));
        if (!Files.exists(payloadFile)) {
            throw f.error("payloadFile", "payload file " + payloadFile + " not found");
        }
        if (!Files.isRegularFile(payloadFile)) {
            throw f.error("payloadFile", payloadFile + " is not a regular file (a folder?): name the payload file");
        }
        if (!Files.isReadable(payloadFile)) {
            throw f.error("payloadFile", "payload file " + payloadFile + " is not readable");
        }
        long size;
        try {
            size = Files.size(payloadFile);
        } catch (IOException e) {
            throw f.error("payloadFile", "cannot read payload file " + payloadFile + ": " + e.getMessage());
        }
        if (size != messageSize) {
            throw f.error(
                    "payloadFile",
                    "payload file " + payloadFile + " is " + size + " bytes but messageSize is " + messageSize
                            + "; they must be equal");
        }
        return payloadFile;
    }

    /**
     * A relative payload file is looked for from the working folder (as OMB does), beside the workload, and beside
     * the workload's folder: OMB's layout, {@code workloads/} next to {@code payload/}, so OMB's files name
     * {@code payload/payload-1Kb.data} from wherever they are run.
     */
    private static Path resolve(Path baseDir, String path) {
        Path candidate = Path.of(path);
        if (candidate.isAbsolute() || Files.exists(candidate) || baseDir == null) {
            return candidate;
        }
        Path besideWorkload = baseDir.resolve(path);
        if (Files.exists(besideWorkload)) {
            return besideWorkload;
        }
        Path besideFolder =
                baseDir.getParent() == null ? null : baseDir.getParent().resolve(path);
        return besideFolder != null && Files.exists(besideFolder) ? besideFolder : candidate;
    }
}

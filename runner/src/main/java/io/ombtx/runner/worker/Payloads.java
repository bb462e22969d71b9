package io.ombtx.runner.worker;

import io.ombtx.driver.api.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/** The payloads a workload sends, built as OMB does: from the payload file, or a randomized pool. */
public final class Payloads {

    private Payloads() {}

    /**
     * The payloads of a run, as planned: the payload file's bytes, or a pool of {@code poolSize} payloads of
     * {@code messageSize} bytes whose first {@code randomBytesRatio} are random (seed 42, as OMB's are repeatable).
     *
     * @param file the payload file (its bytes are the one payload), or null
     * @param sourceFile the workload that names it, for the error when it cannot be read
     */
    public record Spec(Path file, int messageSize, int poolSize, double randomBytesRatio, String sourceFile) {

        /** As the dry run prints it. */
        public String describe() {
            return file != null
                    ? "the bytes of " + file
                    : String.format(
                            Locale.ROOT,
                            "%d payload(s) of %d byte(s), %.0f%% random (seed %d)",
                            poolSize,
                            messageSize,
                            randomBytesRatio * 100,
                            SEED);
        }
    }

    private static final long SEED = 42;

    public static List<byte[]> of(Spec spec) {
        if (spec.file() != null) {
            try {
                return List.of(Files.readAllBytes(spec.file()));
            } catch (IOException e) {
                throw new ConfigException(
                        spec.sourceFile(),
                        "payloadFile",
                        "cannot read payload file " + spec.file() + ": " + e.getMessage());
            }
        }
        Random random = new Random(SEED);
        List<byte[]> pool = new ArrayList<>(spec.poolSize());
        for (int i = 0; i < spec.poolSize(); i++) {
            byte[] payload = new byte[spec.messageSize()];
            int randomBytes = (int) Math.round(payload.length * spec.randomBytesRatio());
            byte[] noise = new byte[randomBytes];
            random.nextBytes(noise);
            System.arraycopy(noise, 0, payload, 0, randomBytes);
            pool.add(payload);
        }
        return pool;
    }
}

package io.ombtx.runner.worker;

import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.config.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** The payloads a workload sends, built as OMB does: from the payload file, or a randomized pool. */
public final class Payloads {

    private Payloads() {}

    public static List<byte[]> forWorkload(Workload workload) {
        if (workload.payloadFile() != null && !workload.useRandomizedPayloads()) {
            try {
                return List.of(Files.readAllBytes(workload.payloadFile()));
            } catch (IOException e) {
                throw new ConfigException(
                        workload.sourceFile(),
                        "payloadFile",
                        "cannot read payload file " + workload.payloadFile() + ": " + e.getMessage());
            }
        }
        Random random = new Random(42);
        int poolSize = workload.useRandomizedPayloads() ? workload.randomizedPayloadPoolSize() : 1;
        double randomRatio = workload.useRandomizedPayloads() ? workload.randomBytesRatio() : 1.0;
        List<byte[]> pool = new ArrayList<>(poolSize);
        for (int i = 0; i < poolSize; i++) {
            byte[] payload = new byte[workload.messageSize()];
            int randomBytes = (int) Math.round(payload.length * randomRatio);
            byte[] noise = new byte[randomBytes];
            random.nextBytes(noise);
            System.arraycopy(noise, 0, payload, 0, randomBytes);
            pool.add(payload);
        }
        return pool;
    }
}

package io.ombtx.broker;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/** A KRaft broker's storage, formatted by the release's own storage tool before the broker first starts. */
final class BrokerStorage {

    private BrokerStorage() {}

    /**
     * Formats the log folders {@code config} names for cluster {@code clusterId}, at KIP-890's
     * {@code transactionVersion} when given (Kafka 4.x; the planner checks that), with the release on
     * {@code classPath}, with {@code extraArguments} (SCRAM credentials) at the end; the tool's output goes to {@code format.log} beside {@code config}.
     */
    static void format(
            BrokerClassPath classPath,
            Path config,
            String clusterId,
            Integer transactionVersion,
            List<String> extraArguments)
            throws IOException, BrokerStartException {
        Path out = config.resolveSibling("format.log");
        List<String> command =
                new ArrayList<>(List.of("kafka.tools.StorageTool", "format", "-t", clusterId, "-c", config.toString()));
        if (transactionVersion != null) {
            command.add("--feature");
            command.add(TransactionProtocol.FEATURE + "=" + transactionVersion);
        }
        command.addAll(extraArguments);
        Process format = new ProcessBuilder(ChildJvm.command(classPath, config.getParent(), List.of(), command))
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new BrokerStartException("formatting the broker storage failed:\n" + ChildFiles.tail(out, 20));
            }
        } catch (InterruptedException e) {
            format.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while formatting broker storage");
        }
    }

    /**
     * Kafka's cluster id is a URL-safe base64 of 16 random bytes, without padding. One starting with '-' would be
     * read as an option by the storage tool's command line (Kafka's own generator avoids them too).
     */
    static String randomClusterId() {
        while (true) {
            UUID uuid = UUID.randomUUID();
            ByteBuffer bytes = ByteBuffer.allocate(16);
            bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
            String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
            if (!id.startsWith("-")) {
                return id;
            }
        }
    }
}

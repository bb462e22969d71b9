package io.ombtx.runner.testdriver;

import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.bookkeeper.stats.StatsLogger;

/** Notes what the configuration file looked like while {@code initialize} ran; fails when the YAML says so. */
public final class FileObservingDriver implements BenchmarkDriver {

    public volatile Path seenFile;
    public volatile String seenText;
    public volatile Set<PosixFilePermission> seenPermissions;

    @Override
    public void initialize(File configurationFile, StatsLogger statsLogger) throws IOException {
        seenFile = configurationFile.toPath();
        seenText = Files.readString(seenFile);
        seenPermissions = seenFile.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? Files.getPosixFilePermissions(seenFile)
                : null;
        if (seenText.contains("fail: true")) {
            throw new IOException("asked to fail");
        }
    }

    @Override
    public String getTopicNamePrefix() {
        return "observing";
    }

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException());
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscription, ConsumerCallback callback) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException());
    }

    @Override
    public void close() {}
}

package io.ombtx.driver.aeron;

import io.aeron.Aeron;
import io.aeron.AeronVersion;
import io.ombtx.driver.api.CheckedConfiguration;
import io.ombtx.driver.api.DriverCapabilities;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.ScenarioDriver;
import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import java.io.File;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.bookkeeper.stats.StatsLogger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OMB driver for Aeron (seed 004's third transport). Every topic is a stream of one Aeron channel — IPC (shared
 * memory) or UDP on loopback, chosen by {@code transport} — with a stream id derived from the topic's name, so
 * workers that share a media driver's channel agree on it without asking. A producer is an exclusive publication, a
 * subscription is an Aeron subscription polled by a thread of its own, and the consumers of one subscription share
 * its messages in turn. The driver starts its own media driver, in a temporary folder removed on close. There are no
 * transactions and nothing to acknowledge beyond Aeron accepting the message: only plain PUBLISH workloads run.
 */
public final class AeronBenchmarkDriver
        implements BenchmarkDriver, CheckedConfiguration, ScenarioDriver, DriverCapabilities {

    private static final Logger log = LoggerFactory.getLogger(AeronBenchmarkDriver.class);

    private AeronSettings settings;
    private EmbeddedMediaDriver mediaDriver;
    private Aeron aeron;
    private final OfferCounts counts = new OfferCounts();
    private final Map<String, SubscriptionPoller> subscriptions = new HashMap<>();
    private final List<AeronProducer> producers = new ArrayList<>();

    @Override
    public void checkConfiguration(String source, String yamlText) {
        AeronConfigParser.parse(source, yamlText);
    }

    @Override
    public boolean usesKafkaBroker() {
        return false;
    }

    @Override
    public Optional<String> unsupported(OperationKind kind, boolean transactional) {
        if (transactional) {
            return Optional.of("Aeron has no transactions, so driver-aeron cannot run a transactional workload:"
                    + " run it with driver-kafka-tx or driver-redpanda-tx, or give driver-aeron a plain PUBLISH"
                    + " workload such as workloads/rps-sweep.yaml");
        }
        if (kind != OperationKind.PUBLISH) {
            return Optional.of("driver-aeron runs plain PUBLISH workloads only (" + kind + " needs Kafka's"
                    + " consumer groups and offsets)");
        }
        return Optional.empty();
    }

    @Override
    public void initialize(File configurationFile, StatsLogger statsLogger) throws IOException {
        AeronSettings parsed =
                AeronConfigParser.parse(configurationFile.toString(), Files.readString(configurationFile.toPath()));
        if (parsed.transport() == AeronSettings.Transport.UDP && parsed.udpPort() == 0) {
            parsed = parsed.withUdpPort(freeUdpPort(parsed.udpHost()));
        }
        settings = parsed;
        mediaDriver = EmbeddedMediaDriver.start(settings.mediaDriver());
        try {
            aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(mediaDriver.aeronDirectoryName()));
        } catch (RuntimeException e) {
            mediaDriver.close();
            throw e;
        }
        log.info(
                "Aeron {} media driver in {}: {} ({} profile), channel {}",
                AeronVersion.VERSION,
                mediaDriver.directory(),
                settings.mediaDriver().threadingMode(),
                settings.profile().key(),
                settings.channel());
    }

    /** A UDP port nothing listens on now (the channel binds it moments later; one process only). */
    private static int freeUdpPort(String host) throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getByName(host))) {
            return socket.getLocalPort();
        }
    }

    /** The stream a topic is: the same on every worker, from the name alone. */
    static int streamId(String topic) {
        int id = topic.hashCode() & 0x7fffffff;
        return id == 0 ? 1 : id;
    }

    @Override
    public String getTopicNamePrefix() {
        return "omb-tx-aeron";
    }

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions) {
        // A stream exists once it is published or subscribed to; partitions have no Aeron counterpart (one stream).
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
        try {
            AeronProducer producer = new AeronProducer(
                    aeron.addExclusivePublication(settings.channel(), streamId(topic)),
                    counts,
                    settings.offerTimeoutMillis(),
                    settings.offerRetryIdle().create());
            synchronized (producers) {
                producers.add(producer);
            }
            return CompletableFuture.completedFuture(producer);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(
            String topic, String subscriptionName, ConsumerCallback consumerCallback) {
        try {
            String key = topic + "\u0000" + subscriptionName;
            SubscriptionPoller.Target target = SubscriptionPoller.Target.of(consumerCallback);
            synchronized (subscriptions) {
                SubscriptionPoller poller = subscriptions.get(key);
                if (poller == null) {
                    poller = new SubscriptionPoller(
                            aeron.addSubscription(settings.channel(), streamId(topic)),
                            settings.subscriberIdle().create(),
                            settings.fragmentLimit(),
                            "aeron-poll-" + subscriptionName);
                    poller.add(target);
                    poller.start();
                    subscriptions.put(key, poller);
                } else {
                    poller.add(target);
                }
            }
            return CompletableFuture.completedFuture(() -> closeConsumer(key, target));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void closeConsumer(String key, SubscriptionPoller.Target target) throws InterruptedException {
        SubscriptionPoller emptied = null;
        synchronized (subscriptions) {
            SubscriptionPoller poller = subscriptions.get(key);
            if (poller != null && poller.remove(target)) {
                emptied = subscriptions.remove(key);
            }
        }
        if (emptied != null) {
            emptied.close();
        }
    }

    @Override
    public void configureOperation(OperationSpec spec) {
        unsupported(spec.kind(), spec.transactional()).ifPresent(reason -> {
            throw new IllegalArgumentException(reason);
        });
    }

    @Override
    public String streamTargetTopic(String sourceTopic) {
        throw new UnsupportedOperationException("driver-aeron runs no STREAM operations");
    }

    @Override
    public CompletableFuture<ExactlyOnceReport> verifyExactlyOnce(String sourceTopic, String subscriptionName) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("Aeron has no transactions to verify"));
    }

    @Override
    public Map<String, Object> environment() {
        Map<String, Object> aeronFacts = new LinkedHashMap<>();
        aeronFacts.put("version", AeronVersion.VERSION);
        if (settings != null) {
            aeronFacts.put("transport", settings.transport().name().toLowerCase(java.util.Locale.ROOT));
            aeronFacts.put("channel", settings.channel());
            aeronFacts.put("profile", settings.profile().key());
            aeronFacts.put("mediaDriver", settings.mediaDriver().describe());
            aeronFacts.put(
                    "subscriber",
                    Map.of("idleStrategy", settings.subscriberIdle().key(), "fragmentLimit", settings.fragmentLimit()));
            aeronFacts.put(
                    "publisher",
                    Map.of(
                            "offerTimeoutMs",
                            settings.offerTimeoutMillis(),
                            "retryIdleStrategy",
                            settings.offerRetryIdle().key()));
        }
        aeronFacts.put("offers", counts.describe());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("aeron", aeronFacts);
        return out;
    }

    /** The media driver's temporary folder, while it runs (tests). */
    Path mediaDriverDirectory() {
        return mediaDriver == null ? null : mediaDriver.directory();
    }

    @Override
    public void close() throws Exception {
        List<SubscriptionPoller> pollers;
        synchronized (subscriptions) {
            pollers = new ArrayList<>(subscriptions.values());
            subscriptions.clear();
        }
        for (SubscriptionPoller poller : pollers) {
            poller.close();
        }
        synchronized (producers) {
            producers.forEach(AeronProducer::close);
            producers.clear();
        }
        if (aeron != null) {
            aeron.close();
            aeron = null;
        }
        if (mediaDriver != null) {
            log.info("Aeron offers over the run: {}", counts.describe());
            mediaDriver.close();
            mediaDriver = null;
        }
    }
}

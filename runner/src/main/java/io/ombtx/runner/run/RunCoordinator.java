package io.ombtx.runner.run;

import io.ombtx.broker.BrokerClassPath;
import io.ombtx.broker.BrokerProfile;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.runner.config.ConfigException;
import io.ombtx.runner.config.DriverConfig;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.result.ResultBuilder;
import io.ombtx.runner.result.ResultWriter;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Payloads;
import io.ombtx.runner.worker.Worker;
import io.ombtx.runner.worker.Worker.TopicSubscription;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * Runs one (driver, workload) pair end to end: brings up the broker it needs, drives the workers through OMB's
 * steps, watches warm-up, measurement and stop conditions, and writes the result — also when the run is
 * interrupted or stalls, then marked partial.
 */
public final class RunCoordinator {

    private final RunOptions options;
    private final PrintStream out;
    private final Supplier<List<Worker>> workerFactory;
    private final Interruption interruption;

    public RunCoordinator(RunOptions options, PrintStream out, Supplier<List<Worker>> workerFactory,
            Interruption interruption) {
        this.options = options;
        this.out = out;
        this.workerFactory = workerFactory;
        this.interruption = interruption;
    }

    /** Set from a signal handler; the run in progress ends at its next poll and writes a partial result. */
    public static final class Interruption {
        private volatile String reason;

        public void interrupt(String why) {
            reason = why;
        }

        public String reason() {
            return reason;
        }
    }

    /** What a run left behind: its result file, and whether it ended early. */
    public record Outcome(Path resultFile, boolean partial) {
    }

    /** Runs and returns the result file. */
    public Outcome run(DriverConfig driverConfig, Workload workload) throws Exception {
        int brokersNeeded = io.ombtx.runner.plan.Planner.brokersNeeded(driverConfig, workload, options.brokers());
        EmbeddedKafkaCluster cluster = null;
        try {
            String bootstrap = driverConfig.bootstrapServers();
            Map<String, Object> broker = new LinkedHashMap<>();
            if (bootstrap == null) {
                BrokerProfile profile = options.brokerProfile() != null ? options.brokerProfile() : workload.brokerProfile();
                Map<String, String> settings = new LinkedHashMap<>(workload.brokerSettings());
                settings.putAll(options.brokerSettings());
                // Finding the broker's class path first: when it is missing, the error says so before anything else.
                String version = BrokerClassPath.locate().kafkaVersion();
                say("Starting embedded Kafka %s: %d broker(s), profile %s%s", version,
                        brokersNeeded, profile.displayName(), settings.isEmpty() ? "" : ", overrides " + settings);
                cluster = EmbeddedKafkaCluster.builder().brokers(brokersNeeded).profile(profile).overrides(settings).start();
                bootstrap = cluster.bootstrapServers();
                broker.put("embedded", true);
                broker.put("brokers", brokersNeeded);
                broker.put("version", version);
                broker.put("profile", profile.displayName());
                broker.put("settings", cluster.settings());
            } else {
                int live = externalBrokerCount(driverConfig);
                if (live < brokersNeeded) {
                    throw new ConfigException(workload.sourceFile(), "brokers", "the workload needs " + brokersNeeded
                            + " broker(s) but the cluster at " + bootstrap + " has " + live);
                }
                broker.put("embedded", false);
                broker.put("brokers", live);
                broker.put("bootstrapServers", bootstrap);
            }
            DriverConfig effective = driverConfig.effective(workload.driverOverrides(), cluster != null ? bootstrap : null);
            return execute(effective, workload, broker);
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private int externalBrokerCount(DriverConfig driver) throws Exception {
        Properties props = driver.properties("commonConfig");
        props.setProperty("request.timeout.ms", "10000");
        props.setProperty("default.api.timeout.ms", "15000");
        try (Admin admin = Admin.create(props)) {
            return admin.describeCluster().nodes().get(20, TimeUnit.SECONDS).size();
        }
    }

    private Outcome execute(DriverConfig driver, Workload w, Map<String, Object> broker) throws Exception {
        List<Worker> workers = workerFactory.get();
        Ensemble ensemble = Ensemble.of(workers);
        if (w.waitForConsume() && workers.size() > 1) {
            // The producer waits until its consumer has seen each write: both must live in one worker.
            say("waitForConsume: producer and consumer both run on the first worker; the other %d stay idle",
                    workers.size() - 1);
            ensemble = Ensemble.of(List.of(workers.get(0)));
        }
        String driverYaml = driver.toYaml();
        try {
            for (Worker worker : ensemble.all()) {
                worker.initializeDriver(driverYaml, w.operation());
            }
            List<String> topics = ensemble.producers().get(0).createTopics(w.topics(), w.partitionsPerTopic());
            say("Created %d topic(s) with %d partition(s): %s", topics.size(), w.partitionsPerTopic(), topics);
            List<TopicSubscription> subscriptions = new ArrayList<>();
            String runTag = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
            for (String topic : topics) {
                for (int s = 0; s < w.subscriptionsPerTopic(); s++) {
                    String name = String.format(Locale.ROOT, "sub-%03d-%s", s, runTag);
                    for (int c = 0; c < w.consumerPerSubscription(); c++) {
                        subscriptions.add(new TopicSubscription(topic, name));
                    }
                }
            }
            List<String> producerTopics = new ArrayList<>();
            for (String topic : topics) {
                for (int p = 0; p < w.producersPerTopic(); p++) {
                    producerTopics.add(topic);
                }
            }
            // Only workers that were given producers or consumers take part: rate and counts are split over them.
            List<Worker> producing = distribute(ensemble.producers(), producerTopics, Worker::createProducers);
            List<byte[]> payloads = Payloads.forWorkload(w);
            if (w.streaming() && w.prefillMessages() > 0) {
                say("Prefilling %d message(s) into the source topic(s)", w.prefillMessages());
                for (int i = 0; i < producing.size(); i++) {
                    producing.get(i).prefill(Ensemble.share(w.prefillMessages(), producing.size(), i), payloads.get(0));
                }
            }
            List<Worker> consuming = distribute(ensemble.consumers(), subscriptions, Worker::createConsumers);
            say("Created %d producer(s) and %d consumer(s)", producerTopics.size(), subscriptions.size());
            Ensemble active = new Ensemble(producing, consuming);
            if (!w.streaming() && !subscriptions.isEmpty() && !producerTopics.isEmpty()) {
                awaitConsumersReady(active, (long) producerTopics.size() * w.subscriptionsPerTopic());
            }
            return measure(driver, w, broker, active, payloads, topics, subscriptions);
        } finally {
            for (Worker worker : workers) {
                worker.close();
            }
        }
    }

    /** As OMB does: every producer sends one message; the load starts once every subscription has seen them. */
    private void awaitConsumersReady(Ensemble ensemble, long expected) throws Exception {
        for (Worker worker : ensemble.producers()) {
            worker.probeProducers();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            long received = 0;
            for (Worker worker : ensemble.consumers()) {
                received += worker.progress().messagesReceived();
            }
            if (received >= expected) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new io.ombtx.runner.worker.WorkerException("consumers received " + received + " of " + expected
                        + " probe messages within 120 s: they are not subscribed (is the broker healthy?)");
            }
            Thread.sleep(100);
        }
    }

    private interface Step<T> {
        void apply(Worker worker, List<T> items) throws Exception;
    }

    /** Deals {@code items} round-robin to {@code workers}; returns the workers that were given any. */
    private static <T> List<Worker> distribute(List<Worker> workers, List<T> items, Step<T> step) throws Exception {
        List<Worker> used = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            List<T> mine = new ArrayList<>();
            for (int j = i; j < items.size(); j += workers.size()) {
                mine.add(items.get(j));
            }
            if (!mine.isEmpty()) {
                step.apply(workers.get(i), mine);
                used.add(workers.get(i));
            }
        }
        return used;
    }

    private Outcome measure(DriverConfig driver, Workload w, Map<String, Object> broker, Ensemble ensemble,
            List<byte[]> payloads, List<String> topics, List<TopicSubscription> subscriptions) throws Exception {
        List<Worker> loadWorkers = w.streaming() ? ensemble.consumers() : ensemble.producers();
        double initialRate = w.loop() == LoopMode.OPEN
                ? (w.producerRate() > 0 ? w.producerRate() : RateController.INITIAL_RATE) : 0;
        boolean findMaxRate = w.loop() == LoopMode.OPEN && w.producerRate() == 0 && !w.streaming();
        if (w.streaming() && w.producerRate() == 0) {
            initialRate = 0;
        }
        List<Worker> consumersFirst = new ArrayList<>(ensemble.all());
        consumersFirst.sort(java.util.Comparator.comparing(worker -> ensemble.producers().contains(worker)));
        for (Worker worker : consumersFirst) {
            // Consumer-side workers start first so none of the load's messages arrive before they count.
            // Counts are split across the workers that perform operations; the others split the warm-up too, so
            // their consumers know how many received messages belong to it.
            List<Worker> sharing = loadWorkers.contains(worker) ? loadWorkers : ensemble.consumers();
            int index = sharing.indexOf(worker);
            long warmup = index < 0 ? 0 : Ensemble.share(w.warmupOperations(), sharing.size(), index);
            long measure = loadWorkers.contains(worker) ? Ensemble.share(w.measureOperations(), sharing.size(), index) : 0;
            double rate = ensemble.producers().contains(worker) ? initialRate / ensemble.producers().size() : 0;
            worker.startLoad(new LoadSpec(w.loop(), rate, payloads, w.keyDistributor(), warmup, measure,
                    w.messagesPerOperation(), w.waitForConsume()));
        }
        int interval = options.reportingIntervalSeconds() != null ? options.reportingIntervalSeconds() : w.reportingIntervalSeconds();
        RateController rateController = findMaxRate ? new RateController(initialRate) : null;
        say("%s: %s, %s loop%s", w.name(), w.countBased()
                ? "warm-up " + w.warmupOperations() + " then " + w.measureOperations() + " operation(s)"
                : "warm-up " + w.warmupDuration().toSeconds() + " s then " + w.testDuration().toSeconds() + " s",
                w.loop().key(), w.loop() == LoopMode.OPEN ? " at " + (findMaxRate ? "the maximum sustainable rate"
                        : (long) initialRate + " msg/s") : "");
        MeasurementLoop loop = new MeasurementLoop(w, ensemble, interval, rateController, interruption,
                line -> say("%s", line));
        loop.run();
        StatsSnapshot measured = loop.measured();
        String partialReason = loop.partialReason();
        Instant startTime = loop.startTime();
        Instant endTime = Instant.now();
        ExactlyOnceReport exactlyOnce = null;
        if (w.verifyExactlyOnce() && partialReason == null) {
            say("Verifying exactly-once delivery on %d topic(s)", topics.size());
            try {
                exactlyOnce = verifyExactlyOnce(ensemble, subscriptions);
            } catch (Exception e) {
                // The measurement stands; only the verdict is missing, and the result says why.
                partialReason = "exactly-once check failed: " + e.getMessage();
            }
        }
        if (exactlyOnce != null) {
            say("Exactly-once: %d checked, %d duplicated, %d missing, %d unexpected: %s", exactlyOnce.checked(),
                    exactlyOnce.duplicated(), exactlyOnce.missing(), exactlyOnce.unexpected(),
                    exactlyOnce.passed() ? "PASS" : "FAIL");
        }
        Map<String, Object> environment;
        try {
            environment = ensemble.all().get(0).environment();
        } catch (Exception e) {
            environment = Map.of("error", String.valueOf(e.getMessage()));
        }
        ResultBuilder.RunFacts facts = new ResultBuilder.RunFacts(w, driver.name(), startTime, endTime,
                partialReason == null ? "complete" : "partial", partialReason, runMode(w, interval),
                versions(broker), broker, driver.redacted(), environment, exactlyOnce);
        Map<String, Object> result = ResultBuilder.build(facts, measured, loop.periods());
        Path target = options.outputFile() != null ? options.outputFile()
                : ResultWriter.defaultPath(options.outputDir(), w.name(), driver.name(), ZonedDateTime.now());
        Path written = ResultWriter.write(target, result);
        if (partialReason != null) {
            say("Run ended early (%s); partial result written to %s", partialReason, written);
        } else {
            say("Result written to %s", written);
        }
        printSummary(result);
        return new Outcome(written, partialReason != null);
    }

    private static ExactlyOnceReport verifyExactlyOnce(Ensemble ensemble, List<TopicSubscription> subscriptions)
            throws Exception {
        long checked = 0;
        long duplicated = 0;
        long missing = 0;
        long unexpected = 0;
        for (TopicSubscription s : subscriptions.stream().distinct().toList()) {
            ExactlyOnceReport one = ensemble.consumers().get(0).verifyExactlyOnce(s.topic(), s.subscription());
            checked += one.checked();
            duplicated += one.duplicated();
            missing += one.missing();
            unexpected += one.unexpected();
        }
        return new ExactlyOnceReport(checked, duplicated, missing, unexpected);
    }

    private static Map<String, Object> runMode(Workload w, int interval) {
        Map<String, Object> mode = new LinkedHashMap<>();
        mode.put("loop", w.loop().key());
        mode.put("targetRate", w.loop() == LoopMode.OPEN && w.producerRate() > 0 ? w.producerRate() : null);
        mode.put("findMaximumRate", w.loop() == LoopMode.OPEN && w.producerRate() == 0 && !w.streaming());
        if (w.countBased()) {
            mode.put("warmup", Map.of("operations", w.warmupOperations(),
                    "messages", w.warmupOperations() * w.messagesPerOperation()));
            mode.put("measure", Map.of("operations", w.measureOperations(),
                    "messages", w.measureOperations() * w.messagesPerOperation()));
        } else {
            mode.put("warmup", Map.of("seconds", w.warmupDuration().toSeconds()));
            mode.put("measure", Map.of("seconds", w.testDuration().toSeconds()));
        }
        mode.put("reportingIntervalSeconds", interval);
        return mode;
    }

    private static Map<String, Object> versions(Map<String, Object> broker) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("ombTx", RunCoordinator.class.getPackage().getImplementationVersion() == null
                ? "0.1.0-SNAPSHOT" : RunCoordinator.class.getPackage().getImplementationVersion());
        v.put("java", System.getProperty("java.version"));
        v.put("kafkaClients", AppInfoParser.getVersion());
        // An external cluster's version is whatever its driver reports in "environment"; it is not guessed here.
        v.put("broker", broker.get("version"));
        return v;
    }

    @SuppressWarnings("unchecked")
    private void printSummary(Map<String, Object> result) {
        Map<String, Object> ops = (Map<String, Object>) result.get("operationLatency");
        Map<String, Object> summary = (Map<String, Object>) result.get("summary");
        if (ops != null && ((Number) ops.get("count")).longValue() > 0) {
            say("Operations: %s in %.3f s | min %.3f ms | p50 %.3f ms | p99 %.3f ms | max %.3f ms",
                    ops.get("count"), ((Number) summary.get("durationSeconds")).doubleValue(),
                    ((Number) ops.get("min")).doubleValue(), ((Number) ops.get("p50")).doubleValue(),
                    ((Number) ops.get("p99")).doubleValue(), ((Number) ops.get("max")).doubleValue());
        }
        Map<String, Object> phases = (Map<String, Object>) result.get("transactionPhases");
        if (phases != null && phases.size() > 1) {
            StringBuilder line = new StringBuilder("Phases p50 (ms):");
            phases.forEach((name, s) -> line.append(String.format(Locale.ROOT, " %s %.3f", name,
                    ((Number) ((Map<String, Object>) s).get("p50")).doubleValue())));
            say("%s", line);
        }
    }

    private void say(String format, Object... args) {
        if (!options.quiet()) {
            out.printf(Locale.ROOT, "%tT %s%n", System.currentTimeMillis(), String.format(Locale.ROOT, format, args));
            out.flush();
        }
    }
}

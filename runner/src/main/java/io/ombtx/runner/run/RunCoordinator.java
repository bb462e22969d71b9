package io.ombtx.runner.run;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.runner.broker.BrokerProfile;
import io.ombtx.runner.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.config.ConfigException;
import io.ombtx.runner.config.DriverConfig;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.result.ResultBuilder;
import io.ombtx.runner.result.ResultBuilder.Period;
import io.ombtx.runner.result.ResultWriter;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Payloads;
import io.ombtx.runner.worker.Worker;
import io.ombtx.runner.worker.Worker.Progress;
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

    private static final long POLL_MILLIS = 50;

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

    /** Runs and returns the result file. */
    public Path run(DriverConfig driverConfig, Workload workload) throws Exception {
        int brokersNeeded = io.ombtx.runner.plan.Planner.brokersNeeded(driverConfig, workload, options.brokers());
        EmbeddedKafkaCluster cluster = null;
        try {
            String bootstrap = driverConfig.bootstrapServers();
            Map<String, Object> broker = new LinkedHashMap<>();
            if (bootstrap == null) {
                BrokerProfile profile = options.brokerProfile() != null ? options.brokerProfile() : workload.brokerProfile();
                Map<String, String> settings = new LinkedHashMap<>(workload.brokerSettings());
                settings.putAll(options.brokerSettings());
                say("Starting embedded Kafka %s: %d broker(s), profile %s%s", EmbeddedKafkaCluster.brokerVersion(),
                        brokersNeeded, profile.displayName(), settings.isEmpty() ? "" : ", overrides " + settings);
                cluster = EmbeddedKafkaCluster.builder().brokers(brokersNeeded).profile(profile).overrides(settings).start();
                bootstrap = cluster.bootstrapServers();
                broker.put("embedded", true);
                broker.put("brokers", brokersNeeded);
                broker.put("version", EmbeddedKafkaCluster.brokerVersion());
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

    private Path execute(DriverConfig driver, Workload w, Map<String, Object> broker) throws Exception {
        List<Worker> workers = workerFactory.get();
        Ensemble ensemble = Ensemble.of(workers);
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
            distribute(ensemble.producers(), producerTopics, Worker::createProducers);
            List<byte[]> payloads = Payloads.forWorkload(w);
            if (w.streaming() && w.prefillMessages() > 0) {
                say("Prefilling %d message(s) into the source topic(s)", w.prefillMessages());
                for (int i = 0; i < ensemble.producers().size(); i++) {
                    ensemble.producers().get(i).prefill(Ensemble.share(w.prefillMessages(), ensemble.producers().size(), i),
                            payloads.get(0));
                }
            }
            distribute(ensemble.consumers(), subscriptions, Worker::createConsumers);
            say("Created %d producer(s) and %d consumer(s)", producerTopics.size(), subscriptions.size());
            return measure(driver, w, broker, ensemble, payloads, topics, subscriptions);
        } finally {
            for (Worker worker : ensemble.all()) {
                worker.close();
            }
        }
    }

    private interface Step<T> {
        void apply(Worker worker, List<T> items) throws Exception;
    }

    private static <T> void distribute(List<Worker> workers, List<T> items, Step<T> step) throws Exception {
        for (int i = 0; i < workers.size(); i++) {
            List<T> mine = new ArrayList<>();
            for (int j = i; j < items.size(); j += workers.size()) {
                mine.add(items.get(j));
            }
            if (!mine.isEmpty()) {
                step.apply(workers.get(i), mine);
            }
        }
    }

    private Path measure(DriverConfig driver, Workload w, Map<String, Object> broker, Ensemble ensemble,
            List<byte[]> payloads, List<String> topics, List<TopicSubscription> subscriptions) throws Exception {
        boolean countBased = w.countBased();
        List<Worker> loadWorkers = w.streaming() ? ensemble.consumers() : ensemble.producers();
        double initialRate = w.loop() == LoopMode.OPEN
                ? (w.producerRate() > 0 ? w.producerRate() : RateController.INITIAL_RATE) : 0;
        boolean findMaxRate = w.loop() == LoopMode.OPEN && w.producerRate() == 0 && !w.streaming();
        if (w.streaming() && w.producerRate() == 0) {
            initialRate = 0;
        }
        for (Worker worker : ensemble.all()) {
            // Counts are split across the workers that perform operations; the others split the warm-up too, so
            // their consumers know how many received messages belong to it.
            List<Worker> sharing = loadWorkers.contains(worker) ? loadWorkers : ensemble.consumers();
            int index = sharing.indexOf(worker);
            long warmup = Ensemble.share(w.warmupOperations(), sharing.size(), index);
            long measure = loadWorkers.contains(worker) ? Ensemble.share(w.measureOperations(), sharing.size(), index) : 0;
            double rate = ensemble.producers().contains(worker) ? initialRate / ensemble.producers().size() : 0;
            worker.startLoad(new LoadSpec(w.loop(), rate, payloads, w.keyDistributor(), warmup, measure,
                    w.messagesPerOperation(), w.waitForConsume()));
        }
        int interval = options.reportingIntervalSeconds() != null ? options.reportingIntervalSeconds() : w.reportingIntervalSeconds();
        long intervalNanos = TimeUnit.SECONDS.toNanos(interval);
        long begin = System.nanoTime();
        boolean warmingUp = !countBased && !w.warmupDuration().isZero();
        long measureStartNanos = warmingUp ? begin + w.warmupDuration().toNanos() : begin;
        Instant startTime = Instant.now();
        long lastPeriod = begin;
        long lastProgressNanos = begin;
        Progress lastProgress = null;
        StatsSnapshot measured = new StatsSnapshot();
        List<Period> periods = new ArrayList<>();
        long totalSent = 0;
        long totalReceived = 0;
        RateController rateController = findMaxRate ? new RateController(initialRate) : null;
        String partialReason = null;
        say("%s: %s, %s loop%s", w.name(), countBased
                ? "warm-up " + w.warmupOperations() + " then " + w.measureOperations() + " operation(s)"
                : "warm-up " + w.warmupDuration().toSeconds() + " s then " + w.testDuration().toSeconds() + " s",
                w.loop().key(), w.loop() == LoopMode.OPEN ? " at " + (findMaxRate ? "the maximum sustainable rate"
                        : (long) initialRate + " msg/s") : "");
        while (true) {
            Thread.sleep(POLL_MILLIS);
            long now = System.nanoTime();
            if (interruption.reason() != null) {
                partialReason = interruption.reason();
                break;
            }
            Progress progress = progress(ensemble);
            if (progress.failure() != null) {
                partialReason = progress.failure();
                break;
            }
            if (!progress.equals(lastProgress)) {
                lastProgress = progress;
                lastProgressNanos = now;
            } else if (now - lastProgressNanos > TimeUnit.SECONDS.toNanos(w.stallTimeoutSeconds())) {
                partialReason = "no progress for " + w.stallTimeoutSeconds() + " s (broker fault?)";
                break;
            }
            if (warmingUp && now >= measureStartNanos) {
                for (Worker worker : ensemble.all()) {
                    worker.periodStats();
                    worker.resetStats();
                }
                warmingUp = false;
                lastPeriod = now;
                startTime = Instant.now();
                say("Warm-up done; measuring");
                continue;
            }
            boolean finished = countBased ? progress.loadFinished()
                    : !warmingUp && now - measureStartNanos >= w.testDuration().toNanos();
            if (now - lastPeriod >= intervalNanos || finished) {
                StatsSnapshot period = collect(ensemble);
                double seconds = (now - lastPeriod) / 1e9;
                totalSent += period.counter(StatsSnapshot.MESSAGES_SENT);
                totalReceived += period.counter(StatsSnapshot.MESSAGES_RECEIVED);
                long backlog = Math.max(0, totalSent * w.subscriptionsPerTopic() - totalReceived);
                String countProgress = countBased ? String.format(Locale.ROOT, "%d/%d ops (%.0f%%)",
                        progress.measuredOperationsDone(), w.measureOperations(),
                        100.0 * progress.measuredOperationsDone() / w.measureOperations()) : null;
                say("%s", ProgressLine.format(warmingUp ? "Warm-up" : "Measure", seconds, period, backlog, countProgress));
                if (!warmingUp) {
                    measured.add(period);
                    periods.add(new Period(seconds, (now - measureStartNanos) / 1e9, period, backlog));
                }
                if (rateController != null) {
                    double next = rateController.next(period.counter(StatsSnapshot.MESSAGES_SENT) / seconds, backlog);
                    for (Worker worker : ensemble.producers()) {
                        worker.adjustRate(next / ensemble.producers().size());
                    }
                }
                lastPeriod = now;
            }
            if (finished) {
                break;
            }
        }
        for (Worker worker : ensemble.all()) {
            worker.stopAll();
        }
        StatsSnapshot tail = collect(ensemble);
        if (!warmingUp) {
            measured.add(tail);
        }
        Instant endTime = Instant.now();
        ExactlyOnceReport exactlyOnce = null;
        if (w.verifyExactlyOnce() && partialReason == null) {
            say("Verifying exactly-once delivery on %d topic(s)", topics.size());
            exactlyOnce = new ExactlyOnceReport(0, 0, 0, 0);
            for (TopicSubscription s : distinctSubscriptions(subscriptions)) {
                ExactlyOnceReport one = ensemble.consumers().get(0).verifyExactlyOnce(s.topic(), s.subscription());
                exactlyOnce = new ExactlyOnceReport(exactlyOnce.checked() + one.checked(),
                        exactlyOnce.duplicated() + one.duplicated(), exactlyOnce.missing() + one.missing(),
                        exactlyOnce.unexpected() + one.unexpected());
            }
            say("Exactly-once: %d checked, %d duplicated, %d missing, %d unexpected: %s", exactlyOnce.checked(),
                    exactlyOnce.duplicated(), exactlyOnce.missing(), exactlyOnce.unexpected(),
                    exactlyOnce.passed() ? "PASS" : "FAIL");
        }
        Map<String, Object> environment = ensemble.all().get(0).environment();
        ResultBuilder.RunFacts facts = new ResultBuilder.RunFacts(w, driver.name(), startTime, endTime,
                partialReason == null ? "complete" : "partial", partialReason, runMode(w, interval, initialRate),
                versions(), broker, driver.redacted(), environment, exactlyOnce);
        Map<String, Object> result = ResultBuilder.build(facts, measured, periods);
        Path target = options.outputFile() != null ? options.outputFile()
                : ResultWriter.defaultPath(options.outputDir(), w.name(), driver.name(), ZonedDateTime.now());
        Path written = ResultWriter.write(target, result);
        if (partialReason != null) {
            say("Run ended early (%s); partial result written to %s", partialReason, written);
        } else {
            say("Result written to %s", written);
        }
        printSummary(result);
        return written;
    }

    private static List<TopicSubscription> distinctSubscriptions(List<TopicSubscription> subscriptions) {
        return subscriptions.stream().distinct().toList();
    }

    private static Progress progress(Ensemble ensemble) throws Exception {
        Progress total = null;
        for (Worker worker : ensemble.all()) {
            Progress p = worker.progress();
            total = total == null ? p : total.plus(p);
        }
        return total;
    }

    private static StatsSnapshot collect(Ensemble ensemble) throws Exception {
        StatsSnapshot sum = new StatsSnapshot();
        for (Worker worker : ensemble.all()) {
            sum.add(worker.periodStats());
        }
        return sum;
    }

    private static Map<String, Object> runMode(Workload w, int interval, double rate) {
        Map<String, Object> mode = new LinkedHashMap<>();
        mode.put("loop", w.loop().key());
        mode.put("targetRate", w.loop() == LoopMode.OPEN && w.producerRate() > 0 ? w.producerRate() : null);
        mode.put("findMaximumRate", w.loop() == LoopMode.OPEN && w.producerRate() == 0 && !w.streaming());
        if (w.countBased()) {
            mode.put("warmup", Map.of("operations", w.warmupOperations()));
            mode.put("measure", Map.of("operations", w.measureOperations()));
        } else {
            mode.put("warmup", Map.of("seconds", w.warmupDuration().toSeconds()));
            mode.put("measure", Map.of("seconds", w.testDuration().toSeconds()));
        }
        mode.put("reportingIntervalSeconds", interval);
        return mode;
    }

    private static Map<String, Object> versions() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("ombTx", RunCoordinator.class.getPackage().getImplementationVersion() == null
                ? "0.1.0-SNAPSHOT" : RunCoordinator.class.getPackage().getImplementationVersion());
        v.put("java", System.getProperty("java.version"));
        v.put("kafkaClients", AppInfoParser.getVersion());
        v.put("broker", EmbeddedKafkaCluster.brokerVersion());
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

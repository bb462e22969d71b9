package io.ombtx.runner.plan;

import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.LoopMode;
import io.ombtx.runner.config.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Pure planning: drivers × workloads (sweeps already expanded) → the ordered list of runs, printable as text. */
public final class Planner {

    private Planner() {
    }

    public static List<PlannedRun> plan(List<DriverFile> drivers, List<Workload> workloads, Integer brokersFlag) {
        List<PlannedRun> runs = new ArrayList<>();
        for (Workload workload : workloads) {
            for (DriverFile driver : drivers) {
                runs.add(new PlannedRun(driver, workload, brokersNeeded(driver, workload, brokersFlag),
                        driver.wantsEmbeddedBroker()));
            }
        }
        return runs;
    }

    /**
     * How many brokers the run needs: the workload's count, raised to the driver's replication factor. A
     * replication factor above an explicitly requested count is impossible, and an error.
     */
    public static int brokersNeeded(DriverFile driver, Workload workload, Integer brokersFlag) {
        Integer overrideRf = workload.driverOverrides().replicationFactor();
        int replication = overrideRf != null ? overrideRf : driver.replicationFactor();
        if (overrideRf != null && overrideRf > workload.brokers()) {
            throw new ConfigException(workload.sourceFile(), "driverOverrides.replicationFactor", "replication factor "
                    + overrideRf + " is above the broker count " + workload.brokers() + "; set brokers: " + overrideRf);
        }
        if (brokersFlag != null) {
            if (replication > brokersFlag) {
                throw new ConfigException(driver.file().toString(), "replicationFactor", "replication factor "
                        + replication + " is above the broker count " + brokersFlag + " given by --brokers");
            }
            return Math.max(brokersFlag, workload.brokers());
        }
        return Math.max(workload.brokers(), replication);
    }

    public static String describe(List<PlannedRun> runs) {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "Plan: %d run(s)%n", runs.size()));
        int n = 1;
        for (PlannedRun run : runs) {
            Workload w = run.workload();
            text.append(String.format(Locale.ROOT, "%3d. %s × %s%n", n++, w.name(), run.driver().name()));
            text.append(String.format(Locale.ROOT, "     driver      %s (%s)%n", run.driver().file(), run.driver().driverClass()));
            text.append(String.format(Locale.ROOT, "     broker      %s%n", run.embeddedBroker()
                    ? "embedded Kafka, " + run.brokersNeeded() + " broker(s), profile " + w.brokerProfile().displayName()
                            + (w.brokerSettings().isEmpty() ? "" : ", settings " + w.brokerSettings())
                    : "external " + run.driver().bootstrapServers() + " (needs " + run.brokersNeeded() + " broker(s))"));
            text.append(String.format(Locale.ROOT, "     operation   %s%s, %d message(s) over %d partition(s)%s%s%n",
                    w.operation().kind(), w.operation().transactional() ? " (transactional)" : "",
                    w.messagesPerOperation(), w.operation().partitionsPerOperation(),
                    w.operation().sendOffsets() ? ", with sendOffsets" : "",
                    w.verifyExactlyOnce() ? ", exactly-once check" : ""));
            text.append(String.format(Locale.ROOT, "     topology    %d topic(s) × %d partition(s), %d producer(s), %d consumer(s), %d-byte messages%n",
                    w.topics(), w.partitionsPerTopic(), w.producerCount(), w.consumerCount(), w.messageSize()));
            String length = w.countBased()
                    ? "warm-up " + w.warmupOperations() + " op(s), measure " + w.measureOperations() + " op(s)"
                    : "warm-up " + w.warmupDuration().toSeconds() + " s, measure " + w.testDuration().toSeconds() + " s";
            String rate = w.loop() == LoopMode.CLOSED ? "closed loop"
                    : w.producerRate() > 0 ? "open loop at " + w.producerRate() + " msg/s"
                    : w.streaming() ? "prefilled source" : "open loop, maximum sustainable rate";
            text.append(String.format(Locale.ROOT, "     load        %s; %s%n", rate, length));
            if (!w.driverOverrides().isEmpty()) {
                Map<String, Object> overrides = w.driverOverrides().describe();
                text.append(String.format(Locale.ROOT, "     overrides   %s%n", overrides.toString().replace("\n", "; ")));
            }
            if (w.sweep() != null) {
                text.append(String.format(Locale.ROOT, "     sweep       %s: %s = %s%n", w.sweep().sweepName(),
                        w.sweep().parameter(), w.sweep().value()));
            }
        }
        return text.toString();
    }
}

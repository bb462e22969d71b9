package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.cluster.ClusterSession;
import io.ombtx.runner.cluster.ClusterSystem;
import io.ombtx.runner.cluster.ClusterSystems;
import io.ombtx.runner.cluster.StandInSession;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.plan.PlanOptions;
import io.ombtx.runner.plan.Planner;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.result.RunResult;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Worker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run ended early stops promptly: Ctrl-C during set-up, and a teardown bounded by one deadline; and, being no
 * success, it keeps its embedded brokers' logs beside its result.
 */
class EarlyEndTest {

    @TempDir
    Path dir;

    /** A worker whose steps can be held: {@code hang} names the steps that never return (until interrupted). */
    static final class HeldWorker implements Worker {
        final java.util.Set<String> hang;
        final CountDownLatch initialized = new CountDownLatch(1);
        /** Counted down when a held step has begun to wait. */
        final CountDownLatch holding = new CountDownLatch(1);

        final CountDownLatch never = new CountDownLatch(1);
        final CountDownLatch closeCalled = new CountDownLatch(1);

        HeldWorker(String... hang) {
            this.hang = java.util.Set.of(hang);
        }

        private void maybeHang(String step) throws InterruptedException {
            if (hang.contains(step)) {
                holding.countDown();
                never.await();
            }
        }

        @Override
        public void initializeDriver(String driverYaml, OperationSpec operation) {
            initialized.countDown();
        }

        @Override
        public List<String> createTopics(int count, int partitions) throws Exception {
            maybeHang("topics");
            return java.util.stream.IntStream.range(0, count)
                    .mapToObj(i -> "t-" + i)
                    .toList();
        }

        @Override
        public void createProducers(List<String> topics) {}

        @Override
        public void createConsumers(List<TopicSubscription> subscriptions) {}

        @Override
        public void prefill(long messages, byte[] payload) {}

        @Override
        public void startLoad(LoadSpec load) {}

        @Override
        public void run(Command command) throws Exception {
            maybeHang(command.name());
        }

        @Override
        public void adjustRate(double messagesPerSecond) {}

        @Override
        public StatsSnapshot periodStats() throws Exception {
            maybeHang("periodStats");
            return new StatsSnapshot();
        }

        @Override
        public Progress progress() {
            // Every probe arrived; the load itself failed at once (as when the only broker dies).
            return new Progress(0, 0, 0, 1_000, "the broker went away");
        }

        @Override
        public Map<String, Object> environment() throws Exception {
            maybeHang("environment");
            return Map.of();
        }

        @Override
        public ExactlyOnceReport verifyExactlyOnce(String topic, String subscription) {
            return new ExactlyOnceReport(0, 0, 0, 0);
        }

        @Override
        public void close() {
            closeCalled.countDown();
            if (hang.contains("close")) {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private RunSpec spec(int teardownSeconds) throws Exception {
        Path driver = Files.writeString(
                dir.resolve("driver.yaml"),
                "name: d\ndriverClass: "
                        + "io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\ncommonConfig: |\n  bootstrap.servers=h1:9092\n");
        Path workload = Files.writeString(dir.resolve("w.yaml"), "name: w\nmessageSize: 10\nmeasureOperations: 5\n");
        return Planner.plan(
                        List.of(DriverFile.load(driver)),
                        WorkloadLoader.load(workload, null),
                        PlanOptions.builder()
                                .teardownTimeoutSeconds(teardownSeconds)
                                .build())
                .get(0);
    }

    private RunCoordinator coordinator(Worker worker, Interruption interruption) {
        return new RunCoordinator(
                new RunOptions(dir.resolve("out"), null, false),
                new PrintStream(new ByteArrayOutputStream()),
                name -> worker,
                interruption);
    }

    @Test
    void ctrlCDuringSetUpEndsPromptlyWithAPartialResultNamingTheStep() throws Exception {
        HeldWorker worker = new HeldWorker("topics");
        Interruption interruption = new Interruption();
        RunSpec spec = spec(600);
        AtomicReference<Object> ended = new AtomicReference<>();
        Thread run = new Thread(() -> {
            try {
                ended.set(coordinator(worker, interruption)
                        .execute(spec, spec.driver(), RunResult.Broker.external(1, "h1:9092")));
            } catch (Exception e) {
                ended.set(e);
            }
        });
        run.start();
        assertTrue(worker.initialized.await(60, TimeUnit.SECONDS));
        assertTrue(worker.holding.await(60, TimeUnit.SECONDS), "creating topics is held now");
        interruption.interrupt("interrupted by SIGINT");
        // Creating topics never returns by itself and the teardown may take 10 minutes: a run that ends at all
        // within a minute ended on the interruption, without waiting for either.
        run.join(60_000);
        assertFalse(run.isAlive(), "the run still waits on set-up");
        RunCoordinator.Outcome outcome = (RunCoordinator.Outcome) ended.get();
        assertTrue(outcome.partial());
        assertEquals("interrupted during set-up (topics)", outcome.result().partialReason());
        assertEquals(0, outcome.result().counts().messagesSent());
        assertTrue(Files.exists(outcome.resultFile()));
        assertEquals(0, worker.closeCalled.getCount(), "workers are closed");
    }

    /** The installed broker system, except that its embedded cluster is {@code session}, with no broker behind it. */
    private static ClusterSystem standIn(ClusterSession session) {
        ClusterSystem installed = ClusterSystems.installed();
        return (ClusterSystem) java.lang.reflect.Proxy.newProxyInstance(
                ClusterSystem.class.getClassLoader(), new Class<?>[] {ClusterSystem.class}, (proxy, method, args) -> {
                    if (method.getName().equals("open")) {
                        return session;
                    }
                    try {
                        return method.invoke(installed, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aRunThatIsNoSuccessKeepsItsEmbeddedBrokersLogsBesideItsResult() throws Exception {
        Path driverFile = Files.writeString(
                dir.resolve("embedded.yaml"),
                "name: d\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n"); // no bootstrap: embedded
        Path workload = Files.writeString(dir.resolve("w.yaml"), "name: w\nmessageSize: 10\nmeasureOperations: 5\n");
        RunSpec spec = Planner.plan(
                        List.of(DriverFile.load(driverFile)),
                        WorkloadLoader.load(workload, null),
                        PlanOptions.builder().teardownTimeoutSeconds(10).build())
                .get(0);
        assertTrue(spec.broker().embedded());
        StandInSession cluster = new StandInSession(7, spec.driver());
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        RunCoordinator.Outcome outcome = new RunCoordinator(
                        new RunOptions(dir.resolve("out"), null, false),
                        new PrintStream(console, true, java.nio.charset.StandardCharsets.UTF_8),
                        name -> new HeldWorker(),
                        new Interruption(),
                        () -> standIn(cluster))
                .run(spec);

        assertTrue(
                outcome.partial(),
                "the load failed at once: " + outcome.result().partialReason());
        String name = outcome.resultFile().getFileName().toString().replace(".json", "");
        Path kept = outcome.resultFile().resolveSibling(name + ".broker-logs");
        assertEquals("broker 1 of stand-in 7\n", Files.readString(kept.resolve("broker-1.log")));
        assertTrue(console.toString(java.nio.charset.StandardCharsets.UTF_8).contains("Broker logs kept in " + kept));
        assertTrue(cluster.closed, "the cluster is closed after its logs were kept");
    }

    @Test
    void teardownAfterAFaultSharesOneDeadlineAndNamesWhatItAbandoned() throws Exception {
        HeldWorker worker = new HeldWorker("STOP_ALL", "environment", "close");
        RunSpec spec = spec(2);
        long start = System.nanoTime();
        RunCoordinator.Outcome outcome = coordinator(worker, new Interruption())
                .execute(spec, spec.driver(), RunResult.Broker.external(1, "h1:9092"));
        double seconds = (System.nanoTime() - start) / 1e9;
        // Three steps hang: a deadline each would take 3 x 2 s; one shared deadline ends after 2 s, and names the
        // step it never started (below).
        assertTrue(seconds >= 2 && seconds < 3 * 2, "teardown took " + seconds + " s");
        assertTrue(outcome.partial());
        String reason = outcome.result().partialReason();
        assertTrue(reason.startsWith("the broker went away"), reason);
        assertTrue(reason.contains("teardown time-out of 2 s: abandoned stop-all on worker local"), reason);
        assertTrue(reason.contains("environment (not started)"), reason);
        assertTrue(reason.contains("worker close (left running in the background)"), reason);
        assertTrue(worker.closeCalled.await(60, TimeUnit.SECONDS), "closing was still tried");
        assertTrue(Files.exists(outcome.resultFile()));
    }
}

package io.ombtx.runner.worker;

import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.stats.StatsSnapshot;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local worker in a child JVM with its own class path (e.g. the drivers on another kafka-clients release,
 * {@code --client-version}): the child runs {@code WorkerMain} on a free loopback port and this side speaks the
 * worker protocol to it over HTTP, as to any distributed worker. The child's console goes to this process's
 * standard error; closing the worker stops the child (SIGTERM, then SIGKILL after 10 s).
 */
public final class ChildJvmWorker implements Worker {

    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final HttpWorkerClient client;

    private ChildJvmWorker(Process process, HttpWorkerClient client) {
        this.process = process;
        this.client = client;
    }

    /**
     * Starts the child and waits until it listens.
     *
     * @param classPath the child's class path, in order
     * @param jvmOptions JVM options before the class path (heap, exports)
     * @param timeout how long one request may take, as for a distributed worker
     */
    public static ChildJvmWorker start(List<Path> classPath, List<String> jvmOptions, Duration timeout)
            throws WorkerException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(String.join(
                java.io.File.pathSeparator,
                classPath.stream().map(Path::toString).toList()));
        command.add("io.ombtx.runner.WorkerMain");
        command.add("--port");
        command.add("0");
        command.add("--bind-address");
        command.add("127.0.0.1");
        // A token of its own, handed over in the child's environment: no other process on this machine can drive it.
        WorkerToken token = WorkerToken.random();
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectInput(ProcessBuilder.Redirect.PIPE);
            Map.Entry<String, String> secret = token.asEnvironment();
            builder.environment().put(secret.getKey(), secret.getValue());
            process = builder.start();
        } catch (IOException e) {
            throw new WorkerException("could not start the worker JVM: " + e.getMessage(), e);
        }
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread reader = new Thread(() -> forward(process, url), "child-worker-console");
        reader.setDaemon(true);
        reader.start();
        try {
            String address = url.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            return new ChildJvmWorker(process, new HttpWorkerClient(address, timeout, token));
        } catch (ExecutionException | TimeoutException e) {
            stop(process);
            throw new WorkerException(
                    "the worker JVM did not start listening within " + START_TIMEOUT.toSeconds() + " s"
                            + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")"),
                    e);
        } catch (InterruptedException e) {
            stop(process);
            Thread.currentThread().interrupt();
            throw new WorkerException("interrupted while the worker JVM started", e);
        }
    }

    /** Reads the child's console: its address from the first line that has one; every later line to stderr. */
    private static void forward(Process process, CompletableFuture<String> url) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                Matcher m = LISTENING.matcher(line);
                if (!url.isDone() && m.find()) {
                    url.complete(m.group(1));
                } else {
                    System.err.print(line + System.lineSeparator()); // one write: never inside a progress line
                }
            }
        } catch (IOException e) {
            // the child is gone
        } finally {
            url.completeExceptionally(new IOException("the worker JVM closed its console"));
        }
    }

    /** The child's process id (for tests and the console). */
    public long pid() {
        return process.pid();
    }

    @Override
    public void initializeDriver(String driverYaml, OperationSpec operation) throws Exception {
        client.initializeDriver(driverYaml, operation);
    }

    @Override
    public List<String> createTopics(int count, int partitions) throws Exception {
        return client.createTopics(count, partitions);
    }

    @Override
    public void createProducers(List<String> topics) throws Exception {
        client.createProducers(topics);
    }

    @Override
    public void createConsumers(List<TopicSubscription> subscriptions) throws Exception {
        client.createConsumers(subscriptions);
    }

    @Override
    public void prefill(long messages, byte[] payload) throws Exception {
        client.prefill(messages, payload);
    }

    @Override
    public void startLoad(LoadSpec load) throws Exception {
        client.startLoad(load);
    }

    @Override
    public void run(Command command) throws Exception {
        client.run(command);
    }

    @Override
    public void adjustRate(double messagesPerSecond) throws Exception {
        client.adjustRate(messagesPerSecond);
    }

    @Override
    public StatsSnapshot periodStats() throws Exception {
        return client.periodStats();
    }

    @Override
    public Progress progress() throws Exception {
        return client.progress();
    }

    @Override
    public io.ombtx.runner.stats.CpuMeter.Sample cpuSample() throws Exception {
        return client.cpuSample();
    }

    @Override
    public List<io.ombtx.runner.log.ClientWarnings.Summary> clientWarnings() throws Exception {
        return client.clientWarnings();
    }

    @Override
    public Map<String, Object> environment() throws Exception {
        return client.environment();
    }

    @Override
    public ExactlyOnceReport verifyExactlyOnce(String topic, String subscription) throws Exception {
        return client.verifyExactlyOnce(topic, subscription);
    }

    @Override
    public ClientFaults.Report clientFault(ClientFaults.Request request) throws Exception {
        return client.clientFault(request);
    }

    @Override
    public void startLiveCheck(String topic, String subscription) throws Exception {
        client.startLiveCheck(topic, subscription);
    }

    @Override
    public LiveCheckReport stopLiveCheck(String topic, String subscription) throws Exception {
        return client.stopLiveCheck(topic, subscription);
    }

    /** Closes the driver in the child, then stops the child. */
    @Override
    public void close() {
        try {
            client.close();
        } finally {
            stop(process);
        }
    }

    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

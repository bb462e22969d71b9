package io.ombtx.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.ClassDataArchive;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The runs {@code bin/bench throughput} compares, each in a JVM of its own on {@code cluster}: Kafka's
 * ProducerPerformance and the omb-tx runner ({@link ThroughputChild}), with what each process and the broker spent.
 *
 * @param archive omb-tx's class-data archive in the run's scratch folder, as bin/benchmark keeps one (see {@link
 *     ClassDataArchive}): the warm-up pass, the first omb-tx child, writes it; every later omb-tx child maps it. Null:
 *     no archive ({@code --no-class-data-archive}, or a pass that shows what it saves).
 */
record ThroughputPasses(Bench bench, EmbeddedKafkaCluster cluster, Path archive) {

    private static final Pattern PP_SUMMARY = Pattern.compile("(\\d+) records sent, ([0-9.]+) records/sec");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One saturation run of either tool; the live set is NaN for ProducerPerformance (taken for omb-tx only). */
    record Pass(
            String tool,
            double messagesPerSecond,
            double cpuMicrosPerMessage,
            double runCpuMicrosPerMessage,
            double brokerCpuMicrosPerMessage,
            double heapAfterGcMiB,
            long gcCount,
            double gcShare,
            double liveSetMiB,
            Map<String, Double> threadCpuMicrosPerMessage,
            double allocatedBytesPerMessage) {}

    /** A finished child JVM: what it printed and the CPU its whole process used. */
    record Child(String output, long cpuNanos) {}

    /** The same passes without the class-data archive. */
    ThroughputPasses withoutArchive() {
        return new ThroughputPasses(bench, cluster, null);
    }

    /** A child's CPU seconds per thread group, as µs per message. */
    private static Map<String, Double> perMessage(Map<String, Object> figures, double messages) {
        Map<String, Double> out = new java.util.TreeMap<>();
        if (figures.get("threadCpuSeconds") instanceof Map<?, ?> groups) {
            groups.forEach(
                    (name, seconds) -> out.put((String) name, ((Number) seconds).doubleValue() * 1e6 / messages));
        }
        return out;
    }

    static double number(Map<String, Object> figures, String key) {
        Object value = figures.get(key);
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** Kafka's ProducerPerformance in a JVM of its own, on a fresh topic; its own summary line gives the rate. */
    Pass producerPerformance(long messages, int pass) throws Exception {
        return producerPerformance(messages, pass, null);
    }

    /** As above; {@code bufferMemory}, if not null, is the client's {@code buffer.memory} (default 32 MiB). */
    Pass producerPerformance(long messages, int pass, Long bufferMemory) throws Exception {
        String topic = "pp-" + pass + "-" + System.nanoTime();
        createTopic(cluster.bootstrapServers(), topic);
        long brokerBefore = brokerCpuNanos(cluster);
        List<String> args = new ArrayList<>(List.of(
                ThroughputChild.class.getName(),
                ThroughputChild.PRODUCER_PERFORMANCE,
                "--topic",
                topic,
                "--num-records",
                Long.toString(messages),
                "--record-size",
                "100",
                "--throughput",
                "-1",
                "--producer-props",
                "bootstrap.servers=" + cluster.bootstrapServers(),
                "acks=all",
                "linger.ms=5",
                "batch.size=131072"));
        if (bufferMemory != null) {
            args.add("buffer.memory=" + bufferMemory);
        }
        Child child = runChild(List.of("-D" + ThroughputChild.THREAD_CPU_PROPERTY + "=true"), args);
        long brokerCpu = brokerCpuNanos(cluster) - brokerBefore;
        Matcher m = PP_SUMMARY.matcher(child.output());
        double rate = Double.NaN;
        while (m.find()) {
            rate = Double.parseDouble(m.group(2)); // the last such line is the whole run's summary
        }
        if (Double.isNaN(rate)) {
            throw new IllegalStateException("ProducerPerformance printed no summary:\n" + child.output());
        }
        Map<String, Object> r = childResult(child, "ProducerPerformance");
        return new Pass(
                "ProducerPerformance",
                rate,
                child.cpuNanos() / 1e3 / messages,
                number(r, "runCpuSeconds") * 1e6 / messages,
                brokerCpu / 1e3 / messages,
                number(r, "heapAfterGcMaxMiB"),
                (long) number(r, "gcCount"),
                number(r, "gcSeconds") / number(r, "wallSeconds"),
                Double.NaN,
                perMessage(r, messages),
                number(r, "allocatedBytes") / messages);
    }

    /** The omb-tx runner end to end in a JVM of its own at an unreachable rate, counting {@code messages}. */
    Pass ombTxSaturation(long messages, int pass) throws Exception {
        return ombTxSaturation(messages, pass, null);
    }

    /** As above; {@code bufferMemory}, if not null, is the client's {@code buffer.memory} (default 32 MiB). */
    Pass ombTxSaturation(long messages, int pass, Long bufferMemory) throws Exception {
        long brokerBefore = brokerCpuNanos(cluster);
        long[] cpu = new long[1];
        String buffer = bufferMemory == null
                ? ""
                : """
                driverOverrides:
                  producerConfig: |
                    buffer.memory=%d
                """
                        .formatted(bufferMemory);
        Map<String, Object> r = ombTxChild(
                "saturation-" + pass,
                """
                producerRate: 10000000
                warmupMessages: 0
                measureMessages: %d
                """
                                .formatted(messages)
                        + buffer,
                cpu,
                -1);
        long brokerCpu = brokerCpuNanos(cluster) - brokerBefore;
        double sent = number(r, "messagesSent");
        return new Pass(
                "omb-tx",
                number(r, "messagesPerSecond"),
                cpu[0] / 1e3 / sent,
                number(r, "runCpuSeconds") * 1e6 / sent,
                brokerCpu / 1e3 / sent,
                number(r, "heapAfterGcMaxMiB"),
                (long) number(r, "gcCount"),
                number(r, "gcSeconds") / number(r, "wallSeconds"),
                number(r, "liveSetMiB"),
                perMessage(r, sent),
                number(r, "allocatedBytes") / sent);
    }

    /** One {@link ThroughputChild} run; its figures, and (if {@code cpu} is given) its process's CPU in cpu[0]. */
    Map<String, Object> ombTxChild(String name, String load, long[] cpu, long liveSetAfterSeconds) throws Exception {
        List<String> flags = new ArrayList<>(archiveFlags());
        if (liveSetAfterSeconds >= 0) {
            flags.add("-D" + ThroughputChild.LIVE_SET_PROPERTY + "=" + liveSetAfterSeconds);
        }
        if (cpu != null) { // a saturation pass: where its CPU goes, by thread
            flags.add("-D" + ThroughputChild.THREAD_CPU_PROPERTY + "=true");
        }
        Child child = runChild(
                flags,
                List.of(
                        ThroughputChild.class.getName(),
                        cluster.bootstrapServers(),
                        bench.work().toString(),
                        name,
                        load));
        if (cpu != null) {
            cpu[0] = child.cpuNanos();
        }
        return childResult(child, "the omb-tx run '" + name + "'");
    }

    /** The JVM flags that map omb-tx's class-data archive or, while it is missing, have the child write it. */
    private List<String> archiveFlags() {
        if (archive == null) {
            return List.of();
        }
        return Files.exists(archive)
                ? List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off")
                : List.of(
                        "-XX:+RecordDynamicDumpInfo",
                        "-D" + ClassDataArchive.PROPERTY + "=" + archive,
                        "-Xlog:cds=off",
                        "-Xlog:cds+dynamic=off");
    }

    static Map<String, Object> childResult(Child child, String what) throws IOException {
        for (String line : child.output().split("\n")) {
            if (line.startsWith(ThroughputChild.PREFIX)) {
                return JSON.readValue(
                        line.substring(ThroughputChild.PREFIX.length()), new TypeReference<Map<String, Object>>() {});
            }
        }
        throw new IllegalStateException(what + " printed no result:\n" + child.output());
    }

    /** {@code java CHILD_FLAGS -cp <this class path> args...}, waited for; fails on a non-zero exit. */
    Child runChild(List<String> properties, List<String> args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(Throughput.CHILD_FLAGS.split(" ")));
        command.addAll(properties);
        command.add("-Dombtx.home=" + bench.home());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.addAll(args);
        Path log = Files.createTempFile(bench.work(), "child-", ".log");
        long before = reapedChildrenCpuNanos();
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        int code = process.waitFor();
        long cpu = reapedChildrenCpuNanos() - before;
        String output = Files.readString(log);
        if (code != 0) {
            throw new IllegalStateException(String.join(" ", args.subList(0, 2)) + " exited with " + code
                    + (code == 3 ? " (out of memory under " + Throughput.CHILD_FLAGS + ")" : "") + ":\n" + output);
        }
        return new Child(output, cpu);
    }

    /**
     * CPU time (user + system) of this JVM's children that have ended and been waited for (cutime + cstime in
     * /proc/self/stat): each child JVM's whole process. The brokers, children still running, are not in it.
     */
    static long reapedChildrenCpuNanos() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) * 10_000_000L; // USER_HZ is 100 on Linux
    }

    /** One omb-tx run of a 1-topic, 1-partition, 100-byte, no-consumer workload with {@code load} appended. */
    static Bench.Run ombTxRun(Bench bench, DriverFile driver, String name, String load) throws Exception {
        Path file = Files.writeString(
                bench.work().resolve(name + ".yaml"),
                """
                name: %s
                messageSize: 100
                topics: 1
                partitionsPerTopic: 1
                producersPerTopic: 1
                subscriptionsPerTopic: 0
                reportingIntervalSeconds: 3600
                """
                                .formatted(name)
                        + load);
        Workload workload = WorkloadLoader.load(file, null).get(0);
        return bench.run(driver, workload);
    }

    private static void createTopic(String bootstrap, String topic) throws Exception {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
    }

    /** CPU time (user + system) of the broker processes so far, from /proc; 0 where /proc is not there. */
    static long brokerCpuNanos(EmbeddedKafkaCluster cluster) {
        long ticks = 0;
        for (long pid : cluster.pids()) {
            try {
                ticks += ThroughputChild.cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }
        return ticks * 10_000_000L; // USER_HZ is 100 on Linux
    }
}

package io.ombtx.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The baseline of the open-loop benchmarks: a bare paced loop over {@code KafkaProducer.send} on a fresh
 * one-partition topic, nothing else. Message {@code i} is due at {@code start + i / rate}; the loop parks until
 * then (as the runner's pacer does, without its last-microseconds spin) and records how late the send started,
 * the publish delay. Whatever delay this loop shows, the machine (scheduler, GC, the broker beside it) imposes
 * on any load generator.
 */
final class BareLoop {

    /**
     * Achieved msg/s, the publish delay's p50, p95, p99 and p99.9 in µs, and this thread's and the client's CPU per
     * million messages.
     */
    record Figures(
            double achievedRate,
            double delayP50Micros,
            double delayP95Micros,
            double delayP99Micros,
            double delayP999Micros,
            double cpuSecondsPerMillion) {}

    private BareLoop() {}

    /**
     * {@code warmupMessages} unmeasured, then {@code messages} measured, at {@code rate} msg/s of 100-byte messages.
     *
     * @param producerSettings kafka-clients settings beyond the bootstrap servers (acks, linger.ms, batch.size)
     */
    static Figures run(String bootstrap, Properties producerSettings, int rate, long warmupMessages, long messages)
            throws Exception {
        Properties props = new Properties();
        props.putAll(producerSettings);
        props.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        String topic = "bare-" + rate + "-" + System.nanoTime();
        byte[] payload = new byte[100];
        long interval = 1_000_000_000L / rate;
        long[] delays = new long[(int) messages];
        AtomicLong acked = new AtomicLong();
        // The embedded broker does not auto-create topics.
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, payload)).get();
            long start = System.nanoTime();
            long cpuBefore = 0;
            long measuredStart = start;
            for (long i = 0; i < warmupMessages + messages; i++) {
                if (i == warmupMessages) {
                    cpuBefore = Bench.cpuNanos();
                    measuredStart = System.nanoTime();
                    acked.set(0);
                }
                long intended = start + i * interval;
                long wait;
                while ((wait = intended - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                if (i >= warmupMessages) {
                    delays[(int) (i - warmupMessages)] = (System.nanoTime() - intended) / 1000;
                }
                producer.send(new ProducerRecord<>(topic, payload), (m, e) -> acked.incrementAndGet());
            }
            producer.flush();
            double seconds = (System.nanoTime() - measuredStart) / 1e9;
            long cpuNanos = Bench.cpuNanos() - cpuBefore;
            Arrays.sort(delays);
            return new Figures(
                    acked.get() / seconds,
                    delays[(int) (messages * 0.50)],
                    delays[(int) (messages * 0.95)],
                    delays[(int) (messages * 0.99)],
                    delays[(int) (messages * 0.999)],
                    cpuNanos / 1e9 / (messages / 1e6));
        }
    }
}

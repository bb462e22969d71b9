package io.ombtx.driver.kafka;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.bookkeeper.stats.Counter;
import org.apache.bookkeeper.stats.Gauge;
import org.apache.bookkeeper.stats.OpStatsData;
import org.apache.bookkeeper.stats.OpStatsLogger;
import org.apache.bookkeeper.stats.StatsLogger;

/** An in-memory StatsLogger: counts events per op logger and counter values, by scoped name ("tx/commit"). */
final class CountingStatsLogger implements StatsLogger {

    final Map<String, AtomicLong> events;
    final Map<String, AtomicLong> counters;
    final Map<String, List<Long>> values; // registerSuccessfulValue, in order
    private final String prefix;

    CountingStatsLogger() {
        this("", new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
    }

    private CountingStatsLogger(
            String prefix,
            Map<String, AtomicLong> events,
            Map<String, AtomicLong> counters,
            Map<String, List<Long>> values) {
        this.prefix = prefix;
        this.events = events;
        this.counters = counters;
        this.values = values;
    }

    /** The successful values registered under {@code name}, in order. */
    List<Long> values(String name) {
        return List.copyOf(values.getOrDefault(name, List.of()));
    }

    long events(String name) {
        return events.getOrDefault(name, new AtomicLong()).get();
    }

    long counter(String name) {
        return counters.getOrDefault(name, new AtomicLong()).get();
    }

    @Override
    public OpStatsLogger getOpStatsLogger(String name) {
        AtomicLong count = events.computeIfAbsent(prefix + name, k -> new AtomicLong());
        List<Long> registered = values.computeIfAbsent(prefix + name, k -> new CopyOnWriteArrayList<>());
        return new OpStatsLogger() {
            @Override
            public void registerFailedEvent(long eventLatency, TimeUnit unit) {}

            @Override
            public void registerSuccessfulEvent(long eventLatency, TimeUnit unit) {
                count.incrementAndGet();
            }

            @Override
            public void registerSuccessfulValue(long value) {
                registered.add(value);
            }

            @Override
            public void registerFailedValue(long value) {}

            @Override
            public OpStatsData toOpStatsData() {
                return null;
            }

            @Override
            public void clear() {}
        };
    }

    @Override
    public Counter getCounter(String name) {
        AtomicLong value = counters.computeIfAbsent(prefix + name, k -> new AtomicLong());
        return new Counter() {
            @Override
            public void clear() {
                value.set(0);
            }

            @Override
            public void inc() {
                value.incrementAndGet();
            }

            @Override
            public void dec() {
                value.decrementAndGet();
            }

            @Override
            public void add(long delta) {
                value.addAndGet(delta);
            }

            @Override
            public Long get() {
                return value.get();
            }
        };
    }

    @Override
    public <T extends Number> void registerGauge(String name, Gauge<T> gauge) {}

    @Override
    public <T extends Number> void unregisterGauge(String name, Gauge<T> gauge) {}

    @Override
    public StatsLogger scope(String name) {
        return new CountingStatsLogger(prefix + name + "/", events, counters, values);
    }

    @Override
    public void removeScope(String name, StatsLogger statsLogger) {}
}

package io.ombtx.runner.result;

import io.ombtx.driver.api.Phase;
import io.ombtx.runner.result.ResultBuilder.RunFacts;
import io.ombtx.runner.result.RunResult.RateVerdict;
import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.CpuMeter;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Whether an open loop held the rate it was asked for, and if not what held it back as far as the run can tell: its
 * own process busy on every core (the load generator), the whole machine busy (a load generator and an embedded
 * broker sharing it), or neither (the broker: the sends waited for the client's buffers and the commits).
 */
final class RateJudge {

    /** The load generator's share of its cores past which it, not the broker, is taken to be the limit. */
    static final double BUSY_PROCESS = 0.9;
    /** The machine's busy share past which the cores themselves are the limit. */
    static final double BUSY_MACHINE = 0.95;

    private RateJudge() {}

    /**
     * The verdict on an open loop with a target rate (given, or found by the search); null for any other run, and
     * for one that ended before its measured phase began (a set-up failure measured nothing to judge).
     */
    static RateVerdict verdict(RunFacts facts, StatsSnapshot measured) {
        RunResult.RunMode mode = facts.runMode();
        if (mode == null || mode.loop() != RunResult.Loop.OPEN) {
            return null;
        }
        if (facts.startTime() != null
                && facts.endTime() != null
                && !facts.endTime().isAfter(facts.startTime())) {
            return null;
        }
        double target = mode.targetRate() != null
                ? mode.targetRate()
                : mode.maxRateSearch() != null ? mode.maxRateSearch().foundRate() : 0;
        if (target <= 0) {
            return null;
        }
        // The messages sent in the measured phase over its wall time. Not every message acknowledged in it: at the
        // warm-up's end the messages still waiting for their commit (seconds, under load) are acknowledged in the
        // measurement, and counted they made 5,000 msg/s read 7,348. Nor over the span of the measured messages,
        // which reaches back into the warm-up by as long as such a message waited. A worker that does not count
        // them (stock OMB's) leaves the acknowledged count.
        double seconds = Math.max(
                1e-9, Duration.between(facts.startTime(), facts.endTime()).toNanos() / 1e9);
        long sentMeasured = measured.counter(Counter.MESSAGES_SENT_MEASURED);
        double achieved = (sentMeasured > 0 ? sentMeasured : measured.counter(Counter.MESSAGES_SENT)) / seconds;
        double ratio = achieved / target;
        Histogram delay = measured.histogram(Latency.PUBLISH_DELAY);
        Double delayP99 = delay.getTotalCount() == 0 ? null : delay.getValueAtPercentile(99) / 1000.0;
        boolean held = ratio >= RateVerdict.HELD_RATIO
                && (delayP99 == null || delayP99 <= RateVerdict.PUBLISH_DELAY_BOUND_MILLIS);
        CpuMeter.Use cpu = facts.cpu();
        Double processCpu = cpu == null ? null : cpu.process();
        String limitedBy = null;
        String evidence = null;
        if (!held) {
            String[] why = limit(facts, measured, cpu, delayP99);
            limitedBy = why[0];
            evidence = why[1];
        }
        return new RateVerdict(
                target,
                achieved,
                ratio,
                held,
                delayP99,
                RateVerdict.PUBLISH_DELAY_BOUND_MILLIS,
                processCpu,
                cpu == null ? null : cpu.machine(),
                cpu == null ? null : cpu.cores(),
                limitedBy,
                evidence);
    }

    /** {limitedBy, evidence} for a rate not held. */
    private static String[] limit(RunFacts facts, StatsSnapshot measured, CpuMeter.Use cpu, Double delayP99) {
        String delay = delayP99 == null ? "" : String.format(Locale.ROOT, "; publish delay p99 %.0f ms", delayP99);
        if (cpu == null || cpu.process() == null) {
            return new String[] {
                null, "the load ran on remote workers that did not report their CPU (stock OMB's)" + delay
            };
        }
        String own = String.format(
                Locale.ROOT,
                "the load generator%s used %.0f%% of %d core(s)",
                cpu.where() == null ? "" : " (the busiest worker, " + cpu.where() + ")",
                100 * cpu.process(),
                cpu.cores());
        if (cpu.process() >= BUSY_PROCESS) {
            return new String[] {"load generator", own + delay};
        }
        boolean embedded = facts.broker() != null && facts.broker().embedded();
        if (embedded && cpu.where() == null && cpu.machine() != null && cpu.machine() >= BUSY_MACHINE) {
            return new String[] {
                "machine",
                String.format(
                        Locale.ROOT,
                        "the machine's cores were %.0f%% busy, shared by the load generator and the embedded broker; %s%s",
                        100 * cpu.machine(),
                        own,
                        delay)
            };
        }
        StringBuilder broker = new StringBuilder(own).append(delay);
        measured.recorded(Phase.COMMIT)
                .ifPresent(commit -> broker.append(
                        String.format(Locale.ROOT, "; commit p50 %.1f ms", commit.getValueAtPercentile(50) / 1000.0)));
        long retried = retried(facts.clientWarnings());
        if (retried > 0) {
            broker.append(String.format(
                    Locale.ROOT,
                    "; the client retried %,d request(s) the broker answered CONCURRENT_TRANSACTIONS",
                    retried));
        }
        return new String[] {"broker", broker.toString()};
    }

    /** Produce requests kafka-clients retried on CONCURRENT_TRANSACTIONS, as its warnings counted them. */
    private static long retried(List<RunResult.ClientWarning> warnings) {
        if (warnings == null) {
            return 0;
        }
        return warnings.stream()
                .filter(w -> w.message().contains("CONCURRENT_TRANSACTIONS"))
                .mapToLong(RunResult.ClientWarning::count)
                .sum();
    }
}
